"""`python -m promote.cli`."""

from promote.cli.main import entry

entry()
