"""A string's plan is cached and shared by every trace that writes the string: it holds nothing of a trace,
and after it is built only its two memos are set, once each (`Plan.settle_dirty`, `Plan.settle_windows`)."""

from __future__ import annotations

import json

import pytest

from promote.scrubbing import engine as shared_engine
from scrubbers.structure.plan import Plan


def test_a_plan_memo_is_set_once_and_cannot_be_assigned():
    plan = Plan("text", [], 4)
    assert plan.dirty is None and plan.windows is None
    assert plan.settle_dirty([2, 5]) == (2, 5)
    assert plan.settle_dirty([7]) == (2, 5)  # a second answer never replaces the first
    window = ("a", "b")
    assert plan.settle_windows(window) is window and plan.settle_windows(("c",)) is window
    with pytest.raises(AttributeError):
        plan.dirty = [7]  # type: ignore[misc]
    with pytest.raises(AttributeError):
        plan.windows = ()  # type: ignore[misc]


def test_two_traces_share_one_plan_and_each_gets_its_own_placeholders():
    engine = shared_engine()
    value = json.dumps({"employee": {"name": "Rania Okafor"}, "note": "Rania Okafor asked about PTO."})
    first, second = engine.new_context(), engine.new_context()
    engine.scrub_attribute("user.input", json.dumps({"name": "Hiroshi Ueda"}), second)  # its <PERSON_1>
    out_first = engine.scrub_attribute("tool.response", value, first)
    plan = engine._plans.get((engine.analyzer.key_hint("tool.response"), value))
    settled = plan.dirty
    out_second = engine.scrub_attribute("tool.response", value, second)
    assert engine._plans.get((engine.analyzer.key_hint("tool.response"), value)) is plan
    assert plan.dirty is settled and isinstance(settled, tuple)
    assert "Rania" not in out_first and "Rania" not in out_second
    assert "<PERSON_1>" in out_first and "<PERSON_2>" in out_second  # numbered per trace, not per plan
    assert engine.scrub_attribute("tool.response", value, engine.new_context()) == out_first
