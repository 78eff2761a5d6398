"""A rebuilt trace → a `ScrubbedTrace`: one placeholder context for the whole trace, each part read by
its role (`scrubbers.Role`), and what was replaced kept as the engine reported it.

Everything a person sees of a trace (`promote traces`, drafts, the UI, `check`) is scrubbed here, so the
same value gets the same placeholder in the user input, tool args, tool results and the reply. The whole
trace is scrubbed in one call that first learns every value it holds (under personal keys, or found by
the analyzer anywhere in it), so the order of its parts never decides what is caught: a name a tool
result holds under `name` is removed from the user's message before it too. Every text of the trace
passes the scrubber: ids, names, warnings; what the run removed is then looked for in the output
(`ScrubEngine.leaks`), and a field that still holds it is redacted whole.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from promote.case.fingerprints import ValueFingerprints
from promote.case.model import ScrubInfo
from promote.case.rules import PLACEHOLDER_RE
from promote.models import Model
from promote.trace_model import Trace


class Replacement(Model):
    """One placeholder written in a scrubbed trace: which, what it stands for, and where (never the value)."""

    placeholder: str
    """As written, e.g. `<PERSON_1>` (or `<REDACTED>`, a field redacted whole)."""
    entity: str
    """The entity type it names, e.g. `PERSON`."""
    fields: list[str]
    """Where it is written, as paths into the trace: `turns[0].user_input`, `turns[0].tool_calls[1].args`."""


class ScrubbedTrace(Model):
    """A trace after scrubbing and everything drafting and the UI need of it: the one scrubbed-trace type."""

    trace: Trace
    """The scrubbed trace (its spans dropped: raw attributes never travel on)."""
    export: str
    """The file it was read from, as given."""
    export_sha256: str | None = None
    """The export's sha256 (a draft's provenance), when the reader worked it out."""
    replaced: dict[str, int] = Field(default_factory=dict)
    """Replacements by entity type (this trace's alone, whoever else shares the engine)."""
    scrub: ScrubInfo
    """The engine, version and policy that scrubbed it, with the counts (what provenance records)."""
    replacements: list[Replacement] = Field(default_factory=list)
    """Each placeholder written, its entity and the fields that hold it."""
    fingerprints: ValueFingerprints
    """Salted fingerprints of the raw values the trace held, for the write gate (`save_case`'s known
    values) where the values themselves must not travel (the UI's process)."""
    known_values: tuple[str, ...] = Field(default=(), repr=False, exclude=True)
    """The raw values the scrubber replaced or learned in the trace. Never printed or written; dropped
    by `without_raw` before the trace leaves the process that scrubbed it."""

    def without_raw(self) -> ScrubbedTrace:
        """This trace without its raw known values (its fingerprints stay): what may cross a process."""
        return self.model_copy(update={"known_values": ()})


def scrub_info(engine: Any, replaced: dict[str, int]) -> ScrubInfo:
    """What `engine` (a `scrubbers.ScrubEngine`) is: Presidio version read at run time, policy and hash."""
    policy = engine.loaded_policy
    return ScrubInfo(engine="presidio", version=engine.presidio_version,
                     policy=f"{policy.name}@sha256:{policy.sha256}", replaced=dict(sorted(replaced.items())))


def scrub_trace(trace: Trace, engine: Any, *, salt: bytes | None = None,
                export_sha256: str | None = None) -> ScrubbedTrace:
    """A scrubbed copy of `trace` with what was replaced (see `ScrubbedTrace`); `salt` salts the
    fingerprints (one per run, so a UI session can compare them; None: a fresh one)."""
    from scrubbers import Role

    ctx = engine.new_context()
    scrubbed = trace.model_copy(deep=True)
    scrubbed.spans = []
    # Reading order (input, tools, reply) so that placeholders number the way a person reads.
    slots: list[tuple[Any, Any, str | None, str]] = [
        (scrubbed, "user_id", Role.USER_ID, "user_id"),
        (scrubbed, "session_id", Role.SESSION_ID, "session_id"),
        (scrubbed, "agent", Role.AGENT, "agent"),
        (scrubbed, "service", Role.SERVICE, "service")]
    for number, turn in enumerate(scrubbed.turns):
        at = f"turns[{number}]"
        slots += [(turn, "invocation_id", Role.INVOCATION_ID, f"{at}.invocation_id"),
                  (turn, "user_input", Role.USER_INPUT, f"{at}.user_input")]
        for index, call in enumerate(turn.tool_calls):
            where = f"{at}.tool_calls[{index}]"
            slots += [(call, "name", Role.TOOL_NAME, f"{where}.name"),
                      (call, "call_id", Role.TOOL_CALL_ID, f"{where}.call_id"),
                      (call, "args", Role.TOOL_ARGS, f"{where}.args"),
                      (call, "result", Role.TOOL_RESULT, f"{where}.result"),
                      (call, "error", Role.TOOL_ERROR, f"{where}.error")]
        slots += [(model, "model", Role.MODEL, f"{at}.model_calls[{index}].model")
                  for index, model in enumerate(turn.model_calls)]
        slots.append((turn, "final_response", Role.REPLY, f"{at}.final_response"))
        # a warning quotes the trace: read with no role, as prose
        slots += [(turn.warnings, index, None, f"{at}.warnings[{index}]")
                  for index in range(len(turn.warnings))]
    present = [slot for slot in slots if _get(slot[0], slot[1]) is not None]
    items = [(ctx, role, _get(owner, name)) for owner, name, role, _ in present]
    done = engine.scrub_items(items, learn=True)
    checked = 0
    where: dict[str, list[str]] = {}
    for (owner, name, _, path), value in zip(present, done.values):
        value, hits = _checked(value, engine, ctx)
        _set(owner, name, value)
        checked += hits
        for token in dict.fromkeys(PLACEHOLDER_RE.findall(_text_of(value))):
            where.setdefault(token, []).append(path)
    replaced = {entity: count for entity, count in sorted(done.report.entities.items()) if count > 0}
    if checked:
        replaced[engine.redacted.strip("<>")] = checked
    known = {value for _, value in ctx.known_values()} | {value for values in ctx.replaced.values()
                                                          for value in values}
    return ScrubbedTrace(
        trace=scrubbed, export=trace.export or "-", export_sha256=export_sha256, replaced=replaced,
        scrub=scrub_info(engine, replaced), known_values=tuple(sorted(known)),
        replacements=[Replacement(placeholder=token, entity=_entity(token), fields=paths)
                      for token, paths in where.items()],
        fingerprints=ValueFingerprints.of(known, salt=salt))


def _checked(value: Any, engine: Any, ctx: Any) -> tuple[Any, int]:
    """The output check on one scrubbed field: every string in it (keys too) that still holds a value
    the trace is known to hold, in any form, is redacted whole; with how many were."""
    if isinstance(value, str):
        return (engine.redacted, 1) if engine.leaks(value, ctx) else (value, 0)
    if isinstance(value, list):
        pairs = [_checked(item, engine, ctx) for item in value]
        return [item for item, _ in pairs], sum(hits for _, hits in pairs)
    if isinstance(value, dict):
        result, total = {}, 0
        for key, item in value.items():
            new_key, key_hits = _checked(key, engine, ctx) if isinstance(key, str) else (key, 0)
            new_item, hits = _checked(item, engine, ctx)
            result[new_key] = new_item
            total += key_hits + hits
        return result, total
    return value, 0


def _text_of(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return " ".join(_text_of(k) + " " + _text_of(v) for k, v in value.items())
    if isinstance(value, list):
        return " ".join(_text_of(item) for item in value)
    return ""


def _entity(token: str) -> str:
    """`<PERSON_1>` → PERSON, `<US_SSN_a1b2c3>` → US_SSN, `<REDACTED>` → REDACTED."""
    inner = token.strip("<>")
    head, _, tail = inner.rpartition("_")
    return head if head and (tail.isdigit() or len(tail) == 6) else inner


def _get(owner: Any, name: Any) -> Any:
    return owner[name] if isinstance(owner, list) else getattr(owner, name)


def _set(owner: Any, name: Any, value: Any) -> None:
    if isinstance(owner, list):
        owner[name] = value
    else:
        setattr(owner, name, value)
