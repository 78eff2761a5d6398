"""What every format codec shares: the record and string-slot types, id and JSON helpers.

A codec converts one decoded framing unit (a JSON document, a console span, a protobuf message) into
our `Span`s, lists the string values it holds (with the path to each, so the batch scrubber can
rewrite them in place), and re-encodes a changed document the way the input encoded it.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from promote.trace_model import Skipped, Span

Path = tuple[Any, ...]
"""Steps from a document's root to one string value: dict keys / attribute names and list indices."""


@dataclass(slots=True)
class Record:
    """One framing unit of an export: a JSON line, a protobuf message, a whole JSON doc, a console span."""

    where: str
    """`file:line`, or `file:#<record number>` for binary framings."""
    raw: bytes
    """The bytes the record was read from (after decompression, without framing)."""
    doc: Any
    """The decoded form: a dict or list for JSON, the protobuf message for protobuf."""
    prefix: bytes = b""
    """Text framing that came before the record since the previous one (newlines, '[', ','), kept so
    that writing the records back reproduces the input byte for byte."""
    suffix: bytes = b""
    """Text after the last record of the file (trailing newline, ']'); empty on every other record."""
    members: int | None = None
    """How many members the objects of `doc` held when the reader decoded it from `raw` (counted with
    its depth), for the duplicate-key check; None when not counted."""


# Not frozen: a frozen dataclass sets each field through `object.__setattr__`, several times slower to
# build, and a 100 MB export has half a million slots (nothing changes a slot once built).
@dataclass(slots=True)
class StringSlot:
    """One value of a record that the batch scrubber may replace: every string of the record is one
    (names, keys, unknown fields, ids and times too), and so is every number that a key may make
    personal. Which of them are structure is the scrub policy's call, never the codec's: `field` names
    the record field a structural value sits in, for the policy's allow list."""

    trace_id: str | None
    """The trace the value belongs to (for resource/scope values: the only trace of the block, or None)."""
    span_id: str | None
    """The span the value belongs to, None for resource and scope values."""
    span_name: str | None
    """The span's name, None for resource and scope values."""
    owner: str
    """`span`, `event`, `link`, `status`, `resource` or `scope`."""
    key: str | None
    """The attribute key (a dotted path inside nested values), `status.message` for the status; None
    for a text that sits under no key (a span or event name, an attribute key itself, trace state)."""
    value: Any
    """The current value: a string, or a number (`form` number, any_number, jaeger_tag)."""
    field: str | None = None
    """The record field a structural value sits in (`traceId`, `startTimeUnixNano`, ...), else None."""
    form: str = "text"
    """How a replacement is written back (see `place`): text, key, number, any_number, base64,
    jaeger_tag, proto_number, proto_bytes."""


class Codec(Protocol):
    """One export format's four jobs (framing and compression are handled by the reader)."""

    def decode(self, raw: bytes) -> Any:
        """Decode one record's bytes; raises ValueError when they are not this format."""

    def check(self, doc: Any) -> str | None:
        """Why a decoded record is not this format, or None when it is."""

    def spans(self, doc: Any, where: str, skipped: list[Skipped] | None) -> Iterator[Span]:
        """Our spans of one record; unusable spans are noted in `skipped`."""

    def slots(self, doc: Any) -> Iterator[tuple[StringSlot, Path]]:
        """Every string value of the record with its path (see `set_at`)."""

    def encode(self, doc: Any, like: bytes) -> bytes:
        """Re-encode a changed record in the style of its original bytes `like`."""


def note(skipped: list[Skipped] | None, where: str, why: str) -> None:
    """Record a Skipped entry when the caller collects them."""
    if skipped is not None:
        skipped.append(Skipped(where=where, why=why))


_HEX_CHARS = frozenset("0123456789abcdefABCDEF")


def norm_id(value: Any, nbytes: int) -> str | None:
    """A trace/span id as lower-case hex of `nbytes` bytes; None when absent or all zeros.

    Accepts hex (with or without `0x`, short Jaeger ids are left-padded), base64 (the proto3 JSON
    mapping) and decimal integers (ADK dev server). Raises ValueError for anything else.
    """
    if type(value) is str and len(value) == nbytes * 2 and _HEX_CHARS.issuperset(value):  # the usual case
        return None if value.count("0") == len(value) else value.lower()
    if value is None or value == "" or value == 0:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 0 or value.bit_length() > nbytes * 8:
            raise ValueError(f"id {value} does not fit in {nbytes} bytes")
        text = format(value, f"0{nbytes * 2}x")
    elif isinstance(value, bytes):
        if len(value) != nbytes:
            raise ValueError(f"id of {len(value)} bytes, expected {nbytes}")
        text = value.hex()
    elif isinstance(value, str):
        text = value.strip()
        if text[:2] in ("0x", "0X"):
            text = text[2:]
        is_hex = bool(text) and _HEX_CHARS.issuperset(text)
        if not (is_hex and len(text) == nbytes * 2):
            decoded = _base64_id(text, nbytes)
            if decoded is not None:
                text = decoded
            elif is_hex and len(text) < nbytes * 2:
                text = text.rjust(nbytes * 2, "0")
            else:
                raise ValueError(f"id {value!r} is neither {nbytes * 2} hex digits nor base64 "
                                 f"of {nbytes} bytes")
        text = text.lower()
    else:
        raise ValueError(f"id {value!r} is not a string")
    return None if text.count("0") == len(text) else text


def safe_id(value: Any, nbytes: int) -> str | None:
    """`norm_id`, or None for an id that cannot be read (used where an id only labels a value)."""
    try:
        return norm_id(value, nbytes)
    except ValueError:
        return None


def _base64_id(text: str, nbytes: int) -> str | None:
    if len(text) not in (4 * ((nbytes + 2) // 3), (nbytes * 4 + 2) // 3):
        return None
    padded = text + "=" * (-len(text) % 4)
    try:
        raw = base64.b64decode(padded, validate=True)
    except (binascii.Error, ValueError):
        try:
            raw = base64.urlsafe_b64decode(padded)
        except (binascii.Error, ValueError):
            return None
    return raw.hex() if len(raw) == nbytes else None


def to_int(value: Any) -> int:
    """An int64 written as a decimal string or a JSON number (Tempo rounds to floats); 0 when absent."""
    if value is None or value == "":
        return 0
    if isinstance(value, float):
        return int(value)
    return int(value)


def get_at(root: Any, path: Path) -> Any:
    """The value at `path` (see `set_at`)."""
    target = root
    for step in path:
        target = (
            target[step]
            if isinstance(target, (dict, list)) or not isinstance(step, str)
            else getattr(target, step)
        )
    return target


def place(root: Any, path: Path, form: str, replacement: str) -> None:
    """Write a slot's (string) replacement back in the form the slot's value had."""
    if form in ("text", "number"):
        set_at(root, path, replacement)
    elif form == "key":
        parent, old = get_at(root, path[:-1]), path[-1]
        items = [(replacement if name == old else name, value) for name, value in parent.items()]
        parent.clear()
        parent.update(items)
    elif form == "any_number":
        set_at(root, path, {"stringValue": replacement})
    elif form == "base64":
        set_at(root, path, base64.b64encode(replacement.encode("utf-8", "surrogatepass")).decode("ascii"))
    elif form == "jaeger_tag":
        tag = get_at(root, path)
        tag["type"], tag["value"] = "string", replacement
    elif form == "proto_number":
        get_at(root, path).string_value = replacement
    elif form == "proto_bytes":
        set_at(root, path, replacement.encode("utf-8", "surrogatepass"))
    else:
        raise ValueError(f"unknown slot form {form!r}")


def decode_base64_text(value: str) -> str:
    """The text a base64 value holds (undecodable bytes as lone surrogates, which the scrubber mends and
    so replaces); the value itself when it is not base64."""
    try:
        raw = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return value
    return raw.decode("utf-8", "surrogateescape")


def json_slots(value: Any, key: str | None, path: Path, owner: tuple) -> Iterator[tuple[StringSlot, Path]]:
    """Every string, key and number of a JSON value no codec knows the structure of (an unknown field,
    a bare attribute value): all of it is offered, nothing passes because it was not expected."""
    kind = type(value)
    if kind is str:
        yield StringSlot(*owner, key, value), path
    elif value is None or kind is bool:
        return
    elif kind in (int, float):
        yield StringSlot(*owner, key, value, form="number"), path
    elif kind is list:
        for index, item in enumerate(value):
            yield from json_slots(item, key, (*path, index), owner)
    elif kind is dict:
        for name, item in value.items():
            yield from json_slots(item, name, (*path, name), owner)
            yield StringSlot(*owner, None, name, field="key", form="key"), (*path, name)


def named_slots(value: Any, key: str, path: Path, owner: tuple) -> Iterator[tuple[StringSlot, Path]]:
    """`json_slots` for a value whose members take their key from where they sit (`input.0.role`), as the
    console exporter's nested attributes and Langfuse's content read: every string, number and key of
    it is offered (a key may be a name, a number under `ssn` is personal)."""
    if isinstance(value, list):
        for index, item in enumerate(value):
            yield from named_slots(item, f"{key}.{index}", (*path, index), owner)
    elif isinstance(value, dict):
        for name, item in value.items():
            yield from named_slots(item, f"{key}.{name}", (*path, name), owner)
            yield StringSlot(*owner, None, str(name), field="key", form="key"), (*path, name)
    else:
        yield from json_slots(value, key, path, owner)


def set_at(root: Any, path: Path, value: Any) -> None:
    """Set the value at `path` (dict keys / list indices, or protobuf field names / repeated indices)."""
    target = root
    for step in path[:-1]:
        target = (
            target[step]
            if isinstance(target, (dict, list)) or not isinstance(step, str)
            else getattr(target, step)
        )
    last = path[-1]
    if isinstance(target, (dict, list)) or not isinstance(last, str):
        target[last] = value
    else:
        setattr(target, last, value)


def decode_json(raw: bytes) -> Any:
    """json.loads that reports every failure as ValueError (bad UTF-8 included)."""
    try:
        return json.loads(raw)
    except UnicodeDecodeError as error:
        raise ValueError(f"not UTF-8 text ({error.reason} at byte {error.start})") from None


_LEADING_SPACE = re.compile(rb"^[ \t]*")


def encode_json_like(doc: Any, like: bytes) -> bytes:
    """JSON text for `doc` in the layout of `like`: same indentation (also when `like` is an indented
    element of an array), same separators for single-line JSON, ASCII escapes only if `like` used them.
    `doc` was decoded from text, so it holds no cycle: the encoder does not look for one (faster)."""
    ensure_ascii = like.isascii()
    body = like.strip()
    if b"\n" in body:
        lines = body.split(b"\n")
        base = _LEADING_SPACE.match(lines[-1]).group().decode()
        inner = _LEADING_SPACE.match(lines[1]).group().decode()
        unit = inner[len(base):] or "  "
        text = json.dumps(doc, indent=unit, ensure_ascii=ensure_ascii, check_circular=False)
        if base:
            text = text.replace("\n", "\n" + base)
    else:
        after_key = body.find(b'":')
        spaced = after_key >= 0 and body[after_key + 2 : after_key + 3] == b" "
        separators = (", ", ": ") if spaced else (",", ":")
        text = json.dumps(doc, separators=separators, ensure_ascii=ensure_ascii, check_circular=False)
    return text.encode("utf-8", "surrogatepass")


def has_duplicate_keys(raw: bytes) -> bool:
    """Whether a JSON text has an object with a key twice (`json.loads` keeps the last copy only)."""
    found = False

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal found
        obj = dict(items)
        found = found or len(obj) != len(items)
        return obj

    try:
        json.loads(raw, object_pairs_hook=pairs)
    except (ValueError, RecursionError):
        return True
    return found


# A key's closing quote, space (JSON allows it) and its colon: `"name" : "x"`.
_SPACED_KEY_END = re.compile(rb'"[ \t\r\n]+:')


def raw_members(raw: bytes) -> int | None:
    """The members of the objects of a valid JSON text, duplicate keys counted, as its bytes tell them:
    one `":` closes each key (inside a string a quote is escaped, `\\":`), and one more opens each string
    that starts with a colon. So it is never fewer than the members the decoded document holds, and as
    many only when no key came twice. None where the bytes do not say it plainly (an escaped backslash
    before a key's closing quote, space before a colon)."""
    if b'\\\\":' in raw or _SPACED_KEY_END.search(raw) is not None:
        return None
    return raw.count(b'":') - raw.count(b'\\":')


class JsonCodec:
    """decode / encode for the JSON formats."""

    def hidden(self, doc: Any, raw: bytes, members: int | None = None) -> bool:
        """True when `raw` holds a key twice: the document kept only the last copy. `members`, when the
        reader counted them in the document it decoded from `raw` itself, settles most records without a
        second decode: as many members in the document as keys in the bytes means no key came twice."""
        if members is not None and self.decode is decode_json and raw_members(raw) == members:
            return False
        return (b'":' in raw or _SPACED_KEY_END.search(raw) is not None) and has_duplicate_keys(raw)

    decode: Callable[[bytes], Any] = staticmethod(decode_json)
    encode: Callable[[Any, bytes], bytes] = staticmethod(encode_json_like)
