"""Compile golden cases to the evaluation backends that score them (see docs/compile.md).

One module per backend, each a pure function from cases and the suite policy to artifacts
(`adk_eval`, `ragas_eval`, `numeric_oracle`, `safety_probe`); `targets.TARGETS` is the table of them;
`run` reads cases and writes or checks artifacts. The runtime never imports google-adk or ragas.
"""
