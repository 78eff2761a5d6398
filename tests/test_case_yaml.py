"""Round-trip YAML: byte-identical no-op, minimal diffs, comments kept, styles kept."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from promote.case.model import Case, ExpectedToolCall, NumericFigure, RetrievalChunk
from promote.case.store import save_case
from promote.case.yaml_io import SCHEMA_HEADER, dump_tree, load_tree, merge_case
from promote.errors import PromoteError
from tests.conftest import GOLDEN_CASES

HERO = GOLDEN_CASES / "hr.policy_carryover_004.yaml"


def edited(path: Path, edit) -> tuple[str, str]:
    before = path.read_text()
    tree = load_tree(path)
    case = Case.model_validate(tree)
    edit(case)
    merge_case(tree, case)
    return before, dump_tree(tree)


def changed_lines(before: str, after: str) -> tuple[list[str], list[str]]:
    diff = list(difflib.ndiff(before.splitlines(), after.splitlines()))
    return [l[2:] for l in diff if l.startswith("- ")], [l[2:] for l in diff if l.startswith("+ ")]


@pytest.mark.parametrize("path", sorted(GOLDEN_CASES.glob("*.yaml")), ids=lambda p: p.stem)
def test_unchanged_case_saves_byte_identical(path: Path) -> None:
    before, after = edited(path, lambda case: None)
    assert after == before


def test_changing_one_field_changes_only_its_line_and_keeps_its_comment() -> None:
    before, after = edited(HERO, lambda case: setattr(case, "revision", 8))
    removed, added = changed_lines(before, after)
    assert len(removed) == len(added) == 1
    assert added[0].startswith("revision: 8 ") and "# bumped whenever" in added[0]
    assert after.count("#") == before.count("#")


def test_editing_folded_prose_keeps_other_comments() -> None:
    def edit(case: Case) -> None:
        case.expected_output = case.expected_output.replace("22.5 hours", "22.5 hours (62.5 - 40)")

    before, after = edited(HERO, edit)
    removed, added = changed_lines(before, after)
    assert all("expected_output" in l or not l.strip().startswith("#") for l in removed)
    assert "numeric:                             # regulated figures" in after
    assert after.startswith("# yaml-language-server: $schema=")
    assert Case.model_validate(load_tree(HERO, after)).expected_output.endswith(
        "(62.5 - 40) could be at risk."
    )


def test_appending_a_tool_call_keeps_comments_in_place() -> None:
    def edit(case: Case) -> None:
        case.expected_tools.calls.append(ExpectedToolCall(name="get_accrual_balances",
                                                          args={"as_of": "2026-06-29"}))

    before, after = edited(HERO, edit)
    removed, added = changed_lines(before, after)
    assert removed == []
    assert added == ["    - name: get_accrual_balances", "      args:", "        as_of: '2026-06-29'"]
    lines = after.splitlines()
    cont = lines.index(next(l for l in lines if "# regex:<pattern>" in l))
    assert lines[cont + 1] == "    - name: get_accrual_balances"  # after the comment of the previous item
    # the blank line before the next key stays
    assert lines[lines.index("        as_of: '2026-06-29'") + 1] == ""


def test_appending_a_figure_keeps_flow_style_and_the_blank_line() -> None:
    def edit(case: Case) -> None:
        case.numeric.append(NumericFigure(name="accrual_rate", value=4.62, unit="h",
                                          oracle="ukg-accrual-engine"))

    before, after = edited(HERO, edit)
    removed, added = changed_lines(before, after)
    assert removed == []
    # A new item holds every value that says something, defaults included (as its siblings do).
    added_line = "  - {name: accrual_rate, value: 4.62, unit: h, oracle: ukg-accrual-engine, tolerance: 0}"
    assert added == [added_line]
    assert f"\n{added_line}\n\nmust_cite:" in after


def test_appending_a_citation_and_multiline_chunk_writes_a_block_scalar() -> None:
    def edit(case: Case) -> None:
        case.retrieval_context.append(RetrievalChunk(citation="PTO-CA-2026 §4.4",
                                                     text="First line.\nSecond line."))
        case.must_cite.append("PTO-CA-2026 §4.4")

    before, after = edited(HERO, edit)
    assert "    text: |-\n      First line.\n      Second line.\n\nexpected_output:" in after
    assert "must_cite: [PTO-CA-2026 §4.2, PTO-CA-2026 §4.4]" in after
    assert "retrieval_context:                   # golden chunks" in after


def test_deleting_a_section_keeps_the_blank_line_and_comments_after_it() -> None:
    before, after = edited(HERO, lambda case: setattr(case, "safety", None))
    assert "safety:" not in after
    assert (
        "must_cite: [PTO-CA-2026 §4.2]\n\nkind: [functional, retrieval, numeric, safety]   # drives" in after
    )


def test_dates_and_version_like_strings_keep_type_and_quoting() -> None:
    def edit(case: Case) -> None:
        case.params["as_of"] = "2026-07-01"
        case.params["calendar_version"] = "1.10"

    before, after = edited(HERO, edit)
    assert 'as_of: "2026-07-01"' in after  # double quotes of the original kept
    assert "calendar_version: '1.10'" in after  # a new version-like string is quoted, not a float
    case = Case.model_validate(load_tree(HERO, after))
    assert case.params == {"as_of": "2026-07-01", "calendar_version": "1.10"}


def test_new_case_starts_with_schema_header_and_round_trips(tmp_path: Path) -> None:
    case = Case(id="hr.new_case_001", title="t", input="line one\nline two", expected_output="ok")
    path = tmp_path / "hr.new_case_001.yaml"
    save_case(case, path, residual_scan=None)
    text = path.read_text()
    assert text.splitlines()[0] == "# " + SCHEMA_HEADER
    assert "input: |-\n  line one\n  line two\n" in text
    assert dump_tree(load_tree(path)) == text


def test_failed_write_leaves_the_old_file_intact(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "hr.x_001.yaml"
    path.write_text("old\n")
    import promote.fsutil as fsutil

    def broken_replace(*_args, **_kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(fsutil.os, "replace", broken_replace)
    with pytest.raises(PromoteError, match="cannot write"):
        save_case(Case(id="hr.x_001", title="t", input="i"), path, overwrite=True, residual_scan=None)
    assert path.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["hr.x_001.yaml"]


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty file"),
        ("- a\n- b\n", "top level is a list"),
        ("id: a\nid: b\n", 'duplicate key "id"'),
        ("params:\n\tas_of: x\n", "tab used for indentation"),
        ("format: portable-v2\n", "newer than this promote reads"),
        ("id: [unclosed\ntitle: x\n", "expected ',' or ']'"),
    ],
)
def test_bad_yaml_is_one_clear_error(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(PromoteError) as caught:
        load_tree(path)
    assert message in str(caught.value)
    assert str(caught.value).startswith(str(path))
    assert path.read_text() == text  # nothing on disk is modified
