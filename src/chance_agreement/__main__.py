"""``python -m chance_agreement ...``: the ``chance-agreement`` command (``reports.cli``)."""

from __future__ import annotations

import sys

from .reports.cli import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
