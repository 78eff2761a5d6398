"""`promote check`: score agent traces against golden cases with deterministic evaluators (seed 002).

`check_paths` is what the command line calls; `check_cases` takes cases and traces already read;
`checks_artifact` is the compile target's view of the same checks; `junit_xml` / `write_junit` and
`render_report` present a `CheckReport`.
"""

from promote.check.artifact import checks_artifact
from promote.check.junit import junit_xml, write_junit
from promote.check.report import LABELS, CheckReport, render_report
from promote.check.run import check_cases, check_paths

__all__ = ["LABELS", "CheckReport", "check_cases", "check_paths", "checks_artifact", "junit_xml",
           "render_report", "write_junit"]
