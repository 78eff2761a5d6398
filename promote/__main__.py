"""`python -m promote`: the same command line as the `promote` script."""

import sys

from promote.cli.main import main

sys.exit(main())
