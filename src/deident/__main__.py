"""``python -m deident``: the same as the ``deident`` command."""

from deident.cli.app import main

main()
