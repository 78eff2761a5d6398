"""Where batch output goes: output planning, the atomic output assembler, the resume log."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

from promote.errors import PromoteError
from promote.ingest.containers import CompressedWriter

RESUME_LOG = ".promote-scrub-done.json"


def plan_outputs(inputs: list[str], output: str) -> list[tuple[str, Path | str]]:
    """One input → `output` is the file (or `-`); several → `output` is a folder, one file each."""
    if not inputs:
        raise PromoteError("no input given", hint="name one or more trace exports, or - for stdin")
    if len(inputs) == 1:
        return [(inputs[0], output if output == "-" else Path(output))]
    if output == "-" or "-" in inputs:
        raise PromoteError("several inputs need -o FOLDER (stdin and stdout take one export)")
    folder = Path(output)
    if folder.exists() and not folder.is_dir():
        raise PromoteError("is a file, but several inputs need an output folder", where=output)
    folder.mkdir(parents=True, exist_ok=True)
    names = [Path(source).name for source in inputs]
    if len(set(names)) != len(names):
        raise PromoteError("two inputs have the same file name; scrub them into separate folders")
    return [(source, folder / name) for source, name in zip(inputs, names)]


class OutputAssembler:
    """Concatenates scrubbed blocks into the output, compressing as the input was compressed.

    Writes to a temp file beside the target and renames it at the end, so an interrupted run leaves
    no half file; `-` streams to stdout.
    """

    def __init__(self, target: Path | str, compression: str | None) -> None:
        self._target = target
        self._compression = compression
        self._temp: Path | None = None

    def __enter__(self) -> "OutputAssembler":
        if self._target == "-":
            self._stream = sys.stdout.buffer
        else:
            target = Path(self._target)
            target.parent.mkdir(parents=True, exist_ok=True)
            handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent)
            self._temp = Path(temp)
            self._stream = os.fdopen(handle, "wb")
        self._writer = CompressedWriter(self._stream, self._compression)
        return self

    def write(self, data: bytes) -> None:
        self._writer.write(data)

    def __exit__(self, kind, error, traceback) -> None:
        if self._temp is None:
            if kind is None:
                self._writer.finish()
            return
        try:
            if kind is None:
                self._writer.finish()
                self._stream.flush()
                os.fsync(self._stream.fileno())
            self._stream.close()
            if kind is None:
                os.replace(self._temp, self._target)
        finally:
            if kind is not None or self._temp.exists():
                self._temp.unlink(missing_ok=True)


class ResumeLog:
    """Which inputs of a multi-file run are finished (input path, size and mtime; never content)."""

    def __init__(self, folder: Path) -> None:
        self._path = folder / RESUME_LOG
        try:
            self._done = json.loads(self._path.read_text())
        except (OSError, ValueError):
            self._done = {}

    @staticmethod
    def _stamp(source: str) -> list[float]:
        stat = Path(source).stat()
        return [stat.st_size, stat.st_mtime]

    def done(self, source: str, target: Path | str) -> bool:
        return Path(target).exists() and self._done.get(source) == self._stamp(source)

    def mark(self, source: str, target: Path | str) -> None:
        self._done[source] = self._stamp(source)
        temp = self._path.with_suffix(".tmp")
        temp.write_text(json.dumps(self._done, indent=1))
        os.replace(temp, self._path)
