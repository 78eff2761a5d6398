"""What the tool writes: never over an input, never half a file, modes kept, symlinks written through,
and every write failure one clear line with exit 2 (never exit 3)."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from promote.fsutil import atomic_write_text
from tests.conftest import ROOT, TRACES, run_cli

SOURCE = TRACES / "adk2.otlp.jsonl"


def _one_line_error(done: subprocess.CompletedProcess) -> str:
    lines = done.stderr.decode().strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1 and "Traceback" not in lines[0], lines
    return lines[0]


def _copy(tmp_path: Path, name: str = "export.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(SOURCE.read_bytes())
    return path


def test_scrub_refuses_its_input_as_output_or_report_however_spelled(tmp_path: Path) -> None:
    export = _copy(tmp_path)
    raw = export.read_bytes()
    link = tmp_path / "link.jsonl"
    link.symlink_to(export)
    attempts = [
        ["scrub", str(export), "-o", str(export)],
        ["scrub", "export.jsonl", "-o", str(tmp_path / "." / "export.jsonl")],
        ["scrub", str(export), "-o", str(link)],
        ["scrub", str(export), "-o", str(tmp_path / "out.jsonl"), "--report", str(export)],
        ["scrub", str(export), str(SOURCE), "-o", str(tmp_path)],
    ]
    for args in attempts:
        line = _one_line_error(run_cli(*args, "--workers", "1", cwd=tmp_path))
        assert "destroy" in line
    assert export.read_bytes() == raw
    assert not (tmp_path / "out.jsonl").exists()


def test_report_path_problems_are_found_before_any_output_is_written(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    line = _one_line_error(run_cli("scrub", str(SOURCE), "-o", str(out), "--report",
                                   str(tmp_path / "no" / "r.json")))
    assert "does not exist" in line
    line = _one_line_error(run_cli("scrub", str(SOURCE), "-o", str(out), "--report", str(tmp_path)))
    assert "is a folder" in line
    assert not out.exists()


def test_output_naming_an_existing_folder_is_bad_input(tmp_path: Path) -> None:
    line = _one_line_error(run_cli("scrub", str(SOURCE), "-o", str(tmp_path), "--workers", "1"))
    assert "is a folder" in line


def test_a_replaced_file_keeps_its_mode_and_a_new_one_follows_the_umask(tmp_path: Path) -> None:
    old = tmp_path / "old.txt"
    old.write_text("x")
    old.chmod(0o644)
    atomic_write_text(old, "y")
    assert stat.S_IMODE(old.stat().st_mode) == 0o644
    mask = os.umask(0o022)
    try:
        atomic_write_text(tmp_path / "new.txt", "z")
    finally:
        os.umask(mask)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o644


def test_scrub_output_keeps_the_mode_of_the_file_it_replaces(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text("old")
    out.chmod(0o640)
    # it replaces a file: --force
    assert run_cli("scrub", str(SOURCE), "-o", str(out), "--workers", "1", "--force").returncode == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o640


def test_output_onto_a_symlink_writes_its_target_and_keeps_the_link(tmp_path: Path) -> None:
    target = tmp_path / "real.jsonl"
    target.write_text("old")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    assert run_cli("scrub", str(SOURCE), "-o", str(link), "--workers", "1", "--force").returncode == 0
    assert link.is_symlink()
    assert target.read_bytes().startswith(b"{")


def test_a_read_only_output_folder_is_one_line_not_exit_3(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        # root ignores permission bits: make the write fail the way a full or protected disk does
        done = subprocess.run(
            f"ulimit -f 1; exec {sys.executable} -m promote.cli scrub {SOURCE} -o "
            f"{tmp_path / 'out.jsonl'} --workers 1",
            shell=True, capture_output=True, cwd=ROOT, timeout=120,
        )
    else:
        folder = tmp_path / "ro"
        folder.mkdir()
        folder.chmod(0o555)
        done = run_cli("scrub", str(SOURCE), "-o", str(folder / "out.jsonl"), "--workers", "1")
    line = _one_line_error(done)
    assert "cannot write" in line
    assert [p for p in tmp_path.rglob("*partial*")] == []


def test_stdout_to_a_full_device_is_reported(tmp_path: Path) -> None:
    with open("/dev/full", "wb") as full:
        done = subprocess.run([sys.executable, "-m", "promote.cli", "traces", str(SOURCE)], stdout=full,
                              stderr=subprocess.PIPE, cwd=ROOT, timeout=120)
    assert done.returncode == 2
    assert b"incomplete" in done.stderr and b"Traceback" not in done.stderr


def test_a_closed_stdout_is_not_success() -> None:
    done = subprocess.run(
        f"{sys.executable} -m promote.cli scrub {SOURCE} -o - --workers 1 | true; exit ${{PIPESTATUS[0]}}",
        shell=True, executable="/bin/bash", capture_output=True, cwd=ROOT, timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert b"incomplete" in done.stderr and b"Traceback" not in done.stderr


def test_sigterm_mid_scrub_leaves_no_partial_and_no_traceback(tmp_path: Path) -> None:
    big = tmp_path / "big.jsonl"
    big.write_bytes(SOURCE.read_bytes() * 40)
    out = tmp_path / "out.jsonl"
    process = subprocess.Popen([sys.executable, "-m", "promote.cli", "scrub", str(big), "-o", str(out),
                                "--workers", "1", "--window", "5"], cwd=ROOT, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not list(tmp_path.glob(".out.jsonl.*.partial")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list(tmp_path.glob(".out.jsonl.*.partial")), "the run never started writing"
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143
    assert b"Traceback" not in err
    assert not out.exists() and not list(tmp_path.glob(".out.jsonl.*"))


def test_the_next_run_removes_a_killed_runs_partial_of_its_own_target(tmp_path: Path) -> None:
    stale = tmp_path / ".out.jsonl.999999999.abc.partial"  # a pid that does not exist
    stale.write_text("half")
    other = tmp_path / ".other.jsonl.999999999.abc.partial"
    other.write_text("not ours")
    assert run_cli("scrub", str(SOURCE), "-o", str(tmp_path / "out.jsonl"), "--workers", "1").returncode == 0
    assert not stale.exists() and other.exists()


def test_a_worker_that_dies_fails_the_run_instead_of_hanging(tmp_path: Path) -> None:
    """A worker killed mid-run (here: by a file-size limit it trips) must not leave the parent waiting."""
    code = (
        "import os, signal, sys\n"
        "import promote.batch.workers as w\n"
        "real = w._work\n"
        "def dying(job):\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
        "w._work = dying\n"
        "from promote.cli.main import main\n"
        f"sys.exit(main(['scrub', {str(SOURCE)!r}, '-o', {str(tmp_path / 'out.jsonl')!r}, "
        "'--workers', '2']))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=ROOT, timeout=180)
    line = _one_line_error(done)
    assert "worker process died" in line
    assert list(tmp_path.iterdir()) == []


def test_workers_and_block_size_are_capped_and_the_cap_is_said(tmp_path: Path) -> None:
    done = run_cli("scrub", str(SOURCE), "-o", str(tmp_path / "o.jsonl"), "--workers", "64", "--block-mb",
                   "100000")
    assert done.returncode == 0, done.stderr
    assert b"--workers 64 capped to" in done.stderr
    assert b"--block-mb 100000 capped to 64" in done.stderr


@pytest.mark.parametrize("command", ["traces", "scrub"])
def test_an_endless_line_is_skipped_with_its_line_number_not_held_in_memory(
    command: str, tmp_path: Path
) -> None:
    """A gzip bomb is one endless line: memory must not follow it (here 200 MiB of a line, streamed)."""
    import gzip

    bomb = tmp_path / "bomb.jsonl.gz"
    first = SOURCE.read_bytes().split(b"\n")[0] + b"\n"
    with gzip.open(bomb, "wb", compresslevel=1) as out:
        out.write(first)
        chunk = b"a" * (1 << 20)
        out.write(b'{"resourceSpans": "')
        for _ in range(200):
            out.write(chunk)
        out.write(b'"}\n')
        out.write(first)
    args = (
        ["traces", "--json", str(bomb)]
        if command == "traces"
        else ["scrub", str(bomb), "-o", str(tmp_path / "o.jsonl.gz"), "--workers", "1"]
    )
    done = subprocess.run(
        f"ulimit -v {3 << 20}; exec {sys.executable} -m promote.cli " + " ".join(args),
        shell=True, capture_output=True, cwd=ROOT, timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert b"Traceback" not in done.stderr
    if command == "traces":
        assert b"bomb.jsonl.gz:2" in done.stdout and b"longer than" in done.stdout


def _resume_run(tmp_path: Path, inputs: list[Path], out: Path, *extra: str) -> bytes:
    done = run_cli("scrub", *map(str, inputs), "-o", str(out), "--workers", "1", "--resume", *extra,
                   cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return done.stderr


def test_resume_checks_what_each_output_was_made_from(tmp_path: Path) -> None:
    first = _copy(tmp_path, "a.jsonl")
    second = tmp_path / "b.jsonl"
    second.write_bytes((TRACES / "adk1.otlp.jsonl").read_bytes())
    out = tmp_path / "out"
    _resume_run(tmp_path, [first, second], out)
    # relative spellings of the same inputs are the same inputs
    assert _resume_run(tmp_path, [Path("a.jsonl"), Path("./b.jsonl")], out).count(b"already done") == 2
    # a damaged finished output is redone
    (out / "a.jsonl").write_bytes(b"garbage")
    err = _resume_run(tmp_path, [first, second], out)
    assert err.count(b"already done") == 1 and (out / "a.jsonl").read_bytes().startswith(b"{")
    # another key file: everything is redone
    key = tmp_path / "scrub.key"
    key.write_bytes(b"k" * 32)
    assert _resume_run(tmp_path, [first, second], out, "--key-file", str(key)).count(b"already done") == 0
    # a changed input is redone
    second.write_bytes((TRACES / "adk2.otlp.jsonl").read_bytes())
    err = _resume_run(tmp_path, [first, second], out, "--key-file", str(key))
    assert err.count(b"already done") == 1


def test_resume_with_one_input_is_honoured(tmp_path: Path) -> None:
    out = tmp_path / "one.jsonl"
    _resume_run(tmp_path, [SOURCE], out)
    assert b"already done" in _resume_run(tmp_path, [SOURCE], out)


def test_kill_9_mid_scrub_keeps_the_old_output_and_the_next_run_cleans_up(tmp_path: Path) -> None:
    big = tmp_path / "big.jsonl"
    big.write_bytes(SOURCE.read_bytes() * 40)
    out = tmp_path / "out.jsonl"
    out.write_bytes(b"the previous output\n")
    process = subprocess.Popen([sys.executable, "-m", "promote.cli", "scrub", str(big), "-o", str(out),
                                "--workers", "1", "--window", "5", "--force"], cwd=ROOT,
                               stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not list(tmp_path.glob(".out.jsonl.*.partial")) and time.monotonic() < deadline:
        time.sleep(0.05)
    process.kill()
    process.wait(timeout=30)
    assert out.read_bytes() == b"the previous output\n"
    assert list(tmp_path.glob(".out.jsonl.*.partial")), "kill -9 leaves its temp file"
    assert run_cli("scrub", str(SOURCE), "-o", str(out), "--workers", "1", "--force").returncode == 0
    assert not list(tmp_path.glob(".out.jsonl.*.partial"))
    assert out.read_bytes().startswith(b"{")


def test_a_single_input_run_leaves_no_resume_record_unless_asked(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    assert run_cli("scrub", str(SOURCE), "-o", str(out), "--workers", "1").returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl"]
