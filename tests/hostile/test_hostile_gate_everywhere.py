"""One residual gate over everything a case file says, and no command that repeats what it found.

A raw name or email is planted in each place a case file can hold text that is not a plain value (a
comment, a key, an anchor, a tag, base64 or `!!binary` text, HTML entities) and in each identifier
that leaves with the case (its id, which becomes a branch and folder name; tool, figure and dataset
names; tenant id; the trace's id and service; the source path). `validate` must flag it (exit 1),
`check` and `compile` must refuse the case (exit 2), and no output may repeat the value.
"""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from promote.cli.main import main
from tests.conftest import GOLDEN_CASES, TRACES

HERO = GOLDEN_CASES / "hr.policy_carryover_004.yaml"
NAME, EMAIL = "Greg Hallman", "greg.hallman@example.com"
SECRETS = (NAME, EMAIL, "hallman", "Hallman")
URLSAFE = base64.urlsafe_b64encode(EMAIL.encode()).decode()


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


# (where, what the hero case's text becomes): old text -> new text, planted once.
PLANTED = {
    "comment-eol": ("tier: golden", f"tier: golden   # asked by {NAME}"),
    "comment-line": ("tier: golden", f"# reviewed with {EMAIL}\ntier: golden"),
    "comment-in-flow-list": ("must_cite: [PTO-CA-2026 §4.2]", f"must_cite: [PTO-CA-2026 §4.2]  # {EMAIL}"),
    "metadata-key": ("  persona: employee", f"  persona: employee\n  {EMAIL}: reviewer"),
    "metadata-key-name": ("  persona: employee", "  persona: employee\n  greg_hallman_notes: x"),
    "params-key": ('  as_of: "2026-06-29"', f'  as_of: "2026-06-29"\n  {EMAIL}: 1'),
    "replaced-key": ("PHONE_NUMBER: 1}", f"PHONE_NUMBER: 1, {EMAIL}: 1}}"),
    "args-key": ("args: {topic: pto_carryover, jurisdiction: CA}",
                 f"args: {{topic: pto_carryover, jurisdiction: CA, {EMAIL}: x}}"),
    "anchor": ("  persona: employee", "  persona: &greg_hallman employee\n  persona2: *greg_hallman"),
    "tag": ("  persona: employee", "  persona: !greg.hallman@example.com employee"),
    "base64-value": ("  persona: employee", f"  persona: employee\n  blob: {_b64(NAME + ' ' + EMAIL)}"),
    "binary": ("  persona: employee", f"  persona: employee\n  blob: !!binary {_b64(EMAIL)}"),
    "html-entities": ("  persona: employee",
                      "  persona: employee\n  note: write to greg&#46;hallman&#64;example&#46;com"),
    "figure-name": ("- name: carryover_cap", "- name: cap_for_greg_hallman"),
    "tool-name": ("- name: get_employee_context", "- name: lookup_greg_hallman"),
    "dataset": ("datasets: [hr-policy-carryover-golden]", "datasets: [greg-hallman-reviews]"),
    "tenant-id": ("id: acme-retail-us", "id: greg-hallman-sandbox"),
    "trace-id": ("trace_id: 8f3a2c6e1b7d4f0a9e5c3b2a1d0f8e7c", f"trace_id: {EMAIL}"),
    "trace-service": ("service: hr-policy-advisor", "service: laptop-greg-hallman-01"),
    "source-path": ("path: evals/cases/hr.policy_carryover_004.yaml",
                    "path: evals/greg.hallman/hr.policy_carryover_004.yaml"),
    # other placements and disguises of the same classes
    "anchor-on-list": ("kind: [functional", "kind: &greg_hallman_kinds [functional"),
    "tag-on-mapping": ("metadata:\n", "metadata: !greg.hallman@example.com\n"),
    "percent-encoded": ("  persona: employee", "  persona: employee\n  link: greg%2Ehallman%40example.com"),
    "base64url-in-text": ("  persona: employee",
                          f"  persona: employee\n  url: https://x.test/?t={URLSAFE}"),
    "comment-after-block-scalar": ("numeric:", f"# signed off by {NAME}\nnumeric:"),
    "key-in-list-item": ("  persona: employee", f"  persona: employee\n  owners: [{{{EMAIL}: lead}}]"),
    "case-id": ("id: hr.policy_carryover_004", "id: hr.greg_hallman_004"),
    "forbidden-tool": ("must_cite: [PTO-CA-2026 §4.2]",
                       "must_cite: [PTO-CA-2026 §4.2]\nforbidden_tools: [email_greg_hallman]"),
}


def _plant(tmp_path: Path, where: str) -> Path:
    old, new = PLANTED[where]
    text = HERO.read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / HERO.name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def _leaks(text: str) -> list[str]:
    return [secret for secret in SECRETS if secret.lower() in text.lower()]


@pytest.mark.parametrize("where", sorted(PLANTED))
def test_validate_flags_a_value_wherever_the_file_holds_it_and_never_repeats_it(tmp_path, capsys, where):
    path = _plant(tmp_path, where)
    code = main(["validate", str(path)])
    captured = capsys.readouterr()
    assert code == 1, captured.out
    assert "[residual-pii]" in captured.out, captured.out
    assert _leaks(captured.out + captured.err) == []


@pytest.mark.parametrize("where", ["comment-eol", "metadata-key", "anchor", "tool-name", "base64-value",
                                   "case-id"])
def test_validate_json_does_not_repeat_it_either(tmp_path, capsys, where):
    path = _plant(tmp_path, where)
    assert main(["validate", "--json", str(path)]) == 1
    assert _leaks(capsys.readouterr().out) == []


@pytest.mark.parametrize("where", ["comment-line", "tool-name", "figure-name", "html-entities",
                                   "replaced-key"])
def test_check_refuses_a_case_that_fails_the_gate(tmp_path, capsys, where):
    path = _plant(tmp_path, where)
    junit = tmp_path / "report.xml"
    code = main(["check", str(path), "--trace", str(TRACES / "adk2.otlp.jsonl"), "--junit", str(junit)])
    captured = capsys.readouterr()
    assert code == 2, captured.err
    assert "residual" in captured.err or "found" in captured.err
    assert _leaks(captured.out + captured.err) == [] and not junit.exists()


@pytest.mark.parametrize("where", ["comment-eol", "tag", "dataset", "tenant-id"])
def test_compile_refuses_a_case_that_fails_the_gate(tmp_path, capsys, where):
    path = _plant(tmp_path, where)
    out = tmp_path / "out"
    assert main(["compile", str(path), "-o", str(out)]) == 2
    captured = capsys.readouterr()
    assert _leaks(captured.out + captured.err) == [] and not out.exists()


def test_an_unknown_key_holding_a_value_is_not_repeated(tmp_path, capsys):
    text = HERO.read_text(encoding="utf-8") + f"\n{EMAIL}: 1\n"
    path = tmp_path / HERO.name
    path.write_text(text, encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    captured = capsys.readouterr()
    assert "unknown key" in captured.out and _leaks(captured.out + captured.err) == []


@pytest.mark.parametrize("field,value", [
    ("reply-pattern", "reply:\n  matches: ['(greg|hallman']\n"),
    ("match-rule", None),
])
def test_a_schema_error_never_quotes_the_value(tmp_path, capsys, field, value):
    text = HERO.read_text(encoding="utf-8")
    if value is None:
        text = text.replace("match: {topic: exact", "match: {topic: 'greg.hallman@example.com'", 1)
    else:
        text += "\n" + value
    path = tmp_path / HERO.name
    path.write_text(text, encoding="utf-8")
    assert main(["validate", "--no-pii-scan", str(path)]) == 1
    captured = capsys.readouterr()
    assert "[schema]" in captured.out and _leaks(captured.out + captured.err) == []


def test_the_seed_cases_pass_the_wider_gate(capsys):
    assert main(["validate", str(GOLDEN_CASES)]) == 0, capsys.readouterr().out


def test_check_shows_a_tool_named_after_a_person_by_its_placeholder():
    from promote.check import check_cases
    from promote.check.run import load_case_model
    from promote.listing import list_traces
    from promote.scrubbing import engine

    traces = list_traces([TRACES / "adk2.otlp.jsonl"]).traces
    case = load_case_model(HERO)
    trace = next(t for t in traces if any(c.name == "search_hr_policy" for turn in t.turns
                                          for c in turn.tool_calls)).model_copy(deep=True)
    turn = trace.turns[0]
    turn.tool_calls.reverse()  # the order fails: the reason lists what was called
    turn.user_input = f"{turn.user_input} I am {NAME}, {EMAIL}."
    turn.tool_calls.append(turn.tool_calls[0].model_copy(update={"name": EMAIL}))
    case.expected_tools.order = "exact"
    report = check_cases([("hero", case)], [trace], engine=engine())
    reasons = " ".join(result.reason for result in report.cases[0].results)
    assert "tool-order" in {r.label for r in report.cases[0].results if r.verdict == "fail"}
    assert _leaks(reasons) == [], reasons


@pytest.mark.parametrize("where", ["comment-line", "anchor", "case-id", "trace-service", "source-path"])
def test_pr_refuses_a_case_that_fails_the_gate_and_commits_nothing(tmp_path, monkeypatch, where):
    from promote.repo.pr import PrOptions, open_pull_request
    from promote.repo.pr_gates import CasesRefused
    from tests.pr_helpers import make_eval_repo

    (tmp_path / "repo").mkdir()
    repo = make_eval_repo(tmp_path / "repo", monkeypatch)
    path = _plant(tmp_path, where)
    with pytest.raises(CasesRefused) as refused:
        open_pull_request([path], repo.root, PrOptions(push=True))
    shown = " ".join([str(refused.value), *refused.value.problems]).replace(str(tmp_path), "")
    assert "residual-pii" in shown and _leaks(shown) == []
    assert repo.branches() == ["main"] and repo.origin_branches() == ["main"]


@pytest.mark.parametrize("key", [EMAIL, "greg_hallman"])
def test_a_duplicated_key_holding_a_value_is_not_repeated(tmp_path, capsys, key):
    text = HERO.read_text(encoding="utf-8").replace("  persona: employee",
                                                    f"  persona: employee\n  {key}: a\n  {key}: b", 1)
    path = tmp_path / HERO.name
    path.write_text(text, encoding="utf-8")
    assert main(["validate", str(path)]) == 2
    captured = capsys.readouterr()
    assert "duplicate key" in captured.err and _leaks(captured.out + captured.err) == []


@pytest.mark.parametrize("broken", ["  persona: *greg_hallman", "  persona: !greg.hallman@example.com! x",
                                    '  persona: "greg.hallman@example.com\\q"'])
def test_a_yaml_error_does_not_repeat_what_the_parser_read(tmp_path, capsys, broken):
    text = HERO.read_text(encoding="utf-8").replace("  persona: employee", broken, 1)
    path = tmp_path / HERO.name
    path.write_text(text, encoding="utf-8")
    assert main(["validate", str(path)]) == 2
    captured = capsys.readouterr()
    assert _leaks(captured.out + captured.err) == [], captured.err
