"""``python -m deident``: the same as the ``deident`` command."""

from deident.cli.app import main

# Guarded: a process pool started with "spawn" (deident train --jobs) imports this module in each worker as
# __mp_main__, which must not run the command again.
if __name__ == "__main__":
    main()
