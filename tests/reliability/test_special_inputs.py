"""Special files and hostile bytes: random data, device files, drafts written where nothing can be written."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT, TRACES

SOURCE = TRACES / "adk2.otlp.jsonl"
TRACE_ID = "6ba1f49a4e0b98a257a16cb62edefd94"


def _promote(
    *args: str, limit_kb: int | None = None, memory_mb: int | None = None
) -> subprocess.CompletedProcess:
    def limits() -> None:
        if limit_kb is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_kb << 10, limit_kb << 10))
        if memory_mb is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))

    return subprocess.run([sys.executable, "-m", "promote.cli", *args], capture_output=True, cwd=ROOT,
                          timeout=300, preexec_fn=limits)


def test_random_bytes_that_look_like_a_huge_protobuf_prefix_are_refused_quickly(tmp_path: Path) -> None:
    noise = tmp_path / "noise.bin"
    noise.write_bytes(b"\x3f\xff\xff\xff\x0b" + os.urandom(3 << 20))
    done = _promote("scrub", str(noise), "-o", str(tmp_path / "out.bin"), "--workers", "1", memory_mb=1500)
    assert done.returncode == 2 and b"no trace data found" in done.stderr, done.stderr[-500:]


def test_an_empty_character_device_is_one_line_not_a_hang(tmp_path: Path) -> None:
    done = _promote("traces", "/dev/null")
    assert done.returncode == 2 and b"empty file" in done.stderr


def test_a_draft_that_cannot_be_written_is_one_line_and_leaves_the_old_case(tmp_path: Path) -> None:
    case = tmp_path / "hr.policy_carryover_001.yaml"
    case.write_text("old: case\n")
    done = _promote("draft", str(SOURCE), "--trace", TRACE_ID, "--by", "sme", "-o", str(case), "--force",
                    limit_kb=1)
    lines = done.stderr.decode().strip().splitlines()
    assert done.returncode == 2 and "cannot write" in lines[-1] and str(case) in lines[-1], lines
    assert not [line for line in lines if "Traceback" in line or "internal error" in line]
    assert case.read_text() == "old: case\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [case.name]
