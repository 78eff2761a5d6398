"""Score one scrubbed string against its labels, from the input and output text alone.

Works for any scrubber (default Presidio, our engine) because it only diffs input and output:

1. **Normalise.** If the input is JSON (or a Python repr) and the output still parses, the output is
   re-serialised the way the input was (separators, `ensure_ascii=False`), so a scrubber that re-encodes
   JSON differently is not charged for whitespace or escaping.
2. **Align.** Both strings are cut into tokens (escape sequences, alphanumeric runs, whitespace runs,
   single other characters) and aligned with `difflib.SequenceMatcher` (no autojunk). An input token inside an
   `equal` block was carried into the output unchanged at its position; everything else was replaced.
3. **Removed (recall).** A planted PII value counts as removed when none of its *significant pieces*
   survives at its position. Pieces are its alphanumeric runs of 4+ characters (a value with none, like
   "Mei", uses its runs of 2+). So "<PERSON_1> Gonzalez" is a miss for "Maria Gonzalez", "(415) <PHONE>"
   is not a miss for "(415) 555-0132" (the area code alone is not counted), and "@gmail.com" left behind
   is a miss for an email ("gmail" survives). `strict` additionally requires that the exact value
   occurs nowhere in the output.
4. **Kept (keep damage).** A keep item survives when every token it touches is carried over unchanged.
5. **Replacements (precision).** Every non-equal block that removed input text is one replacement;
   it is correct when it overlaps a planted PII span. Its label is the placeholder type it wrote
   (`<PERSON_1>` -> PERSON, `<DATE_TIME>` -> DATE_TIME), or OTHER.
"""

from __future__ import annotations

import ast
import difflib
import json
import re
from dataclasses import dataclass

from corpora.scrub_corpus import LabelledSpan, LabelledString

# JSON/repr escapes (`\n`, `\"`, `\u00a7`) are tokens of their own, so "\nPayroll" is not one word.
_TOKEN = re.compile(r"\\(?:u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)|\w+|\s+|[^\w\s]", re.DOTALL)
_PIECE = re.compile(r"[^\W_]+")
_PLACEHOLDER = re.compile(r"<([A-Z][A-Z0-9_]*?)(?:_\d+)?>")


@dataclass(frozen=True)
class Replacement:
    """One changed region: input characters [start, end) became `written`."""

    start: int
    end: int
    written: str
    label: str
    hits_pii: bool


@dataclass(frozen=True)
class SpanOutcome:
    """What happened to one labelled span."""

    span: LabelledSpan
    ok: bool
    """PII: removed. Keep item: survived verbatim."""
    strict_ok: bool
    """PII only: removed and the exact value occurs nowhere in the output."""
    output_at: int
    """Offset in the (normalised) output where the span's position maps to, for showing context."""


@dataclass(frozen=True)
class StringScore:
    outcomes: list[SpanOutcome]
    replacements: list[Replacement]
    output: str
    """The normalised output the scores refer to."""


def normalise_output(item: LabelledString, output: str) -> str:
    """Re-serialise structured output like the input was serialised, when it still parses."""
    if item.format == "text":
        return output
    try:
        if item.format == "repr":
            return repr(ast.literal_eval(output))
        separators = (",", ":")
        if json.dumps(json.loads(item.text), ensure_ascii=False, separators=separators) != item.text:
            separators = (", ", ": ")
        return json.dumps(json.loads(output), ensure_ascii=False, separators=separators)
    except (ValueError, SyntaxError, RecursionError):
        return output  # broken structure is itself damage: score the raw text


def _tokens(text: str) -> tuple[list[str], list[int]]:
    toks, starts = [], []
    for m in _TOKEN.finditer(text):
        toks.append(m.group())
        starts.append(m.start())
    return toks, starts


def _significant_pieces(span: LabelledSpan) -> list[tuple[int, int]]:
    pieces = [(span.start + m.start(), span.start + m.end()) for m in _PIECE.finditer(span.text)]
    long = [p for p in pieces if p[1] - p[0] >= 4]
    return long or [p for p in pieces if p[1] - p[0] >= 2] or pieces


def score_string(item: LabelledString, raw_output: str) -> StringScore:
    output = normalise_output(item, raw_output)
    a_toks, a_starts = _tokens(item.text)
    b_toks, b_starts = _tokens(output)
    kept = bytearray(len(item.text))  # 1 where the input character survived at its position
    out_pos = [0] * (len(item.text) + 1)
    replacements: list[Replacement] = []
    pii_spans = [s for s in item.spans if s.kind == "pii"]
    matcher = difflib.SequenceMatcher(None, a_toks, b_toks, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        a_from = a_starts[i1] if i1 < len(a_toks) else len(item.text)
        a_to = a_starts[i2] if i2 < len(a_toks) else len(item.text)
        b_from = b_starts[j1] if j1 < len(b_toks) else len(output)
        b_to = b_starts[j2] if j2 < len(b_toks) else len(output)
        if tag == "equal":
            kept[a_from:a_to] = b"\x01" * (a_to - a_from)
            for p in range(a_from, a_to):
                out_pos[p] = b_from + (p - a_from)
            continue
        for p in range(a_from, a_to):
            out_pos[p] = b_from
        if a_to > a_from:
            written = output[b_from:b_to]
            found = _PLACEHOLDER.search(written)
            hits = any(s.start < a_to and a_from < s.end for s in pii_spans)
            replacements.append(Replacement(a_from, a_to, written, found.group(1) if found else "OTHER",
                                            hits))
    outcomes = []
    for span in item.spans:
        if span.kind == "pii":
            ok = not any(all(kept[p] for p in range(s, e)) for s, e in _significant_pieces(span))
            strict = ok and span.text not in output
        else:
            ok = all(kept[p] for p in range(span.start, span.end))
            strict = ok
        outcomes.append(SpanOutcome(span, ok, strict, out_pos[span.start]))
    return StringScore(outcomes, replacements, output)


def masked_context(item: LabelledString, outcome: SpanOutcome, output: str, width: int = 50) -> str:
    """`input: …before ⟦value⟧ after…  ->  output: …what is there now…` (synthetic data only)."""
    s, e = outcome.span.start, outcome.span.end
    before = item.text[max(0, s - width):s]
    after = item.text[e:e + width]
    o = outcome.output_at
    now = output[max(0, o - width):o + (e - s) + width]
    shown_in = f"…{before}⟦{item.text[s:e]}⟧{after}…".replace("\n", "⏎")
    shown_out = f"…{now}…".replace("\n", "⏎")
    return f"in:  {shown_in}\n        out: {shown_out}"
