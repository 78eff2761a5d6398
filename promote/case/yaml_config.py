"""The one YAML factory: every YAML file promote reads or writes goes through an instance made here."""

from __future__ import annotations

from typing import Any

from ruamel.yaml import YAML


def yaml_factory() -> YAML:
    """The one configured ruamel instance: round-trip, quotes kept, 2/4/2 indents, no folding."""
    yaml = YAML()  # typ="rt": never "safe" for editing, it drops comments
    yaml.preserve_quotes = True
    yaml.map_indent, yaml.sequence_indent, yaml.sequence_dash_offset = 2, 4, 2
    yaml.width = 4096  # long prose stays on one line unless it is a block scalar
    yaml.allow_duplicate_keys = False
    # `~` would otherwise dump as an empty value and break the byte-identical round trip.
    yaml.representer.add_representer(
        type(None), lambda rep, _: rep.represent_scalar("tag:yaml.org,2002:null", "null")
    )
    return yaml


def load_plain_value(text: str) -> Any:
    """A short YAML text (the list of a `one_of:[...]` rule) as plain Python values; bad YAML raises
    YAMLError. The safe loader: the value is copied into a model, never edited back in place, so it needs
    no comments or quoting kept."""
    return YAML(typ="safe").load(text)
