"""``python -m chance_agreement ...``: the ``chance-agreement`` command (``reports.cli``), where the
console script is not on the PATH. Like the package root, this entry point sits above every layer.
(``chance_agreement.cli``, the module path from before the layer folders, stays gone: see
tests/test_layout.py.)"""

from __future__ import annotations

import sys

from .reports.cli import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
