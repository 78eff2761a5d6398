"""Labelled text for measuring the scrubber, read by tests and benchmarks alike (neither imports the
other): the generated HR, international and agent sets (`scrub_corpus*`) and how a scrub of them is
scored (`scrub_scoring`); sets others wrote (`external`, data in `data/`); made-up values planted into
the real fixture traces, and the places and disguises they are planted in (`planting`, `planting_records`).
"""
