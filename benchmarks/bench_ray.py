"""A generated corpus streamed from Parquet through the Ray adapter, with 1 and 2 workers (issue 23, item 4).

    python benchmarks/bench_ray.py                      (2 x 10^7 and 4 x 10^7 tokens; a few minutes)
    python benchmarks/bench_ray.py --tokens 300000 --interval-tokens 100000      (a quick check)

Writes each corpus as Parquet files (tag lists, a document id; files of about 2 x 10^6 tokens,
row groups of 10,000 sentences) in a temporary folder, then, on a fresh local cluster per run
(``ray.init(num_cpus=2)``, Ray Data limited to 1 or 2 CPUs, so 1 or 2 blocks are scored at once),
times ``ray_chance_state(ray.data.read_parquet(folder))`` and reads every Ray worker process's peak
resident memory (``VmHWM``) before shutting the cluster down. The same-run reference is one Python
process without Ray reading the same files batch by batch into one ``ChanceF1State``; every Ray
result is checked to equal it bit for bit. A last, smaller corpus adds Poisson intervals (1,000
resamples), whose sums cost more per sentence than the point scores.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

TAGS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG", "B-MISC", "I-MISC"]
FILE_TOKENS = 2_000_000
ROW_GROUP = 10_000
POISSON = dict(confidence_level=0.95, n_resamples=1000, random_state=0, resampling="poisson")


def _tag_codes(rng, tokens: int) -> tuple[np.ndarray, np.ndarray]:
    """Reference and predicted tag codes (indices into TAGS): entities of 1-3 tokens, 10% noise."""
    reference = np.zeros(tokens, dtype=np.int8)
    begins = np.flatnonzero(rng.random(tokens) < 0.1)
    kinds = rng.integers(0, 4, begins.size).astype(np.int8)
    reference[begins] = 1 + 2 * kinds
    for extra in (1, 2):  # I- tags after about half of the B- tags, then half again
        inside = begins[(rng.random(begins.size) < 0.5 ** extra) & (begins + extra < tokens)]
        inside = inside[reference[inside + extra] == 0]
        reference[inside + extra] = reference[inside] + 1
    predicted = np.where(rng.random(tokens) < 0.9, reference, rng.integers(0, len(TAGS), tokens)).astype(np.int8)
    return reference, predicted


def write_corpus(folder: Path, tokens: int, seed: int = 0) -> tuple[int, int]:
    """Parquet files of sentences (5-24 tokens) up to ``tokens`` tokens: (sentences, tokens) written."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    dictionary = pa.array(TAGS)
    sentences = written = part = 0
    while written < tokens:
        lengths = rng.integers(5, 25, size=max(1, min(FILE_TOKENS, tokens - written) // 14))
        offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
        reference, predicted = _tag_codes(rng, int(offsets[-1]))

        def tag_lists(codes):
            return pa.ListArray.from_arrays(offsets, pa.DictionaryArray.from_arrays(pa.array(codes), dictionary))

        table = pa.table({"doc_id": pa.array(np.arange(sentences, sentences + lengths.size)),
                          "predictions": tag_lists(predicted), "references": tag_lists(reference)})
        pq.write_table(table, folder / f"part-{part:04d}.parquet", row_group_size=ROW_GROUP)
        sentences, written, part = sentences + lengths.size, written + int(offsets[-1]), part + 1
    return sentences, written


def plain_state(folder: Path, **options):
    """The reference: one process, no Ray, the same files row group by row group (``table_state``,
    the adapter's per-block code), merged into one state."""
    import pyarrow.parquet as pq

    from chance_agreement import ChanceF1State
    from chance_agreement.ecosystem.ray_data import table_state

    state = ChanceF1State(**options)
    for path in sorted(folder.glob("*.parquet")):
        file = pq.ParquetFile(path)
        for group in range(file.num_row_groups):
            state = state.merge(table_state(file.read_row_group(group), id_column="doc_id", **state.options()))
    return state


def _descendants(root: int) -> list[int]:
    """Process ids below ``root`` (Linux /proc)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                status = (entry / "status").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(status.split("PPid:")[1].split()[0])
    found, frontier = [], [root]
    while frontier:
        children = [pid for pid, parent in parents.items() if parent in frontier]
        found += children
        frontier = children
    return found


def worker_peaks_mb() -> list[float]:
    """Peak resident memory (VmHWM, MB) of every Ray worker process of this driver ("ray::..."),
    largest first."""
    peaks = []
    for pid in _descendants(os.getpid()):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0]
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        if command.startswith(b"ray::") and "VmHWM:" in status:
            peaks.append(int(status.split("VmHWM:")[1].split()[0]) / 1024)
    return sorted(peaks, reverse=True)


def ray_run(folder: Path, workers: int, **options):
    """(state, seconds, worker peaks) of one run on a fresh local cluster with ``workers`` CPUs for Ray Data."""
    import ray

    from chance_agreement.ecosystem.ray_data import ray_chance_state

    ray.init(num_cpus=2, _node_ip_address="127.0.0.1", include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    try:
        context = ray.data.DataContext.get_current()
        context.enable_progress_bars = False
        context.execution_options.resource_limits = ray.data.ExecutionResources(cpu=workers)
        warm = [{"predictions": ["B-PER", "O"], "references": ["B-PER", "O"], "doc_id": i} for i in range(4)]
        ray_chance_state(ray.data.from_items(warm, override_num_blocks=2), id_column="doc_id", **options)  # start the
        # workers (and their imports) and the aggregation's actors before the clock
        start = time.perf_counter()
        state = ray_chance_state(ray.data.read_parquet(str(folder)), id_column="doc_id", **options)
        seconds = time.perf_counter() - start
        return state, seconds, worker_peaks_mb()
    finally:
        ray.shutdown()


def measure(folder: Path, tokens: int, label: str, **options) -> list[str]:
    """Markdown rows: the plain process, then Ray with 1 and 2 workers (bit-identity checked)."""
    start = time.perf_counter()
    expected = plain_state(folder, **options).result(zero_division=0)
    plain = time.perf_counter() - start
    rows = [f"| {label} | one process, no Ray | {plain:.1f} | {tokens / plain / 1e6:.2f} | 1.00 | - |"]
    for workers in (1, 2):
        state, seconds, peaks = ray_run(folder, workers, **options)
        if state.result(zero_division=0) != expected:
            raise AssertionError(f"{label}, {workers} workers: the Ray result differs from the plain one")
        busy = ", ".join(f"{peak:.0f}" for peak in peaks[:3])
        rows.append(f"| {label} | Ray, {workers} worker{'s' if workers > 1 else ''} | {seconds:.1f} | "
                    f"{tokens / seconds / 1e6:.2f} | {plain / seconds:.2f} | {busy} |")
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, nargs="+", default=[20_000_000, 40_000_000])
    parser.add_argument("--interval-tokens", type=int, default=1_000_000,
                        help="corpus size of the row with Poisson intervals (0: leave it out)")
    args = parser.parse_args(argv)
    import warnings

    warnings.simplefilter("ignore")
    print("| corpus | run | seconds | M tokens/s | speed vs one process | peak MB of the busiest Ray workers |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="bench-ray-") as tmp:
        runs = [(size, {}, "") for size in args.tokens]
        if args.interval_tokens:
            runs.append((args.interval_tokens, POISSON, ", 1,000 Poisson resamples"))
        for index, (size, options, extra) in enumerate(runs):
            folder = Path(tmp) / f"corpus-{index}"
            sentences, tokens = write_corpus(folder, size)
            label = f"{tokens / 1e6:.0f} M tokens ({sentences:,} sentences{extra})"
            print("\n".join(measure(folder, tokens, label, **options)), flush=True)
    print("\nEvery Ray result equals the one-process result bit for bit.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
