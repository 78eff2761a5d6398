"""The case id pattern, on its own so that the command line can check an id without loading the case
model (pydantic builds every model class at import: a tenth of a second on every `promote` command)."""

ID_PATTERN = r"^[a-z][a-z0-9_]*\.[a-z0-9_]+_[0-9]{3}$"
"""A case id: `<pillar>.<topic>_<NNN>` (`hr.pto_carryover_001`)."""
