"""The deterministic evaluators a case implies: what each one scores on a paired turn's evidence
(`tools`, `reply`, `budgets`, `figures`, `pii`), which of them a case implies (`registry`) and the same
as data (`artifact.checks_artifact`).

`promote check` runs them on traces; `promote compile` writes them as the checks artifact and as ADK's
custom metric. Neither reads traces here: the evaluators take `Evidence` already paired and scrubbed.
"""
