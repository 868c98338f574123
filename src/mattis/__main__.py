"""``python -m mattis``: the same as the ``mattis`` command."""

from mattis.cli.app import main

main()
