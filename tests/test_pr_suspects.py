"""`promote pr` lists the suspects left in the cases it promotes (words that look personal but were kept),
in its output and in the PR body, by kind, length and field; the title and body show `[suspect N]` where
such a word was, never the word (fail closed: they go to the forge and its notifications; the reviewer
reads the word in the diff)."""

from __future__ import annotations

from promote.case.model import Case
from promote.case.store import load_case, save_case
from promote.case.suspects import described, find, masked
from promote.repo.pr_body import CaseForReview, pr_body, pr_title
from tests.pr_helpers import DRAFTS, make_eval_repo

DRAFT = DRAFTS / "hr.policy_carryover_001.yaml"
SURNAME = "Whitlock"  # the given name was scrubbed (<PERSON_1>), the surname beside it was kept
LINE = "[suspect 1] a name (8 letters) in expected_output"


def with_surname(case: Case) -> Case:
    data = case.model_dump(mode="json", exclude_none=True)
    data["expected_output"] = data["expected_output"].replace("Hi <PERSON_1>,", f"Hi <PERSON_1> {SURNAME},")
    return Case.model_validate(data)


def test_the_title_and_body_list_each_suspect_and_never_show_the_word():
    case = with_surname(load_case(DRAFT).case)
    [suspect] = find(case)
    assert described(suspect) == "a name (8 letters) in expected_output"
    reviewed = [CaseForReview(case, "evals/cases/x.yaml", None, [])]
    body, title = pr_body(reviewed), pr_title(reviewed)
    assert "### Suspects left for review" in body and f"- [ ] {LINE}" in body
    assert "> Hi &lt;PERSON_1&gt; [suspect 1], up to 40 hours" in body  # the quoted reply, masked
    assert SURNAME.lower() not in (body + title).lower()
    clean = pr_body([CaseForReview(load_case(DRAFT).case, "evals/cases/x.yaml", None, [])])
    assert "Suspects left" not in clean and "[suspect" not in clean


def test_a_key_or_an_id_holding_the_word_is_masked_too():
    data = load_case(DRAFT).case.model_dump(mode="json", exclude_none=True)
    data["metadata"] = {f"asked_{SURNAME}": f"Hi {SURNAME}"}
    data["id"] = f"hr.{SURNAME.lower()}_001"
    case = Case.model_validate(data)
    [suspect] = find(case)
    assert described(suspect) == "a name (8 letters) in metadata.asked_<key>"
    reviewed = [CaseForReview(case, f"evals/cases/{case.id}.yaml", None, [])]
    body, title = pr_body(reviewed), pr_title(reviewed)
    assert SURNAME.lower() not in (body + title).lower()
    assert "hr.[suspect 1]_001" in body and "case hr.[suspect 1]_001:" in title


def test_promote_pr_prints_and_writes_the_suspects_left(tmp_path, monkeypatch, capsys):
    from promote.cli.main import main

    source = tmp_path / DRAFT.name
    source.write_bytes(DRAFT.read_bytes())
    loaded = load_case(source)
    save_case(with_surname(loaded.case), source, base=loaded)
    repo = make_eval_repo(tmp_path, monkeypatch)
    assert main(["pr", str(source), "--repo", str(repo.root), "--open", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert f"1 suspect(s) left for review" in out
    assert f"\n  hr.policy_carryover_001: {LINE}\n" in out
    assert f"- [ ] {LINE}" in out.split("--- PR body ---", 1)[1]
    assert SURNAME not in out


def test_a_word_is_masked_in_any_case_and_in_identifiers_but_not_inside_a_longer_word():
    marks = {"Al": "[suspect 1]", "5551234567": "[suspect 2]"}
    text = "Al's balance: ask AL, hr.al_001, al-team, call 5551234567 (not 155512345678)"
    assert masked(text, marks) == ("[suspect 1]'s balance: ask [suspect 1], hr.[suspect 1]_001, "
                                   "[suspect 1]-team, call [suspect 2] (not 155512345678)")
