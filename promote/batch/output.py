"""Where batch output goes: output planning, the atomic output assembler, the resume log."""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

from promote.errors import PromoteError
from promote.fsutil import TargetFile, atomic_write_text, remove_stale_partials, write_error
from promote.ingest.compression import CompressedWriter

RESUME_LOG = ".promote-scrub-done.json"


def plan_outputs(inputs: list[str], output: str) -> list[tuple[str, Path | str]]:
    """One input → `output` is the file (or `-`); several → `output` is a folder, one file each."""
    if not inputs:
        raise PromoteError("no input given", hint="name one or more trace exports, or - for stdin")
    if len(inputs) == 1:
        planned: list[tuple[str, Path | str]] = [(inputs[0], output if output == "-" else Path(output))]
        if output != "-":
            if Path(output).is_dir():
                raise PromoteError("is a folder, but one input is written to one file", where=output,
                                   hint="name the output file, e.g. -o OUT/" + Path(inputs[0]).name)
            refuse_inputs_as_targets(inputs, [Path(output)], what="output")
        return planned
    if output == "-" or "-" in inputs:
        raise PromoteError("several inputs need -o FOLDER (stdin and stdout take one export)")
    folder = Path(output)
    if folder.exists() and not folder.is_dir():
        raise PromoteError("is a file, but several inputs need an output folder", where=output)
    folder.mkdir(parents=True, exist_ok=True)
    names = [Path(source).name for source in inputs]
    if len(set(names)) != len(names):
        raise PromoteError("two inputs have the same file name; scrub them into separate folders")
    planned = [(source, folder / name) for source, name in zip(inputs, names)]
    refuse_inputs_as_targets(inputs, [target for _, target in planned], what="output")
    return planned


def refuse_inputs_as_targets(inputs: list[str], targets: list[Path], *, what: str) -> None:
    """PromoteError when a file to be written is one of the inputs, however it is spelled (relative,
    through a symlink, a hard link): writing it would destroy the raw export before it is read."""
    sources = {}
    for source in inputs:
        if source == "-":
            continue
        try:
            stat = os.stat(source)
        except OSError:
            continue
        sources[(stat.st_dev, stat.st_ino)] = source
    for target in targets:
        try:
            stat = os.stat(target)
        except OSError:
            continue
        source = sources.get((stat.st_dev, stat.st_ino))
        if source is not None:
            raise PromoteError(f"the {what} is the input {source}; writing it would destroy the export",
                               where=str(target), hint=f"choose another {what} path")


def check_report_path(report: str, inputs: list[str]) -> Path:
    """The `--report` path, checked before any work: not an input, not a folder, its folder exists."""
    path = Path(report)
    if path.is_dir():
        raise PromoteError("is a folder", where=report,
                           hint="name the report file, e.g. --report scrub-report.json")
    if not path.parent.is_dir():
        raise PromoteError("its folder does not exist", where=report, hint=f"create {path.parent} first")
    refuse_inputs_as_targets(inputs, [path], what="report")
    return path


class OutputAssembler:
    """Concatenates scrubbed blocks into the output, compressing as the input was compressed.

    Writes to a temp file beside the target and renames it at the end (`promote.fsutil.TargetFile`),
    so an interrupted run leaves no half file; `-` streams to stdout.
    """

    def __init__(self, target: Path | str, compression: str | None) -> None:
        self._target = target
        self._compression = compression
        self._file: TargetFile | None = None

    def __enter__(self) -> "OutputAssembler":
        if self._target == "-":
            self._stream = sys.stdout.buffer
        else:
            remove_stale_partials(Path(self._target))
            self._file = TargetFile(Path(self._target))
            self._stream = self._file.stream
        self._writer = CompressedWriter(self._stream, self._compression)
        return self

    def write(self, data: bytes) -> None:
        try:
            self._writer.write(data)
        except OSError as error:
            raise self._error(error) from None

    def _error(self, error: OSError) -> Exception:
        if self._file is None:
            return error
        return write_error(self._file.target, error)

    def __exit__(self, kind, error, traceback) -> None:
        if self._file is None:
            if kind is None:
                self._writer.finish()
            return
        if kind is not None:
            self._file.discard()
            return
        try:
            self._writer.finish()
        except OSError as failure:
            self._file.discard()
            raise self._error(failure) from None
        except BaseException:
            self._file.discard()
            raise
        self._file.commit()


class ResumeLog:
    """What each finished output of a run was made from, so that `--resume` skips only real work.

    Kept beside the output (`.promote-scrub-done.json` in an output folder; `.<name>.promote-scrub-done.json`
    beside a single output file), keyed by the input's real path. An entry holds the input's size and
    sha256, the policy and key it was scrubbed with, and the output's size and sha256; an input is
    skipped only when all of them still hold. Never content.
    """

    def __init__(self, output: Path, *, single: bool, recipe: dict[str, str]) -> None:
        self._path = output / RESUME_LOG if not single else output.parent / f".{output.name}{RESUME_LOG}"
        self._recipe = recipe
        try:
            loaded = json.loads(self._path.read_text())
            self._done = loaded if isinstance(loaded, dict) else {}
        except (OSError, ValueError):
            self._done = {}

    @staticmethod
    def _key(source: str) -> str:
        return os.path.realpath(source)

    def done(self, source: str, target: Path | str) -> bool:
        if not Path(source).is_file():
            return False
        entry = self._done.get(self._key(source))
        if not isinstance(entry, dict) or entry.get("recipe") != self._recipe:
            return False
        try:
            return entry.get("input") == _stamp(Path(source)) and entry.get("output") == _stamp(Path(target))
        except OSError:
            return False

    def mark(self, source: str, target: Path | str) -> None:
        if not Path(source).is_file():  # a FIFO or a device: read once, nothing to check it against later
            return
        self._done[self._key(source)] = {
            "recipe": self._recipe,
            "input": _stamp(Path(source)),
            "output": _stamp(Path(target)),
        }
        atomic_write_text(self._path, json.dumps(self._done, indent=1) + "\n")


def _stamp(path: Path) -> dict:
    """Size and sha256 of a file (what it holds, not when it was touched)."""
    stamp: dict = {"size": path.stat().st_size}
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    stamp["sha256"] = digest.hexdigest()
    return stamp
