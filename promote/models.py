"""The one pydantic base of the tool's own models: unknown keys are errors, field docstrings are the docs."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Model(BaseModel):
    """Base of every promote model: `extra="forbid"` (a typo is an error) and attribute docstrings as
    field descriptions (they land in the exported JSON Schemas)."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class EditableModel(Model):
    """A model people edit (the case and its parts): assignments are validated, so an edit that breaks
    the schema fails where it is made, not when the file is saved."""

    model_config = ConfigDict(validate_assignment=True)
