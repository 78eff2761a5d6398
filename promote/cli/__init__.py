"""The `promote` command line: parse, call one library function, print."""

from promote.cli.main import build_parser, main

__all__ = ["build_parser", "main"]
