"""The `promote` command line: parse, call one library function, print (docs/cli.md).

Exit codes: 0 success, 1 a check failed (validate, compile --check), 2 bad input with one line on
stderr naming file, line and problem. Nothing a user can cause ends in a traceback, and an unexpected
error prints its type only, since its message could carry trace content.
"""

from __future__ import annotations

import argparse
import atexit
import importlib
import os
import signal
import sys
import threading
from typing import Sequence

from promote.errors import PromoteError

# One module per subcommand under promote/cli/, each with `add_parser(commands)`; the order is --help's.
COMMANDS = ("traces", "draft", "validate", "scrub", "tui", "pr", "compile", "check")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="promote", description="From production agent trace to scrubbed golden eval case.",
        epilog="The command line, its exit codes and JSON shapes: docs/cli.md; the case format: "
               "docs/case-format.md; the scrub policy: docs/scrub-policy.md.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"promote.cli.{name}").add_parser(commands)
    return parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("promote")
    except PackageNotFoundError:
        return "unknown (not installed)"


class Terminated(BaseException):
    """SIGTERM, raised where the process is so that every `finally` and `with` cleans up (temp files,
    worktrees), exactly as Ctrl-C does."""


def _on_sigterm(signum: int, frame: object) -> None:
    raise Terminated()


def _install_signal_handlers() -> None:
    if threading.current_thread() is not threading.main_thread():
        return
    signal.signal(signal.SIGTERM, _on_sigterm)
    if hasattr(signal, "SIGXFSZ"):  # a file-size limit (or a full quota) becomes an error we report
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def _stdout_closed() -> None:
    # Later flushes of the closed pipe must not print "Exception ignored" at exit.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    _install_signal_handlers()
    try:
        code = args.handler(args)
        sys.stdout.flush()
        return code
    except PromoteError as exc:
        print(f"promote {args.command}: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print(f"promote {args.command}: interrupted", file=sys.stderr)
        return 130
    except Terminated:
        print(f"promote {args.command}: terminated; nothing half-written was left", file=sys.stderr)
        return 143
    except BrokenPipeError:
        _stdout_closed()
        print(f"promote {args.command}: standard output was closed before everything was written "
              "(the output is incomplete)", file=sys.stderr)
        return 2
    except OSError as exc:
        if exc.filename is None and exc.errno is not None:  # stdout or stderr themselves
            _stdout_closed()
            print(f"promote {args.command}: cannot write the output: {exc.strerror} "
                  "(the output is incomplete)", file=sys.stderr)
            return 2
        return _internal(args, exc)
    except Exception as exc:  # noqa: BLE001 - last line of defence: never a traceback, never content
        return _internal(args, exc)


def _internal(args: argparse.Namespace, exc: BaseException) -> int:
    if os.environ.get("PROMOTE_DEBUG"):
        raise exc
    print(
        f"promote {args.command}: internal error ({type(exc).__name__}); "
        "rerun with PROMOTE_DEBUG=1 for details and report it",
        file=sys.stderr,
    )
    return 3


def entry() -> None:
    """The `promote` script and `python -m promote`: `main`, then `exit_quickly` with its code."""
    exit_quickly(main())


def exit_quickly(code: int) -> None:
    """End the process with `code` without freeing every object one by one first.

    A scrub leaves millions of objects behind (the spaCy model, the analysis caches): Python's own
    shutdown spent 0.7-0.9 s freeing them after a 10 MB scrub, a tenth of the run. The exit handlers
    still run (pools joined, temporary folders removed) and the standard streams are flushed; only the
    freeing is skipped. With another thread still running, the process ends the usual way.
    """
    if threading.active_count() > 1:
        sys.exit(code)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            code = code or 2  # the output could not be written in full
    os._exit(code)


if __name__ == "__main__":
    entry()
