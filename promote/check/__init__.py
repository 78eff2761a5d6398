"""`promote check`: score agent traces against golden cases with deterministic evaluators (seed 002).

`check_paths` is what the command line calls; `check_cases` takes cases and traces already read;
`junit_xml` / `write_junit` and `render_report` present a `CheckReport`. The evaluators themselves, and
the compile target's view of them (`checks_artifact`), are `promote.evaluators`: this package pairs cases
with traces, scrubs the traces and runs them.
"""

from promote.check.junit import junit_xml, write_junit
from promote.check.report import CheckReport, render_report
from promote.check.run import check_cases, check_paths

__all__ = ["CheckReport", "check_cases", "check_paths", "junit_xml", "render_report", "write_junit"]
