"""The UI's save runs the same write gate as `promote draft`, known values of the source trace included,
although the UI process only ever holds their salted fingerprints."""

from __future__ import annotations

import asyncio

from tests.tui.conftest import make_promote_app, settle
from tui.widgets.problems_panel import ProblemsPanel


def test_a_planted_value_typed_into_the_expected_output_is_refused(
    eval_repo, carryover_trace, expected_traces
):
    done, _ = carryover_trace
    planted = [item["value"] for item in expected_traces["planted_pii"]]
    held = [value for value in planted if done.fingerprints.found_in(value)]
    assert held, "the carryover trace holds planted values"
    pickled = repr(done.fingerprints).lower() + repr(done.trace.model_dump()).lower()
    assert [value for value in planted if value.lower() in pickled] == []  # what the UI gets: no raw value
    asyncio.run(type_and_save(eval_repo, carryover_trace, held[0]))


async def type_and_save(eval_repo, carryover_trace, value: str) -> None:
    app = make_promote_app(eval_repo, carryover_trace)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        await pilot.press("f6")
        output = screen.query_one("#output-text")
        output.focus()
        output.move_cursor(output.document.end)
        await pilot.press(*f" Ask {value.upper()} about it.")
        await pilot.press("ctrl+s")
        await settle(pilot)
        target = eval_repo / "evals" / "cases" / f"{screen.session.case.id}.yaml"
        assert not target.exists()
        shown = screen.query_one(ProblemsPanel).problems
        assert [p.field for p in shown if p.rule == "known-value"] == ["expected_output"]
        messages = " ".join(str(n.message) for n in app._notifications)
        assert value.lower() not in messages.lower()
