"""`python -m promote.cli`."""

import sys

from promote.cli.main import main

sys.exit(main())
