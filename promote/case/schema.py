"""Export the portable-v1 JSON Schema from the `Case` model (the model is the schema)."""

from __future__ import annotations

import json
from pathlib import Path

from promote.case.model import Case

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "schema" / "portable-v1.schema.json"


def case_json_schema() -> dict:
    """The JSON Schema editors use to check case files (`# yaml-language-server: $schema=...`)."""
    schema = Case.model_json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}


def case_json_schema_text() -> str:
    return json.dumps(case_json_schema(), indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    """`python -m promote.case.schema` rewrites schema/portable-v1.schema.json."""
    SCHEMA_PATH.write_text(case_json_schema_text(), encoding="utf-8")
    print(f"wrote {SCHEMA_PATH}")


if __name__ == "__main__":
    main()
