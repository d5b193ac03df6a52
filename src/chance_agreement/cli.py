"""``python -m chance_agreement.cli ...``: the ``chance-agreement`` command (``reports.cli``), for
environments where the console script is not on the PATH. ``python -m chance_agreement`` runs the
same (``__main__``). Like the package root, this entry point sits above every layer."""

from __future__ import annotations

import sys

from .reports.cli import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
