"""Run a compiled ADK eval set through google-adk's own `LocalEvalService` with a deterministic agent.

The stub agent answers every case with the calls and reply a test gives it (no model, no network);
`evaluate_set` returns, per eval id, each metric's status and score as ADK scored them. The judge
criteria are left out (they need a model); every other criterion of the compiled config is kept.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Callable
from pathlib import Path
from typing import Any

from google.adk.agents.base_agent import BaseAgent
from google.adk.agents.invocation_context import InvocationContext
from google.adk.evaluation.base_eval_service import (
    EvaluateConfig, EvaluateRequest, InferenceConfig, InferenceRequest,
)
from google.adk.evaluation.eval_config import EvalConfig, get_eval_metrics_from_config
from google.adk.evaluation.eval_set import EvalSet
from google.adk.evaluation.in_memory_eval_sets_manager import InMemoryEvalSetsManager
from google.adk.evaluation.local_eval_service import LocalEvalService
from google.adk.evaluation.metric_evaluator_registry import (
    MetricEvaluatorRegistry, register_custom_metrics_from_config,
)
from google.adk.events.event import Event
from google.genai import types

from promote.compile.adk_eval import JUDGED

Call = tuple[str, dict[str, Any]]
Behaviour = Callable[[str], tuple[list[Call], str]]
"""eval id -> (the calls the agent makes, its reply)."""


class StubAgent(BaseAgent):
    """Answers from `behaviour` keyed by the user's message (one per case)."""

    behaviour: dict[str, tuple[list[Call], str]] = {}

    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        text = "".join(part.text or "" for part in (ctx.user_content.parts or []))
        calls, reply = self.behaviour[text]
        for index, (name, args) in enumerate(calls):
            call_id = f"call-{index}"
            yield Event(author=self.name, invocation_id=ctx.invocation_id, content=types.Content(
                role="model", parts=[types.Part(function_call=types.FunctionCall(
                    id=call_id, name=name, args=args))]))
            yield Event(author=self.name, invocation_id=ctx.invocation_id, content=types.Content(
                role="user", parts=[types.Part(function_response=types.FunctionResponse(
                    id=call_id, name=name, response={"ok": True}))]))
        yield Event(author=self.name, invocation_id=ctx.invocation_id,
                    content=types.Content(role="model", parts=[types.Part(text=reply)]))


def load(folder: Path) -> tuple[EvalSet, EvalConfig]:
    """The eval set and config of one compiled ADK folder, through ADK's own models."""
    eval_set = EvalSet.model_validate_json(next(folder.glob("*.evalset.json")).read_text("utf-8"))
    config = EvalConfig.model_validate_json((folder / "test_config.json").read_text("utf-8"))
    return eval_set, config


def evaluate_set(
    folder: Path, behaviour: Callable[[Any], tuple[list[Call], str]]
) -> dict[str, dict[str, tuple[str, float | None]]]:
    """eval id -> metric -> (ADK's status name, score) for every case of the compiled set in `folder`."""
    eval_set, config = load(folder)
    config.criteria = {name: value for name, value in config.criteria.items() if name not in JUDGED}
    answers = {}
    for eval_case in eval_set.eval_cases:
        text = "".join(part.text or "" for part in eval_case.conversation[0].user_content.parts)
        answers[text] = behaviour(eval_case)
    agent = StubAgent(name="stub")
    agent.behaviour = answers
    app_name = eval_set.eval_cases[0].session_input.app_name
    manager = InMemoryEvalSetsManager()
    manager.create_eval_set(app_name, eval_set.eval_set_id)
    for eval_case in eval_set.eval_cases:
        manager.add_eval_case(app_name, eval_set.eval_set_id, eval_case)
    # As `adk eval` does: the config's custom metrics are registered in the run's own registry.
    registry = register_custom_metrics_from_config(config, MetricEvaluatorRegistry())
    service = LocalEvalService(root_agent=agent, eval_sets_manager=manager,
                               metric_evaluator_registry=registry)
    metrics = [metric for metric in get_eval_metrics_from_config(config) if metric.threshold is not None]
    return asyncio.run(_run(service, app_name, eval_set.eval_set_id, metrics))


async def _run(service: LocalEvalService, app_name: str, set_id: str, metrics: list) -> dict:
    request = InferenceRequest(app_name=app_name, eval_set_id=set_id,
                               inference_config=InferenceConfig(parallelism=1))
    inferences = [result async for result in service.perform_inference(request)]
    scored = {}
    evaluate = EvaluateRequest(inference_results=inferences,
                               evaluate_config=EvaluateConfig(eval_metrics=metrics, parallelism=1))
    async for result in service.evaluate(evaluate):
        scored[result.eval_id] = {metric.metric_name: (metric.eval_status.name, metric.score)
                                  for metric in result.overall_eval_metric_results}
    return scored


def replay(eval_case: Any) -> tuple[list[Call], str]:
    """The agent that does what the case recorded: its expected calls, then the expected reply."""
    invocation = eval_case.conversation[0]
    calls = [(use.name, dict(use.args or {})) for use in invocation.intermediate_data.tool_uses]
    reply = "".join(part.text or "" for part in (invocation.final_response.parts or [])) \
        if invocation.final_response else "done"
    return calls, reply
