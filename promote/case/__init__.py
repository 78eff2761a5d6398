"""The portable-v1 case: model, YAML round trip, rules, residual PII, schema export, validation.

Imports nothing of `promote.ingest`, `promote.batch`, `promote.draft` or `promote.cli`.
"""
