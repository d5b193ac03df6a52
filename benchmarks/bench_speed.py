"""Every row of the speed table (issues 11 and 26) in one run: the chance core, the coefficients,
then long documents (``bench_long_documents``: each call in a fresh process, a few minutes).

    python benchmarks/bench_speed.py        (data from $CHANCE_AGREEMENT_DATA or ../shared/data)

Same-run ratios against the fastest peer where one exists (seqeval, a local evaluate module
calling seqeval, statsmodels, krippendorff, scikit-learn), absolute times where none does, and
the fitted growth exponent of the long-text core. The speed table of docs/benchmarks.md comes from this.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_chance_f1  # noqa: E402
import bench_coefficients  # noqa: E402
import bench_long_documents  # noqa: E402


def main() -> int:
    status = bench_chance_f1.main()
    print()
    status = status or bench_coefficients.main([])
    print()
    return status or bench_long_documents.main([])


if __name__ == "__main__":
    sys.exit(main())
