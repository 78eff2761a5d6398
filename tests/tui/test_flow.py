"""The whole promotion on the real ADK export, keyboard only, through the real loader child: open,
filter, open the turn, edit, save, open the PR (real git, a bare origin, a stub `gh`); asserted on the
written YAML and on what was pushed."""

from __future__ import annotations

import asyncio

from promote.case.yaml_io import load_tree
from tests.pr_helpers import PR_URL, git, make_eval_repo
from tests.tui.conftest import CARRYOVER_HANDLE, CATALOG, make_app, settle
from tui.screens.pr_result import PrResultScreen
from tui.screens.browser import BrowserScreen
from tui.screens.promote import PromoteScreen
from tui.widgets.turn_table import TurnTable


async def open_carryover(pilot) -> PromoteScreen:
    app = pilot.app
    await settle(pilot)
    assert isinstance(app.screen, BrowserScreen)
    await pilot.press("slash", *"carries into next year", "escape")
    await pilot.pause()
    table = app.screen.query_one(TurnTable)
    assert table.row_count == 1
    await pilot.press("enter")
    await settle(pilot)
    assert isinstance(app.screen, PromoteScreen)
    return app.screen


def test_promote_the_carryover_turn(tmp_path, monkeypatch, expected_traces):
    repo = make_eval_repo(tmp_path, monkeypatch)
    (repo.root / "evals" / "entities.yaml").write_text(CATALOG, encoding="utf-8")
    git(repo.root, "add", ".")
    git(repo.root, "commit", "--quiet", "-m", "The entity catalog")
    git(repo.root, "push", "--quiet", "origin", "main")
    case_id = asyncio.run(promote_the_carryover_turn(repo.root, expected_traces["planted_pii"]))
    assert ["pr", "create"] == repo.gh_calls()[-1][:2]
    assert case_id in repo.gh_body()
    assert f"promote/{case_id}" in git(repo.origin, "branch", "--list")
    pushed = git(repo.origin, "show", f"promote/{case_id}:evals/cases/{case_id}.yaml")
    assert "employees.carryover_edge_ca" in pushed


async def promote_the_carryover_turn(eval_repo, planted):
    app = make_app(eval_repo)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await open_carryover(pilot)
        shown = " ".join(row.snippet or "" for row in app.screen_stack[-2].rows.values())
        assert "<PERSON_1>" in shown
        assert [item["value"] for item in planted if item["value"] in shown] == []

        # Output: add a sentence at the end of the expected reply.
        await pilot.press("f6")
        output = screen.query_one("#output-text")
        output.focus()
        output.move_cursor(output.document.end)
        await pilot.press(*" Plan ahead.")
        # Tools: exclude get_employee_context, ignore the topic argument of search_hr_policy.
        await pilot.press("f6")
        calls = screen.query_one("#tools-calls")
        calls.focus()
        calls.highlighted = 0
        await pilot.press("space", "down")
        await pilot.pause()
        screen.query_one("#rule-kind-0").focus()
        await pilot.press("enter", "down", "enter")  # the rule's menu: exact -> ignore
        await pilot.pause()
        # Numbers: accept the first suggested figure.
        await pilot.press("f6")
        screen.query_one("#numbers-table").focus()
        await pilot.press("a")
        # Retrieval: cite the second chunk too.
        await pilot.press("f6")
        cite = screen.query_one("#chunks-cite")
        cite.focus()
        cite.highlighted = 1
        await pilot.press("space")
        # Entities: map the production user to the catalog's sandbox employee.
        await pilot.press("f6", "f6")
        screen.query_one("#entity-handle").focus()
        # the draft's unresolved user -> the catalog's first handle
        await pilot.press("enter", "down", "enter")
        await pilot.pause()
        assert screen.session.case.entities[0].handle == CARRYOVER_HANDLE
        await pilot.press("ctrl+s")
        await settle(pilot)
        path = eval_repo / "evals" / "cases" / f"{screen.session.case.id}.yaml"
        assert path.is_file(), screen.session.render()
        # The pull request: committed on a branch, pushed, opened with gh; its link is shown.
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert isinstance(app.screen, PrResultScreen), [str(n.message) for n in app._notifications]
        assert app.screen.result.pr_url == PR_URL
        assert PR_URL in str(app.screen.query_one("#pr-headline").content)
        await pilot.press("escape")
        case_id = screen.session.case.id

    written = load_tree(path)
    assert written["expected_output"].endswith("could be at risk. Plan ahead.")
    calls = written["expected_tools"]["calls"]
    assert [call["name"] for call in calls] == ["search_hr_policy"]
    assert calls[0]["match"] == {"topic": "ignore"}
    assert len(written["numeric"]) == 1
    assert written["must_cite"] == ["PTO-CA-2026 §4.2", "PTO-CA-2026 §4.3"]
    assert written["entities"][0]["handle"] == CARRYOVER_HANDLE
    assert written["entities"][0]["resolves_to"] == "E-90001"
    assert written["provenance"]["promoted_by"] == "hermione.g"
    text = path.read_text(encoding="utf-8")
    assert [item["value"] for item in planted if item["value"] in text] == []
    return case_id
