"""Every row of the speed table (issues 11, 26 and 32) in one run: the chance core, the coefficients,
then long documents (``bench_long_documents``: each call in a fresh process, a few minutes).

    python benchmarks/bench_speed.py                      (data from $CHANCE_AGREEMENT_DATA or ../shared/data)
    python benchmarks/bench_speed.py --numpy --write docs/_tables   (writes the tables docs/benchmarks.md includes)

Same-run ratios against the fastest peer where one exists (seqeval, a local evaluate module
calling seqeval, statsmodels, krippendorff, scikit-learn), absolute times where none does, and
the fitted growth exponent of the long-text core. With ``--write DIR`` each table is also written
to ``DIR/<name>.md`` under a line saying when and where it was measured (processor, cores, load,
Python and numpy, compiled kernels or the numpy code): the docs' figures are this script's output,
never typed by hand.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_chance_f1  # noqa: E402
import bench_coefficients  # noqa: E402
import bench_long_documents  # noqa: E402


def _processor() -> str:
    """The processor's model name (Linux), else what ``platform`` says."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def provenance(load_before: float) -> str:
    """One line: when, on what, with which code path, under what load (1-minute load average)."""
    import numpy

    from chance_agreement._numerics.compiled import compiled_kernels

    kernels = "compiled kernels" if compiled_kernels() is not None else "numpy code (no compiled kernels)"
    load_after = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (f"Measured {when} by `python benchmarks/bench_speed.py --write`: {_processor()}, "
            f"{os.cpu_count()} cores, load average {load_before:.2f} before and {load_after:.2f} after; "
            f"Python {platform.python_version()}, numpy {numpy.__version__}, {kernels}.")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", metavar="DIR", type=Path,
                        help="also write each table to DIR/chance_core.md, coefficients.md, long_documents.md")
    parser.add_argument("--numpy", action="store_true",
                        help="also time every long-document row on the numpy code (no compiled kernels)")
    args = parser.parse_args(argv)
    tables: dict[str, str] = {}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    try:
        core = bench_chance_f1.rows()
        coefficients = bench_coefficients.rows()
    except FileNotFoundError as error:
        print(error, file=sys.stderr)
        return 1
    tables["chance_core"] = (f"chance core, best of {bench_chance_f1.REPEATS} runs, caches cleared before each "
                             f"run, same-run ratios\n\n{bench_chance_f1.format_rows(core)}")
    tables["coefficients"] = bench_coefficients.format_table(coefficients, 5)
    repeats = bench_long_documents.REPEATS
    tables["long_documents"] = (f"long documents, first call in a fresh process, best of {repeats}, same-run "
                                f"ratios\n\n{bench_long_documents.format_rows(bench_long_documents.rows(repeats, numpy_too=args.numpy))}")
    for text in tables.values():
        print(text, end="\n\n")
    if args.write:
        args.write.mkdir(parents=True, exist_ok=True)
        line = provenance(load)
        for name, text in tables.items():
            (args.write / f"{name}.md").write_text(f"{line}\n\n{text}\n", encoding="utf-8")
        print(f"wrote {', '.join(f'{name}.md' for name in tables)} to {args.write}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
