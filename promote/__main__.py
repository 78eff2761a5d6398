"""`python -m promote`: the same command line as the `promote` script."""

from promote.cli.main import entry

entry()
