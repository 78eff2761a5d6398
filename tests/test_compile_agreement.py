"""ADK's own evaluator agrees with `promote check` on every concern the compiler gives ADK.

Held-out style: every turn of each scenario's ADK 1.x, 2.x and OpenInference fixture traces is
drafted (as `promote draft` does: scrubbed, then drafted; a placeholder argument then ruled `ignore`,
as the draft's note asks) and paired with every turn of those traces, same scenario and cross-scenario;
kagent's trace and the hero case with them too. For each pair the stub agent replays the turn's calls
(raw arguments, as a sandbox run makes them) in ADK's `LocalEvalService` on the compiled eval set, and
`promote check`'s evaluators read the same turn: the trajectory's verdict is `tools` and `tool-order`
together, `promote_tool_args`' is `tool-args` (where the compiler routed it to ADK).
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest

from promote.case.model import Case, ExpectedToolCall
from promote.case.rules import PLACEHOLDER_RE
from promote.case.store import load_case
from promote.compile.adk_eval import compile_adk
from promote.compile.adk_tool_args import METRIC
from promote.compile.artifacts import CompileUnit
from promote.compile.policy import load_suite_policy
from promote.compile.targets import backend_metrics
from promote.draft import DraftOptions, draft_turn
from promote.evaluators.evidence import Evidence
from promote.evaluators.registry import evaluate
from promote.listing import list_traces
from promote.source import scrub_trace
from promote.trace_model import Trace, Turn

from tests.adk_stub import evaluate_set
from tests.conftest import GOLDEN_CASES, HR_REPO, TRACES

RUNS = ["adk1.otlp.jsonl", "adk2.otlp.jsonl", "openinference.otlp.jsonl", "producers/kagent.tempo.json"]
OPTIONS = DraftOptions(by="hermione.g", now=datetime(2026, 7, 2, 14, 3, 11, tzinfo=UTC), repo=HR_REPO)
ADK_TO_VERDICT = {"PASSED": "pass", "FAILED": "fail", "NOT_EVALUATED": "inconclusive"}

Paired = tuple[Trace, Turn, Trace, Turn]


@pytest.fixture(scope="module")
def held_out() -> tuple[list[Case], list[Paired]]:
    """The drafted cases (plus the hero case) and every turn of the runs, raw and scrubbed."""
    from scrubbers import ScrubEngine, load_policy

    engine = ScrubEngine(load_policy())
    cases: list[Case] = [load_case(GOLDEN_CASES / "hr.policy_carryover_004.yaml").case]
    turns: list[Paired] = []
    for run in RUNS:
        for trace in list_traces([TRACES / run]).traces:
            done = scrub_trace(trace, engine)
            scrubbed = done.trace
            for index, turn in enumerate(trace.turns):
                turns.append((trace, turn, scrubbed, scrubbed.turns[index]))
                if turn.user_input is None:
                    continue
                draft = draft_turn(done, index, OPTIONS).case
                cases.append(_reviewed(draft, len(cases)))
    return cases, turns


def _reviewed(draft: Case, number: int) -> Case:
    """The draft as an SME leaves it: an argument holding a scrub placeholder is matched with `ignore`
    (the draft's note says to), so its other arguments' rules can go to ADK; a unique id."""
    calls = []
    for call in draft.expected_tools.calls if draft.expected_tools else []:
        held = {name: "ignore" for name, value in (call.args or {}).items()
                if PLACEHOLDER_RE.search(str(value))}
        calls.append(ExpectedToolCall.model_validate({**call.model_dump(exclude_none=True),
                                                      **({"match": held} if held else {})}))
    tools = draft.expected_tools.model_copy(update={"calls": calls}) if draft.expected_tools else None
    return draft.model_copy(update={"id": f"{draft.id.rsplit('_', 1)[0]}_{number:03d}", "datasets": [],
                                    "expected_tools": tools})


def _one_copy_per_turn(artifacts: list, folder: Path, turns: int) -> Path:
    """The compiled eval set with the case copied once per turn (eval id `<case id>#<n>`, its own user
    text), so one ADK run scores the case against every turn; the invocation id keeps the rules' key."""
    folder.mkdir(parents=True)
    for artifact in artifacts:
        data = json.loads(artifact.text)
        if artifact.path.endswith(".evalset.json"):
            original = data["eval_cases"][0]
            data["eval_cases"] = []
            for number in range(turns):
                copy = json.loads(json.dumps(original))
                copy["eval_id"] = f"{original['eval_id']}#{number}"
                copy["conversation"][0]["user_content"]["parts"][0]["text"] = f"turn {number}"
                data["eval_cases"].append(copy)
        (folder / Path(artifact.path).name).write_text(json.dumps(data), encoding="utf-8")
    return folder


def _replay(paired: Paired) -> tuple[list, str]:
    """What a sandbox run of this turn does: its calls with their raw arguments, then its reply."""
    calls = [(call.name, call.args if isinstance(call.args, dict) else {}) for call in paired[1].tool_calls]
    return calls, paired[1].final_response or "ok"


def _promote_check(case: Case, paired: Paired) -> dict[str, str]:
    results = {result.label: result.verdict for result in evaluate(case, Evidence(*paired))}
    names = [results[label] for label in ("tools", "tool-order") if label in results]
    trajectory = "fail" if "fail" in names else "pass"
    return {"trajectory": trajectory, "tool-args": results.get("tool-args", "inconclusive")}


def test_adk_and_promote_check_give_the_same_verdict_on_every_pair(
    held_out: tuple[list[Case], list[Paired]], tmp_path: Path,
) -> None:
    cases, turns = held_out
    policy = load_suite_policy(None, backend_metrics()).policy
    compared: Counter[str] = Counter()
    for case in cases:
        if not (case.expected_tools and case.expected_tools.calls):
            continue  # no trajectory: ADK is given no tool concern for it
        output = compile_adk([CompileUnit(case, tmp_path / f"{case.id}.yaml")], policy)
        args_in_adk = any(METRIC in str(note) for note in output.notes)
        folder = _one_copy_per_turn(output.artifacts, tmp_path / case.id, len(turns))
        scored = evaluate_set(folder, lambda eval_case: _replay(turns[int(eval_case.eval_id.split("#")[1])]))
        for number, paired in enumerate(turns):
            adk, check = scored[f"{case.id}#{number}"], _promote_check(case, paired)
            where = f"{case.id} on {paired[0].trace_id[:8]} turn {paired[1].index}"
            assert ADK_TO_VERDICT[adk["tool_trajectory_avg_score"][0]] == check["trajectory"], where
            compared[f"trajectory {check['trajectory']}"] += 1
            if args_in_adk:
                assert ADK_TO_VERDICT[adk[METRIC][0]] == check["tool-args"], where
                compared[f"tool-args {check['tool-args']}"] += 1
    # The comparison is not vacuous: both verdicts occur for both concerns.
    assert {key for key, count in compared.items() if count} >= {
        "trajectory pass", "trajectory fail", "tool-args pass", "tool-args fail"}, compared
