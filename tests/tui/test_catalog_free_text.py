"""Oracles and handles are picked from the eval repo's catalog, and free text is allowed: a handle the
catalog does not list yet maps the user to that handle alone; a catalog handle typed or picked takes the
catalog's record; an oracle is offered from the repo's cases and any other can be typed."""

from __future__ import annotations

import asyncio
import shutil

from textual.widgets import Input, Select

from tests.conftest import GOLDEN_CASES
from tests.tui.conftest import CARRYOVER_HANDLE, make_promote_app, settle

NEW_HANDLE = "employees.carryover_edge_wa"  # a scenario the catalog does not list yet
ORACLE_IN_REPO = "ukg-accrual-engine"  # named by wfm.accrual_balance_007 in the repo's cases (flow style)


def test_a_handle_or_an_oracle_outside_the_catalog_can_be_typed(eval_repo, carryover_trace):
    shutil.copy(GOLDEN_CASES / "wfm.accrual_balance_007.yaml", eval_repo / "evals" / "cases")

    async def run() -> None:
        app = make_promote_app(eval_repo, carryover_trace)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            screen = app.screen
            screen.query_one("#case-tabs").active = "entities"
            await settle(pilot)
            picker = screen.query_one("#entity-handle", Select)
            field = screen.query_one("#entity-handle-text", Input)
            assert picker.value is Select.NULL  # the draft's `unresolved.` handle is no catalog entry
            field.focus()
            await pilot.press("ctrl+u", *NEW_HANDLE)
            await settle(pilot)
            [entity] = screen.session.case.entities
            assert (entity.handle, entity.resolves_to, entity.description) == (NEW_HANDLE, None, None)
            assert f"handle: {NEW_HANDLE}" in screen.views_shown.yaml
            assert picker.value is Select.NULL
            # A catalog handle typed takes the catalog's record; picked, it fills the field.
            await pilot.press("ctrl+u", *"employees.new_hire_ny")
            await settle(pilot)
            assert screen.session.case.entities[0].resolves_to == "E-50100"
            assert picker.value == "employees.new_hire_ny"
            picker.focus()
            await pilot.press("enter", "up", "enter")
            await settle(pilot)
            assert field.value == CARRYOVER_HANDLE
            assert screen.session.case.entities[0].resolves_to == "E-90001"
            # No handle at all: a problem at the field, the case keeps the last one.
            field.focus()
            await pilot.press("ctrl+u")
            await settle(pilot)
            assert "entities[0].handle" in screen.session.invalid
            assert screen.session.case.entities[0].handle == CARRYOVER_HANDLE

            screen.query_one("#case-tabs").active = "numbers"
            await settle(pilot)
            screen.query_one("#numbers-table").focus()
            await pilot.press("a")  # accept the first suggested figure
            oracle = screen.query_one("#fig-oracle", Input)
            oracle.focus()
            await pilot.press("ctrl+u", *"ukg")
            await settle(pilot)  # the suggestion is looked up in a worker
            await pilot.press("right")  # the repo's oracle is offered, and taken
            await settle(pilot)
            assert screen.session.case.numeric[0].oracle == ORACLE_IN_REPO
            await pilot.press("ctrl+u", *"payroll-calc.v3")  # one no case names yet
            await settle(pilot)
            assert screen.session.case.numeric[0].oracle == "payroll-calc.v3"

    asyncio.run(run())
