"""`Problem`: one thing wrong with (or to review in) a case, from validation, a save or a draft."""

from __future__ import annotations

from typing import Any, Iterable, Literal

from pydantic import computed_field, model_validator

from promote.errors import where as format_where
from promote.models import Model

Severity = Literal["error", "warning", "note"]


class Problem(Model):
    """One finding about a case: what is wrong (or still to do), where, and under which rule."""

    severity: Severity = "error"
    """error: the case is refused or fails validation; warning: worth a look; note: what a draft still
    needs."""
    rule: str
    """Which check: schema, id, unique-id, figure-in-output, must-cite, kind-data, match-args, draft-todo,
    output-placeholder, residual-pii, known-value, bad-input, draft (review notes)."""
    field: str = ""
    """Dotted field path, e.g. `numeric[0].value`; `""` for the whole case."""
    message: str
    """What is wrong and what to do."""
    file: str | None = None
    """The case file, when there is one."""
    line: int | None = None
    """1-based line of the offending key or value in `file`."""
    column: int | None = None
    """1-based column of the offending key or value in `file`."""

    @model_validator(mode="before")
    @classmethod
    def _drop_where(cls, data: Any) -> Any:
        # `where` is computed: a dumped problem loads back.
        if isinstance(data, dict) and "where" in data:
            data = {key: value for key, value in data.items() if key != "where"}
        return data

    @computed_field  # type: ignore[prop-decorator]
    @property
    def where(self) -> str:
        """`file:line:column` as far as known (`validate --json` has always printed it)."""
        if self.file is None:
            return self.field or "-"
        return format_where(self.file, self.line, self.column)

    def __str__(self) -> str:
        return f"{self.where}: {self.severity}: {self.field or '-'}: {self.message} [{self.rule}]"


def field_path(location: Iterable[Any]) -> str:
    """('expected_tools', 'calls', 1, 'args') → `expected_tools.calls[1].args`."""
    text = ""
    for part in location:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def errors(problems: Iterable[Problem]) -> list[Problem]:
    """The problems that refuse a case (severity error)."""
    return [problem for problem in problems if problem.severity == "error"]
