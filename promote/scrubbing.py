"""The one scrub-engine factory: every part of promote that scrubs gets its engine here.

`engine(policy, key_file)` is cached per policy file and key file, so a process loads the spaCy model
once however many callers scrub. A missing or bad policy or key file is a `PromoteError` naming the
file (exit 2, one line). `scrubbers.load_policy` stays the one policy loader; this module only turns its
errors into ones a user can act on. Batch workers, which need an engine per process, build theirs with
`new_engine` from the policy and key loaded here.

Two kinds of engine come out of this door: the fast one (`scrubbers.ScrubEngine`, the default) and the
reference one (`scrubbers.reference`: the same policy steps, plain Presidio text by text, none of the speed
machinery; for debugging, `promote scrub --engine reference`). `use_engine` chooses for this process and
the workers it starts (through `PROMOTE_SCRUB_ENGINE`, which they inherit).
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from promote.errors import PromoteError

if TYPE_CHECKING:
    from scrubbers import LoadedPolicy, ScrubEngine

MIN_KEY_BYTES = 16
ENGINES = ("fast", "reference")
"""The kinds of engine `new_engine` builds."""
ENGINE_VARIABLE = "PROMOTE_SCRUB_ENGINE"
"""The environment variable naming the kind (unset: fast); worker processes inherit it."""


def use_engine(kind: str) -> None:
    """Every engine this process and the workers it starts build from now on is of `kind`."""
    if kind not in ENGINES:
        raise PromoteError(f"unknown scrub engine {kind!r}", hint=f"choose one of: {', '.join(ENGINES)}")
    if (os.environ.get(ENGINE_VARIABLE) or "fast") != kind:
        os.environ[ENGINE_VARIABLE] = kind
        _cached.cache_clear()  # the engines loaded so far are of the other kind


def engine(policy: str | Path | None = None, key_file: str | Path | None = None) -> ScrubEngine:
    """The engine for `policy` (None: the bundled default) and `key_file` (None: numbered placeholders),
    loaded once per process and shared by every caller."""
    return _cached(_resolved(policy), _resolved(key_file))


def load_policy(policy: str | Path | None = None) -> LoadedPolicy:
    """`scrubbers.load_policy`, with a missing or malformed file as a one-line `PromoteError`."""
    from scrubbers import load_policy as load

    try:
        return load(policy)
    except (ValueError, OSError) as exc:
        text = str(exc).splitlines()[0]
        where = str(policy) if policy is not None else None
        if where and text.startswith(where):  # the loader already names the file (and line)
            where_part, _, what = text.partition(": ")
            raise PromoteError(what, where=where_part) from None
        raise PromoteError(text, where=where) from None


def read_key(key_file: str | Path | None) -> bytes | None:
    """The HMAC key in `key_file` (None: no key); unreadable or too short is a `PromoteError`."""
    if key_file is None:
        return None
    try:
        key = Path(key_file).read_bytes().strip()
    except OSError as exc:
        raise PromoteError(f"cannot read key file: {exc.strerror}", where=str(key_file)) from None
    if len(key) < MIN_KEY_BYTES:
        raise PromoteError(f"key file holds fewer than {MIN_KEY_BYTES} bytes", where=str(key_file),
                           hint="use e.g. `head -c 32 /dev/urandom | base64 > scrub.key`")
    return key


def new_engine(policy: LoadedPolicy, key: bytes | None = None) -> ScrubEngine:
    """A fresh engine of its own (a batch worker process, a benchmark): not shared, not cached."""
    kind = os.environ.get(ENGINE_VARIABLE) or "fast"
    if kind == "reference":
        from scrubbers.reference import ReferenceScrubEngine

        return ReferenceScrubEngine(policy, key=key)
    if kind != "fast":
        raise PromoteError(f"unknown scrub engine {kind!r}", where=ENGINE_VARIABLE,
                           hint=f"set it to one of: {', '.join(ENGINES)}, or unset it")
    from scrubbers import ScrubEngine

    return ScrubEngine(policy, key=key)


def _resolved(path: str | Path | None) -> Path | None:
    return Path(path).expanduser().resolve() if path is not None else None


@lru_cache(maxsize=4)
def _cached(policy: Path | None, key_file: Path | None) -> ScrubEngine:
    return new_engine(load_policy(policy), read_key(key_file))
