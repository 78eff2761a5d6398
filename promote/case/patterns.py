"""Regular expressions from a case: compiled by the `regex` engine, run with a time limit, and refused
by `validate` when they can backtrack without end.

A case's patterns (`reply.matches`, `reply.not_matches`, `regex:` argument rules) are the user's input,
and `promote check` runs them on an agent's reply: `(a|aa)+$` on forty `a`s and a `!` never ends in
Python's `re`. So patterns are compiled with `regex` (the syntax of `re`, V0), every match runs with a
time limit (`PatternTimeout` when it is spent: the check says so, it does not hang), and validation
refuses a pattern that can backtrack catastrophically: a repeat inside a repeat that can match the
same text (`(a+)+`, `(a*b?)*`), or any pattern that spends its probe time on short adversarial texts
built from its own characters (`(a|aa)+$`).
"""

from __future__ import annotations

import functools
import re
from typing import Any

import regex

try:  # Python's own parser of `re` syntax (same syntax as regex V0): the structure of a pattern
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python < 3.11
    import sre_parse  # type: ignore[no-redef]

MATCH_TIMEOUT_S = 1.0
"""Longest one match of a case's pattern may run in `promote check`."""
_PROBE_TIMEOUT_S = 0.05
_PROBE_LENGTH = 40
_UNBOUNDED = sre_parse.MAXREPEAT


class PatternTimeout(Exception):
    """A pattern ran out of its time limit (catastrophic backtracking on this text)."""


@functools.lru_cache(maxsize=512)
def compiled(pattern: str, flags: int = 0) -> Any:
    """The pattern compiled by `regex` in `re`-compatible mode; `regex.error` when it does not compile."""
    return regex.compile(pattern, flags | regex.V0)


def search(pattern: str, text: str, *, dotall: bool = True, timeout: float = MATCH_TIMEOUT_S):
    """The first match anywhere, or None; `PatternTimeout` when it takes longer than `timeout`."""
    try:
        return compiled(pattern, regex.DOTALL if dotall else 0).search(text, timeout=timeout)
    except TimeoutError:
        raise PatternTimeout(pattern) from None


def fullmatch(pattern: str, text: str, *, dotall: bool = True, timeout: float = MATCH_TIMEOUT_S):
    """A match of the whole text, or None; `PatternTimeout` when it takes longer than `timeout`."""
    try:
        return compiled(pattern, regex.DOTALL if dotall else 0).fullmatch(text, timeout=timeout)
    except TimeoutError:
        raise PatternTimeout(pattern) from None


@functools.lru_cache(maxsize=1024)
def pattern_problem(pattern: str) -> str | None:
    """Why a case may not hold this pattern (it does not compile, or can backtrack without end);
    None when it may. The message never quotes the pattern (it may hold a case's values).

    Cached: the editor validates a case's rules again on each key typed in them (its probes cost about
    0.1 ms a pattern), and one run's answer for a pattern is its answer."""
    try:
        compiled(pattern, regex.DOTALL)
        parsed = sre_parse.parse(pattern, re.DOTALL)
    except (regex.error, re.error) as exc:
        return f"the regular expression does not compile ({_position(exc)})"
    except (RecursionError, OverflowError, ValueError):
        return "the regular expression is nested too deeply to read"
    if _nested_repeat(parsed):
        return ("the regular expression repeats a repeat that can match the same text, e.g. (x+)+: "
                "it can backtrack without end; write the inner repeat once, e.g. x+")
    if _slow_on_probes(pattern, parsed):
        return ("the regular expression backtracks without end on short texts, e.g. (x|xx)+: "
                "make its alternatives start differently")
    return None


def _position(exc: Exception) -> str:
    message = getattr(exc, "msg", None) or str(exc).split(" at position")[0]
    position = getattr(exc, "pos", None)
    return f"{message} at position {position}" if position is not None else str(message)


def _repeats(items: Any) -> list[tuple[int, int, Any]]:
    """Every (min, max, body) repeat directly or deeply inside `items`."""
    found = []
    for op, av in items:
        if op in (sre_parse.MAX_REPEAT, sre_parse.MIN_REPEAT, sre_parse.POSSESSIVE_REPEAT):
            found.append(av)
            found += _repeats(av[2])
        else:
            for child in _children(op, av):
                found += _repeats(child)
    return found


def _children(op: Any, av: Any) -> list[Any]:
    if op == sre_parse.SUBPATTERN:
        return [av[-1]]
    if op == sre_parse.BRANCH:
        return list(av[1])
    if op in (sre_parse.ASSERT, sre_parse.ASSERT_NOT):
        return [av[1]]
    if op == sre_parse.ATOMIC_GROUP:
        return [av]
    if op == sre_parse.GROUPREF_EXISTS:
        return [branch for branch in av[1:] if branch is not None]
    return []


def _nested_repeat(items: Any) -> bool:
    """An unbounded repeat whose body holds an unbounded repeat and nothing else it must match."""
    for low, high, body in _repeats(items):
        if high != _UNBOUNDED:
            continue
        if _only_a_repeat(list(body)):
            return True
    return False


def _only_a_repeat(items: list[Any]) -> bool:
    """True when `items` can match a text by one unbounded repeat alone (all else matching nothing):
    repeated again, the two repeats can split the same text in exponentially many ways."""
    for index, (op, av) in enumerate(items):
        rest_empty = all(_min_width(o, a) == 0 for i, (o, a) in enumerate(items) if i != index)
        if rest_empty and _is_repeat_alone(op, av):
            return True
    return False


def _is_repeat_alone(op: Any, av: Any) -> bool:
    if op in (sre_parse.MAX_REPEAT, sre_parse.MIN_REPEAT):
        return av[1] == _UNBOUNDED or _only_a_repeat(list(av[2]))
    if op == sre_parse.SUBPATTERN:
        return _only_a_repeat(list(av[-1]))
    if op == sre_parse.BRANCH:
        return any(_only_a_repeat(list(branch)) for branch in av[1])
    return False


def _min_width(op: Any, av: Any) -> int:
    try:
        return sre_parse.SubPattern(sre_parse.State(), [(op, av)]).getwidth()[0]
    except Exception:  # noqa: BLE001 - a part the parser cannot size: assume it must match something
        return 1


def _slow_on_probes(pattern: str, parsed: Any) -> bool:
    """Whether the pattern spends its time limit on a short text of one of its own characters repeated,
    then one that breaks the match (how catastrophic backtracking is triggered)."""
    characters = {chr(av) for op, av in _literals(parsed)} | {"a", "0", " ", "x"}
    try:
        engine = compiled(pattern, regex.DOTALL)
        for char in sorted(characters):
            for tail in ("!", "\n!", "\x00"):
                engine.search(char * _PROBE_LENGTH + tail, timeout=_PROBE_TIMEOUT_S)
    except TimeoutError:
        return True
    return False


def _literals(items: Any) -> list[tuple[Any, int]]:
    found = []
    for op, av in items:
        if op == sre_parse.LITERAL:
            found.append((op, av))
        elif op in (sre_parse.MAX_REPEAT, sre_parse.MIN_REPEAT, sre_parse.POSSESSIVE_REPEAT):
            found += _literals(av[2])
        else:
            for child in _children(op, av):
                found += _literals(child)
    return found
