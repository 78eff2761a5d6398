"""Round-trip YAML for cases: one merge function over the one YAML factory (`yaml_config`).

A case file is loaded into ruamel's comment-carrying tree (`CommentedMap`), validated into `Case`,
edited as a model, and merged back into the *same* tree, so that an unchanged case saves byte-identical
and an edit changes only the lines it touches. Never assign a plain dict over a commented node: `merge`
walks old and new values side by side and only rewrites what differs.

Which keys a file holds is decided by the file and by what an edit changed, never by which fields a
pydantic model happens to count as set: a key the file has stays (even at its default value) until
the edit removes it; a key the file lacks is written only when the edited value differs from the one
the file implies. A new file holds every value that says something (see `case_json`).

Writing files is not done here: `promote.case.store.save_case` is the one door.
"""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path
from typing import Any, Iterable

from pydantic import BaseModel
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import CommentMark, MarkedYAMLError, YAMLError
from ruamel.yaml.scalarstring import FoldedScalarString, LiteralScalarString
from ruamel.yaml.tokens import CommentToken

from promote.case.model import FORMAT, Case
from promote.case.yaml_config import yaml_factory
from promote.case.case_limits import MAX_DEPTH, MAX_INT_DIGITS, read_case_text, refuse_deep_or_huge
from promote.errors import PromoteError, where
from scrubbers.yaml_limits import MAX_YAML_BYTES, MAX_YAML_NODES, too_big

SCHEMA_FILE = "schema/portable-v1.schema.json"
SCHEMA_HEADER = f"yaml-language-server: $schema=../../{SCHEMA_FILE}"
_FORMAT_RE = re.compile(r"^portable-v(\d+)$")
_QUOTED = re.compile(r"'[^'\s]{3,}'|\"[^\"\s]{3,}\"")


def load_tree(path: str | Path, text: str | None = None) -> CommentedMap:
    """Parse a case file into its comment-carrying tree; bad YAML raises PromoteError (file:line).

    Bounded (`case_limits`): the file is read with a size limit, FIFOs and devices are refused before
    reading, and nesting depth, integer size and alias expansion are limited before anything walks it."""
    path = Path(path)
    if text is None:
        text = read_case_text(path)
    if len(text) > MAX_YAML_BYTES:
        raise PromoteError(f"larger than {MAX_YAML_BYTES >> 20} MiB: not read as a case", where=str(path),
                           hint="a case is a few KB; check the file")
    tab_line = _tab_indent_line(text)
    if tab_line:
        raise PromoteError(
            "tab used for indentation", where=where(path, tab_line), hint="YAML indents with spaces"
        )
    try:
        tree = yaml_factory().load(text)
    except RecursionError:
        raise PromoteError(f"nested deeper than {MAX_DEPTH} levels", where=str(path),
                           hint="a case is a few levels deep; check the file") from None
    except ValueError as exc:  # int() of a number past Python's digit limit
        raise PromoteError(f"a number too large to read ({str(exc).split('(')[0].strip()})",
                           where=str(path), hint=f"numbers in a case have at most {MAX_INT_DIGITS} digits"
                           ) from None
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        # The parser quotes what it read (`found undefined alias 'jane_doe'`): a quoted word is dropped,
        # a quoted character (`expected ',' or ']'`) kept; the line says where.
        problem = _QUOTED.sub("(…)", (exc.problem or exc.context or "invalid YAML").strip())
        if "duplicate key" in str(exc):
            problem = "duplicate key " + _duplicate_key_name(str(exc))
        raise PromoteError(problem, where=where(path, line), hint="fix the YAML syntax") from None
    except YAMLError as exc:
        raise PromoteError(f"invalid YAML: {str(exc).splitlines()[0]}", where=str(path)) from None
    if tree is None:
        raise PromoteError("empty file", where=str(path), hint="a case is a YAML mapping")
    if not isinstance(tree, CommentedMap):
        kind = "a list" if isinstance(tree, list) else f"a {type(tree).__name__}"
        raise PromoteError(f"top level is {kind}", where=where(path, 1), hint="a case is a YAML mapping")
    if too_big(tree):  # aliases expand when the case is validated or copied: bound them first
        raise PromoteError(f"expands to more than {MAX_YAML_NODES:,} values (YAML aliases "
                           "nested into a bomb?)",
                           where=str(path), hint="write the values out instead of aliasing them")
    refuse_deep_or_huge(tree, path)
    _check_format_version(tree, path)
    return tree


def _tab_indent_line(text: str) -> int | None:
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("\t") or re.match(r"^ +\t", line):
            return number
    return None


def _duplicate_key_name(message: str) -> str:
    """The duplicated key, quoted, when it may be shown: a key of the format, or one the scrubber finds
    nothing personal in (an error message must not repeat a name; the line says where it is)."""
    found = re.search(r'found duplicate key "([^"]+)"', message)
    if not found:
        return ""
    key = found.group(1)
    from promote.case.pii_texts import is_schema_key, words_of

    if is_schema_key(key):
        return f'"{key}"'
    from promote.scrubbing import engine

    clean = all(engine().detections(text) == [] for text in {key, words_of(key)} if text)
    return f'"{key}"' if clean else "(a key that may hold personal data: see the line)"


def _check_format_version(tree: CommentedMap, path: Path) -> None:
    value = tree.get("format")
    found = _FORMAT_RE.match(str(value)) if value is not None else None
    if found and int(found.group(1)) > 1:
        raise PromoteError(
            f"format {value} is newer than this promote reads ({FORMAT})",
            where=where(path, tree.lc.key("format")[0] + 1),
            hint="upgrade promote to read it",
        )


def dump_tree(tree: CommentedMap, header: str = SCHEMA_HEADER) -> str:
    """Serialise a tree; every written case starts with the schema header line."""
    if not _has_schema_header(tree):
        tree.yaml_set_start_comment(header)
    buffer = StringIO()
    yaml_factory().dump(tree, buffer)
    return buffer.getvalue()


def _has_schema_header(tree: CommentedMap) -> bool:
    start = tree.ca.comment[1] if tree.ca.comment and len(tree.ca.comment) > 1 else None
    return bool(start) and "yaml-language-server:" in start[0].value


def case_json(case: Case) -> dict[str, Any]:
    """The case as plain JSON data, every value that says something: defaults included (`revision: 1`,
    `order: in_order`), while None, empty lists and maps, and a flag left at its false default are left
    out. How the model was built (which fields count as "set") makes no difference."""
    return _said(case.model_dump(mode="json", exclude_none=True), case)


def _said(data: Any, source: Any) -> Any:
    if isinstance(data, dict):
        fields = type(source).model_fields if isinstance(source, BaseModel) else {}
        kept = {}
        for key, value in data.items():
            if value is None or value == [] or value == {}:
                continue
            if value is False and key in fields and fields[key].default is False:
                continue
            child = getattr(source, key, None) if isinstance(source, BaseModel) else (
                source.get(key) if isinstance(source, dict) else None)
            kept[key] = _said(value, child)
        return kept
    if isinstance(data, list):
        items = source if isinstance(source, list) else []
        return [_said(value, items[index] if index < len(items) else None)
                for index, value in enumerate(data)]
    return data


def new_tree(case: Case) -> CommentedMap:
    """A fresh tree for a case that has no file yet."""
    tree = CommentedMap()
    merge(tree, {}, case_json(case))
    return tree


def merge_case(tree: CommentedMap, case: Case) -> None:
    """Merge an edited case back into the tree it was loaded from (in place).

    A tree that still keeps budgets in `metadata.budgets` (written before `budgets` existed) is
    migrated: that key goes and `budgets` is written.
    """
    old = case_json(Case.model_validate(tree))
    metadata = tree.get("metadata")
    if isinstance(metadata, CommentedMap) and "budgets" in metadata and "budgets" not in tree:
        _delete_key(metadata, "budgets")
        if not metadata:
            _delete_key(tree, "metadata")
        old.pop("budgets", None)
    merge(tree, old, case_json(case))


def merge(node: CommentedMap, old: dict[str, Any], new: dict[str, Any]) -> None:
    """The one merge function: make `node` hold `new`, touching only what differs from `old`.

    `old` is the JSON form of what `node` holds now; comparing JSON forms (not ruamel scalars) is
    what keeps dates, quoted strings and `48.0` floats untouched when they did not change.
    """
    for key in [k for k in node if k not in new and old.get(k) is not None]:
        _delete_key(node, key)
    previous = None  # the last key of `new` the node holds: a new key goes right after it
    for key, value in new.items():
        if key in node:
            if old.get(key) != value:
                node[key] = _merged_value(node[key], old.get(key), value)
        elif old.get(key) != value:  # absent from the file, and the edit changed it
            position = list(node).index(previous) + 1 if previous is not None else 0
            node.insert(position, key, _to_yaml(value))
        if key in node:
            previous = key


def _merged_value(current: Any, old: Any, new: Any) -> Any:
    if isinstance(new, dict) and isinstance(current, CommentedMap):
        merge(current, old if isinstance(old, dict) else {}, new)
        return current
    if isinstance(new, list) and isinstance(current, CommentedSeq):
        _merge_seq(current, old if isinstance(old, list) else [], new)
        return current
    return _to_yaml(new, like=current)


def _merge_seq(seq: CommentedSeq, old: list[Any], new: list[Any]) -> None:
    for index in range(min(len(seq), len(new))):
        previous = old[index] if index < len(old) else None
        if previous != new[index]:
            seq[index] = _merged_value(seq[index], previous, new[index])
    if len(new) > len(seq):
        # The comment that follows the last item belongs to what comes after the sequence:
        # keep it after the new last item.
        trailing = _pop_trailing_comment(seq, min_col=seq.lc.col or 0)
        flow_items = _is_flow(seq[-1]) if len(seq) else False
        for value in new[len(seq):]:
            item = _to_yaml(value)
            if flow_items and isinstance(item, CommentedMap) and _all_scalars(value.values()):
                item.fa.set_flow_style()  # keep the siblings' one-line style
            seq.append(item)
        if trailing is not None:
            _put_trailing_comment(seq, trailing)
    while len(seq) > len(new):
        trailing = _pop_trailing_comment(seq, min_col=seq.lc.col or 0)
        del seq[len(seq) - 1]
        if trailing is not None and len(seq):
            _put_trailing_comment(seq, trailing)


def _delete_key(node: CommentedMap, key: str) -> None:
    # A full-line comment above the next key is stored on this key: hand it to the key before.
    value = node[key]
    column = node.lc.key(key)[1] if key in node.lc.data else 0
    if _is_block_collection(value):
        trailing = _pop_trailing_comment(value, min_col=column)
    else:
        trailing = _split_off_following(node, key, 2, min_col=column)
    keys = list(node)
    del node[key]
    index = keys.index(key)
    if trailing is not None and index > 0:
        _put_trailing_comment_at(node, keys[index - 1], trailing)


def _is_block_collection(node: Any) -> bool:
    # A flow collection (`{a: 1}`) sits on one line: its comments live on the parent's slot.
    return isinstance(node, (CommentedMap, CommentedSeq)) and bool(node) and not node.fa.flow_style()


def _pop_trailing_comment(node: Any, min_col: int = 0) -> CommentToken | None:
    """Detach the comment lines that follow the last scalar of `node` (they belong to what's next)."""
    end = getattr(node.ca, "end", None) if isinstance(node, (CommentedMap, CommentedSeq)) else None
    if end:
        # Lines after a collection that ends in a flow item are kept on the collection itself;
        # unlike slot comments they do not include the line break of the last line.
        node.ca.end = []
        return CommentToken("\n" + "".join(token.value for token in end), CommentMark(0), None)
    if isinstance(node, CommentedMap) and node:
        last = list(node)[-1]
        if _is_block_collection(node[last]):
            return _pop_trailing_comment(node[last], min_col)
        return _split_off_following(node, last, 2, min_col)
    if isinstance(node, CommentedSeq) and node:
        last = len(node) - 1
        if _is_block_collection(node[last]):
            return _pop_trailing_comment(node[last], min_col)
        return _split_off_following(node, last, 0, min_col)
    return None


def _split_off_following(container: Any, key: Any, slot: int, min_col: int) -> CommentToken | None:
    """Keep what belongs to the last line; detach and return the lines that belong to what follows.

    Kept: an end-of-line comment and the comment lines right under it indented deeper than
    `min_col` (its continuation). Moved: everything from the first blank or shallower line on.
    """
    entry = container.ca.items.get(key)
    if not entry or len(entry) <= slot or entry[slot] is None:
        return None
    token = entry[slot]
    lines = token.value.split("\n")
    keep = 1 if lines[0].strip().startswith("#") else 0
    while keep < len(lines) - 1 and lines[keep].strip().startswith("#"):
        if len(lines[keep]) - len(lines[keep].lstrip(" ")) <= min_col:
            break
        keep += 1
    if keep == 0:
        entry[slot] = None
        return token
    if keep >= len(lines) - 1:
        return None
    token.value = "\n".join(lines[:keep]) + "\n"
    # A moved token starts with the line break that ends the line it will follow.
    return CommentToken("\n" + "\n".join(lines[keep:]), CommentMark(0), None)


def _put_trailing_comment(node: Any, token: CommentToken) -> None:
    if isinstance(node, CommentedMap) and node:
        last = list(node)[-1]
        if _is_block_collection(node[last]):
            _put_trailing_comment(node[last], token)
        else:
            _put_trailing_comment_at(node, last, token)
    elif isinstance(node, CommentedSeq) and node:
        last = len(node) - 1
        if _is_block_collection(node[last]):
            _put_trailing_comment(node[last], token)
        else:
            _append_token(node, last, 0, 2, token)


def _put_trailing_comment_at(node: CommentedMap, key: str, token: CommentToken) -> None:
    if _is_block_collection(node[key]):
        _put_trailing_comment(node[key], token)
    else:
        _append_token(node, key, 2, 4, token)


def _append_token(container: Any, key: Any, slot: int, size: int, token: CommentToken) -> None:
    entry = container.ca.items.setdefault(key, [None] * size)
    existing = entry[slot]
    if existing is None:
        # A comment slot's text starts with the line break that ends the value's line, except
        # after a block scalar, whose own text already ends that line.
        block_scalar = isinstance(container[key], (LiteralScalarString, FoldedScalarString))
        value = token.value[1:] if block_scalar else token.value
        entry[slot] = CommentToken(value, CommentMark(0), None)
    else:
        existing.value += token.value


def _to_yaml(value: Any, like: Any = None) -> Any:
    """Plain JSON data → ruamel nodes; strings keep the style of the node they replace."""
    if isinstance(value, dict):
        node = CommentedMap()
        merge(node, {}, value)
        return node
    if isinstance(value, list):
        seq = CommentedSeq(_to_yaml(item) for item in value)
        if value and _all_scalars(value) and _is_flow(like):
            seq.fa.set_flow_style()
        return seq
    if isinstance(value, str):
        if "\n" in value:
            return LiteralScalarString(value)
        if isinstance(like, FoldedScalarString):
            return FoldedScalarString(value)
        style = type(like) if isinstance(like, str) and type(like) is not str else None
        if style is not None and style is not LiteralScalarString:
            return style(value)
    return value


def _is_flow(node: Any) -> bool:
    return isinstance(node, (CommentedMap, CommentedSeq)) and node.fa.flow_style()


def _all_scalars(values: Iterable[Any]) -> bool:
    return all(not isinstance(item, (dict, list)) for item in values)


def schema_header_for(path: str | Path) -> str:
    """The header for a case at `path`: relative to the nearest `schema/` folder above it that holds
    the portable-v1 schema (the eval repo's own copy), else the eval-repo layout `evals/cases/`."""
    folder = Path(path).resolve().parent
    for depth, ancestor in enumerate([folder, *folder.parents]):
        if (ancestor / SCHEMA_FILE).is_file():
            return f"yaml-language-server: $schema={'../' * depth}{SCHEMA_FILE}"
    return SCHEMA_HEADER
