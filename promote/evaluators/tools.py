"""Evaluators on the tool calls: tools, tool-order, tool-args, forbidden-tools, tool-result.

A tool that was never called fails `tools` and makes `tool-order` and `tool-args` inconclusive, so one
missing call is reported once; `tool-result` is inconclusive when the tool was never called or the
trace carries no result for it.
"""

from __future__ import annotations

from typing import Any

from promote.case.model import Case
from promote.evaluators.arguments import mismatch, rules_of
from promote.evaluators.evaluator import Evaluator, Part, combine
from promote.evaluators.evidence import Evidence, as_text, has_placeholder, quoted
from promote.evaluators.result import CheckResult


def _expected_calls(case: Case) -> list:
    return case.expected_tools.calls if case.expected_tools else []


def _expected_names(case: Case) -> list[str]:
    return list(dict.fromkeys(call.name for call in _expected_calls(case)))


def _missing(case: Case, evidence: Evidence) -> list[str]:
    called = set(evidence.called)
    return [name for name in _expected_names(case) if name not in called]


# --- tools -----------------------------------------------------------------------------------------

def _tools_spec(case: Case) -> dict[str, Any] | None:
    names = _expected_names(case)
    return {"tools": names} if names else None


def _tools(case: Case, evidence: Evidence) -> CheckResult:
    missing = _missing(case, evidence)
    if missing:
        return CheckResult(label="tools", verdict="fail", reason=f"never called: {', '.join(missing)}")
    return CheckResult(label="tools", verdict="pass", reason=f"called {', '.join(_expected_names(case))}")


# --- tool-order ------------------------------------------------------------------------------------

def _order_spec(case: Case) -> dict[str, Any] | None:
    expected = case.expected_tools
    if expected is None or expected.order == "any_order" or not expected.calls:
        return None
    names = [call.name for call in case.expected_tools.calls]
    if case.expected_tools.order == "in_order" and len(names) < 2:
        return None
    return {"order": case.expected_tools.order, "tools": names}


def _order(case: Case, evidence: Evidence) -> CheckResult:
    spec = _order_spec(case) or {}
    expected, called = spec["tools"], evidence.called
    missing = _missing(case, evidence)
    if missing:
        return CheckResult(label="tool-order", verdict="inconclusive",
                           reason=f"{', '.join(missing)} never called (reported under tools)")
    shown = " → ".join(evidence.called_shown) or "no tool"
    if spec["order"] == "exact":
        ok = called == expected
        wanted = f"exactly {' → '.join(expected)}"
    else:
        remaining = iter(called)
        ok = all(any(name == done for done in remaining) for name in expected)
        wanted = " → ".join(expected) + " (others may come between)"
    if ok:
        return CheckResult(label="tool-order", verdict="pass", reason=f"called {shown}")
    return CheckResult(label="tool-order", verdict="fail", reason=f"called {shown}; expected {wanted}")


# --- tool-args -------------------------------------------------------------------------------------

def _args_spec(case: Case) -> dict[str, Any] | None:
    calls = [call for call in _expected_calls(case) if call.args or call.match]
    if not calls:
        return None
    listed = []
    for call in calls:
        rules = rules_of(call.args or {}, call.match)
        listed.append({
            "tool": call.name,
            "args": {name: value for name, value in (call.args or {}).items()
                     if rules[name].kind != "ignore"},
            "match": {name: _rule_json(rule) for name, rule in (call.match or {}).items()},
        })
    return {"calls": listed}


def _rule_json(rule: Any) -> dict[str, Any]:
    found = {"kind": rule.kind, "pattern": rule.pattern, "tolerance": rule.tolerance, "values": rule.values}
    return {key: value for key, value in found.items() if value is not None}


def _args(case: Case, evidence: Evidence) -> CheckResult:
    parts: list[Part] = []
    for call in _expected_calls(case):
        if not (call.args or call.match):
            continue
        pairs = evidence.calls_of(call.name)
        if not pairs:
            parts.append(("inconclusive", f"{call.name} never called (reported under tools)"))
            continue
        readable = [(raw.args, clean.args) for raw, clean in pairs if isinstance(raw.args, dict)]
        if not readable:
            parts.append(("inconclusive", f"the trace carries no arguments for {call.name}"))
            continue
        rules = rules_of(call.args or {}, call.match)
        expected = call.args or {}
        reasons = []
        for raw, clean in readable:
            clean = clean if isinstance(clean, dict) else {}
            why = [m for name, rule in rules.items()
                   if (m := mismatch(name, expected.get(name), rule, raw, clean)) is not None]
            if not why:
                break
            reasons.append(", ".join(why))
        else:
            several = f" (closest of {len(readable)} calls)" if len(readable) > 1 else ""
            parts.append(("fail", f"{call.name}: {min(reasons, key=len)}{several}"))
    return combine("tool-args", parts, "every expected call carried its arguments")


# --- forbidden-tools -------------------------------------------------------------------------------

def _forbidden_spec(case: Case) -> dict[str, Any] | None:
    return {"tools": list(case.forbidden_tools)} if case.forbidden_tools else None


def _forbidden(case: Case, evidence: Evidence) -> CheckResult:
    called = [name for name in dict.fromkeys(evidence.called) if name in case.forbidden_tools]
    if called:  # the case's own names: they passed the residual gate before check ran
        counts = ", ".join(f"{name} ×{evidence.called.count(name)}" for name in called)
        return CheckResult(label="forbidden-tools", verdict="fail", reason=f"called {counts}")
    return CheckResult(label="forbidden-tools", verdict="pass",
                       reason=f"none of {', '.join(case.forbidden_tools)} called")


# --- tool-result -----------------------------------------------------------------------------------

def _result_spec(case: Case) -> dict[str, Any] | None:
    if not case.tool_results:
        return None
    return {"checks": [{"tool": check.tool, "contains": check.contains} for check in case.tool_results]}


def _result(case: Case, evidence: Evidence) -> CheckResult:
    parts: list[Part] = []
    for check in case.tool_results:
        pairs = evidence.calls_of(check.tool)
        if not pairs:
            parts.append(("inconclusive", f"{check.tool} never called"))
            continue
        use_clean = has_placeholder(check.contains)
        results = [clean.result if use_clean else raw.result
                   for raw, clean in pairs if raw.result is not None]
        if not results:
            parts.append(("inconclusive", f"the trace carries no result for {check.tool}"))
        elif not any(check.contains.casefold() in as_text(result).casefold() for result in results):
            parts.append(("fail", f"no result of {check.tool} contains {quoted(check.contains)}"))
    return combine("tool-result", parts, "every tool result held its text")


EVALUATORS = (
    Evaluator("tools", _tools_spec, _tools),
    Evaluator("tool-order", _order_spec, _order),
    Evaluator("tool-args", _args_spec, _args),
    Evaluator("forbidden-tools", _forbidden_spec, _forbidden),
    Evaluator("tool-result", _result_spec, _result),
)
