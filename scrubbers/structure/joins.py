"""Values split across adjacent parts or fields of one message: found joined, removed in each part.

A message's text often arrives in pieces: an ADK/GenAI `Content` has a `parts` list, OTel GenAI messages
a `parts` array of `{"type": "text", "content": ..}`, OpenInference flattens them into attributes
(`llm.input_messages.0.message.contents.1.message_content.text`), a tool result has adjacent fields, and a
rebuilt turn joins its parts with line breaks. A value cut at such a border (`greg.hallman` | `@example.com`,
`Gregory` | `Hallman`, `4111 1111` | `1111 1111`, `(415)` | `555-0134`) is in no single string, so no
recognizer sees it. Here each border of a message is read joined (with nothing and with a space between
the two sides) and a detection that crosses the border is a *split value*: the whole value and each
piece become known values of the trace (`ScrubContext.remember_split`), so each part loses its piece
(under the whole value's placeholder) and the output check looks for every piece and the whole.

Cost: a border is read only when the words on its two sides could be parts of one value (digits, an
`@`, capitals, or no space between them), and only a short window around it, analysed in the engine's
batches and cached; the borders of a plan are found once per plan text.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import regex

from scrubbers.structure.plan import PROSE, Hole, Nested, Plan, Sub
from scrubbers.speed import Member, Spliced

_WINDOW = 48  # characters read on each side of a border: enough context for NER, cheap to analyse
_TEXT_KEYS = ("text", "content")  # the member that holds a part's text (Gemini/ADK, OTel GenAI)
_NOT_TEXT = frozenset({"type", "role", "id", "mime_type", "mimeType", "finish_reason", "call_id"})
_CACHE_CHARS = 1_000_000  # plan texts whose windows are kept, by their characters (memory stays flat)
# OpenInference flattens a message's parts into one attribute per part.
_FLAT_PART = regex.compile(r"^(?P<message>.+\.message)\.contents\.(?P<part>\d+)\.message_content\.text$")
_LINE_KEYS = frozenset({"user_input", "final_response"})  # texts a rebuilt turn joined from parts with "\n"
_EDGE = 12  # characters at the end of a part (and the start of the next) that say whether to read a border
_VALUEISH = regex.compile(r"[\d@\p{Lu}]")
_LAST_TOKEN = regex.compile(r"(\S+)\s*$")
_FIRST_TOKEN = regex.compile(r"^\s*(\S+)")

Detect = Callable[[str], "list[Any] | None"]


class Window(NamedTuple):
    """The joined text around one border, and where each part's text lies in it."""

    text: str
    spans: tuple[tuple[int, int], ...]
    """(start, end) of each part's slice in `text`, in order."""
    fields: bool = False
    """The parts are two fields of one object (`text` holds both whole), read with a space or a
    punctuation mark between them: a value counts only where it covers both, since two fields side by
    side make numbers no one wrote (an id next to a last-4)."""


class Split(NamedTuple):
    """A value found only across parts: its entity, the joined value, and the piece each part holds."""

    entity: str
    whole: str
    pieces: tuple[str, ...]


class Joiner:
    """Finds the borders of a plan's messages (once per plan text) and the values split across them."""

    def __init__(self, key_hint: Callable[[str | None], Any]) -> None:
        self._key_hint = key_hint  # the key rule a plan was built under (the same text plans differently)
        self._windows: OrderedDict[tuple[Any, str], tuple[Window, ...]] = OrderedDict()
        self._chars = 0

    # windows -------------------------------------------------------------------------------------
    def windows(self, items: Sequence[tuple[Any, str | None, Any]], plans: Sequence[Plan | None]
                ) -> list[tuple[Any, Window]]:
        """(context, window) for every border worth reading in the items: inside each value (message
        parts, adjacent fields, lines of a rebuilt turn) and across adjacent flattened attributes."""
        found: list[tuple[Any, Window]] = []
        for (ctx, key, value), plan in zip(items, plans):
            if plan is None or not plan.leaves:
                continue
            windows = self._of_plan(plan, key)
            if key in _LINE_KEYS and type(value) is str and "\n" in value and plan.leaves[0].kind == PROSE:
                windows = windows + tuple(_borders(plan.leaves[0].view.text.split("\n")))
            found += [(ctx, window) for window in windows]
        found += [(ctx, window) for ctx, texts, fields in _flat_groups(items, plans)
                  for window in _borders(texts, fields)]
        return found

    def _of_plan(self, plan: Plan, key: str | None) -> tuple[Window, ...]:
        if plan.windows is None:
            plan.settle_windows(self._read_plan(plan, key))
        return plan.windows

    def _read_plan(self, plan: Plan, key: str | None) -> tuple[Window, ...]:
        source = plan.source
        cache_key = (self._key_hint(key), source) if source is not None else None
        if cache_key is not None:
            cached = self._windows.get(cache_key)
            if cached is not None:
                return cached
        found: list[Window] = []
        _collect(plan.template, plan.leaves, found, self)
        windows = tuple(found)
        if cache_key is not None:
            self._remember(cache_key, windows)
        return windows

    def member_windows(self, member: Member) -> tuple[Window, ...]:
        """The windows inside a shared member plan, found once per member text and key rules (and kept on
        the plan: every call of every trace repeats the members of the conversation so far)."""
        plan = member.plan
        if plan.windows is not None:
            return plan.windows
        cache_key = (tuple(leaf.kind for leaf in plan.leaves), member.text)
        cached = self._windows.get(cache_key)
        if cached is None:
            found: list[Window] = []
            _collect(plan.template, plan.leaves, found, self)
            cached = tuple(found)
            self._remember(cache_key, cached)
        return plan.settle_windows(cached)

    def _remember(self, cache_key: tuple[Any, str], windows: tuple[Window, ...]) -> None:
        self._windows[cache_key] = windows
        self._chars += len(cache_key[1])
        while self._chars > _CACHE_CHARS:
            self._chars -= len(self._windows.popitem(last=False)[0][1])

    # split values --------------------------------------------------------------------------------
    @staticmethod
    def learn(found: list[tuple[Any, Window]], detect: Detect) -> int:
        """Remember every value split across a border in its context; how many were found. A window the
        analyzer fails on makes the words at its border pieces of an unknown value (fail closed)."""
        count = 0
        for ctx, window in found:
            for split in splits(window, detect):
                ctx.remember_split(split.entity, split.whole, split.pieces)
                count += 1
        return count


def splits(window: Window, detect: Detect) -> list[Split]:
    """The values the analyzer finds in `window` that cross a border between two of its parts."""
    detections = detect(window.text)
    if detections is None:  # the words at each border go, as pieces of one unknown value
        text, pieces = window.text, []
        for (_, left_end), (right_start, _) in zip(window.spans, window.spans[1:]):
            before, after = _LAST_TOKEN.search(text, 0, left_end), _FIRST_TOKEN.search(text[right_start:])
            pieces += [match.group(1) for match in (before, after) if match is not None]
        return [Split("REDACTED", " ".join(pieces), tuple(pieces))] if len(pieces) >= 2 else []
    found = []
    for detection in detections:
        if detection.entity == "BLOB":
            continue
        pieces = []
        for start, end in window.spans:
            piece = window.text[max(start, detection.start):min(end, detection.end)]
            if piece.strip() and any(ch.isalnum() for ch in piece):
                pieces.append(piece)
        if len(pieces) >= 2 and (not window.fields or _covers(window, detection.start, detection.end)):
            found.append(Split(detection.entity, window.text[detection.start:detection.end], tuple(pieces)))
    return found


def _covers(window: Window, start: int, end: int) -> bool:
    """Whether [start, end) covers every part of a fields window (leading and trailing spaces aside)."""
    for low, high in window.spans:
        part = window.text[low:high]
        if start > low + len(part) - len(part.lstrip()) or end < high - (len(part) - len(part.rstrip())):
            return False
    return True


# the parts of a message ------------------------------------------------------------------------------
def _collect(template: Any, leaves: list[Any], out: list[Window], joiner: Joiner) -> None:
    """Append to `out` the windows of each run of adjacent parts or fields in a plan's template."""
    kind = type(template)
    if kind is Sub:
        node = template.node
        if type(node) is dict:
            run = [leaves[value.index].view.text for key, value in node.items()
                   if type(value) is Hole and key not in _NOT_TEXT and leaves[value.index].kind == PROSE]
            if len(run) >= 2:
                out += _borders(run, fields=True)
            children = node.values()
        else:
            children = node
            _runs([_part_text(item, leaves) for item in node], out, fields=False)
        for child in children:
            if type(child) in (Sub, Nested, Spliced):
                _collect(child, leaves, out, joiner)
    elif kind is Nested:
        _collect(template.template, leaves, out, joiner)
    elif kind is Spliced:
        texts: list[str | None] = []
        for piece in template.pieces:
            if type(piece) is Member:
                texts.append(_part_text(piece.plan.template, piece.plan.leaves))
                out.extend(joiner.member_windows(piece))
            elif type(piece) is not str:
                texts.append(None)
                _collect(piece, leaves, out, joiner)
        _runs(texts, out, fields=True)  # members of a cut object, or of a list of objects



def _part_text(item: Any, leaves: list[Any]) -> str | None:
    """The text of a message part (a string, or an object's `text`/`content`), else None."""
    if type(item) is Hole:
        leaf = leaves[item.index]
        return leaf.view.text if leaf.kind == PROSE else None
    if type(item) is Sub and type(item.node) is dict and "role" not in item.node:  # a message is no part
        for key in _TEXT_KEYS:
            value = item.node.get(key)
            if type(value) is Hole and leaves[value.index].kind == PROSE:
                return leaves[value.index].view.text
    return None


def _runs(texts: list[str | None], out: list[Window], *, fields: bool) -> None:
    run: list[str] = []
    for text in [*texts, None]:
        if text:
            run.append(text)
            continue
        if len(run) >= 2:
            out += _borders(run, fields)
        run = []


def _flat_groups(items: Sequence[tuple[Any, str | None, Any]], plans: Sequence[Plan | None]
                 ) -> list[tuple[Any, list[str], bool]]:
    """Adjacent attributes of one span that are parts or fields of one message: OpenInference's
    `...message.contents.N.message_content.text` under one message, or text attributes that share a
    parent (`contact.local`, `contact.domain`)."""
    groups: list[tuple[Any, list[str], bool]] = []
    run: list[str] = []
    run_ctx: Any = None
    run_parent: str | None = None
    run_fields = False
    for (ctx, key, value), plan in zip(items, plans):
        parent = None
        if key is not None and run_parent is not None and ctx is run_ctx and key.startswith(run_parent) \
                and key.rsplit(".", 1)[-1] in _NOT_TEXT:
            continue  # a part's `type`, a message's `role`: the message goes on
        if key is not None and type(value) is str and plan is not None and type(plan.template) is Hole \
                and plan.leaves[0].kind == PROSE:
            flat = _FLAT_PART.match(key) if key.endswith(".text") else None
            if flat is not None:
                parent, fields = flat.group("message"), False
            elif "." in key and key.rsplit(".", 1)[-1] not in _NOT_TEXT:
                parent, fields = key.rsplit(".", 1)[0], True
        if parent is None or parent != run_parent or ctx is not run_ctx:
            if len(run) >= 2:
                groups.append((run_ctx, run, run_fields))
            run, run_ctx, run_parent, run_fields = [], ctx, parent, parent is not None and fields
        if parent is not None:
            run.append(plan.leaves[0].view.text)
    if len(run) >= 2:
        groups.append((run_ctx, run, run_fields))
    return groups


# borders ---------------------------------------------------------------------------------------------
def _borders(texts: list[str], fields: bool = False) -> list[Window]:
    """A window around each border of adjacent `texts` whose two sides could belong to one value, joined
    with nothing and (when no space is there already) with a space. Fields are read in pairs, whole,
    and only when both are short (a value cut into fields is)."""
    windows = []
    for index in range(len(texts) - 1):
        left, right = texts[index], texts[index + 1]
        if not left.strip() or not right.strip():
            continue
        spaced = left[-1:].isspace() or right[:1].isspace()
        if not _could_join(left.rstrip()[-_EDGE:], right.lstrip()[:_EDGE], spaced):
            continue
        for separator in ("",) if spaced else ("", " "):
            if not fields:
                windows.append(_window(texts, index, separator))
            elif len(left) <= _WINDOW and len(right) <= _WINDOW:
                # glued inside a word ("Greg" | "ory"), a value was cut in two: any crossing value counts;
                # digits glued to digits make numbers no one wrote ("jaeger-4.4.7" | "2.14.1" reads as the
                # IP address 4.4.72.14), so there a value must cover both fields whole (a card cut in two)
                glued = not separator and left[-1:].isalnum() and right[:1].isalnum() and not (
                    left[-1:].isdigit() and right[:1].isdigit())
                windows.append(Window(left + separator + right, ((0, len(left)), (len(left) + len(separator),
                                      len(left) + len(separator) + len(right))), fields=not glued))
    return windows


def _could_join(left: str, right: str, spaced: bool) -> bool:
    """Whether the ends of two parts could be pieces of one value: both hold a digit, an `@` or a
    capital (a name, a number, an e-mail, an address), or one does and nothing separates them."""
    if "@" in left or "@" in right:
        return True
    left_says, right_says = _VALUEISH.search(left) is not None, _VALUEISH.search(right) is not None
    return (left_says and right_says) or (not spaced and (left_says or right_says))


def _window(texts: list[str], index: int, separator: str) -> Window:
    """The joined text of `texts` around the border after `texts[index]`, about `_WINDOW` characters each
    way, cut between words (a part further out that would be cut inside a word is left out)."""
    pieces: list[str] = []  # the parts' slices, leftwards then rightwards
    budget, at = _WINDOW, index
    while budget > 0 and at >= 0:
        text = texts[at]
        start = _tail(text, budget, at == index)
        if start is None:
            break
        pieces.insert(0, text[start:])
        budget -= len(text) - start + len(separator)
        at -= 1
    budget, at = _WINDOW, index + 1
    while budget > 0 and at < len(texts):
        text = texts[at]
        end = _head(text, budget, at == index + 1)
        if end is None:
            break
        pieces.append(text[:end])
        budget -= end + len(separator)
        at += 1
    spans, position, chunks = [], 0, []
    for number, chunk in enumerate(pieces):
        if number:
            chunks.append(separator)
            position += len(separator)
        spans.append((position, position + len(chunk)))
        chunks.append(chunk)
        position += len(chunk)
    return Window("".join(chunks), tuple(spans))


def _tail(text: str, budget: int, border: bool) -> int | None:
    """Where the last `budget` characters of `text` start, moved to a word's start; None when that
    cuts a word of a part away from the border."""
    if len(text) <= budget:
        return 0
    space = text.find(" ", len(text) - budget)
    if 0 <= space < len(text) - 1:
        return space + 1
    return len(text) - budget if border else None


def _head(text: str, budget: int, border: bool) -> int | None:
    """Where the first `budget` characters of `text` end, moved to a word's end (see `_tail`)."""
    if len(text) <= budget:
        return len(text)
    space = text.rfind(" ", 0, budget)
    if space > 0:
        return space
    return budget if border else None
