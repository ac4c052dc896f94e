"""``python -m nbstats.cli``: the ``nbstats`` command without its launcher."""

from nbstats.cli.commands import main
from nbstats.util.quick_exit import exit_quickly

exit_quickly(main())
