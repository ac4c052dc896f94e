"""``python -m nbstats.cli``: the ``nbstats`` command without its launcher."""

import sys

from nbstats.cli.commands import main

sys.exit(main())
