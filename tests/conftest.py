"""Shared fixtures. The research data are read from ../shared/data (override with
CHANCE_AGREEMENT_DATA); they are never copied into the repository."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

# Nothing may load from a hub at run time: the metric modules are loaded by local path.
for _variable in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "HF_EVALUATE_OFFLINE", "TRANSFORMERS_OFFLINE"):
    os.environ.setdefault(_variable, "1")

# Property tests run with a fixed seed: the same examples on every machine and every run (a
# test's own @settings add to this profile).
settings.register_profile("fixed_seed", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("fixed_seed")

REPO = Path(__file__).resolve().parent.parent
# data/ holds fixtures and the scripts that wrote them (run by hand, e.g. make_cas.py needs dkpro-cassis):
# not tests, and --doctest-modules (pyproject.toml) would import them
collect_ignore = ["data"]
DATA_DIR = Path(os.environ.get("CHANCE_AGREEMENT_DATA", REPO.parent / "shared" / "data"))


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The shared data folder; tests using it skip only on a user's clone without it.

    Under CI (CI=true) a missing folder is an error, never a skip.
    """
    if not DATA_DIR.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"CI requires the shared data folder, not found at {DATA_DIR}")
        pytest.skip(f"shared research data not found at {DATA_DIR} (set CHANCE_AGREEMENT_DATA)")
    return DATA_DIR


@pytest.fixture(scope="session")
def conll_systems(shared_data):
    """CoNLL-2003 test gold and three token-aligned system outputs: (references, {name: predictions})."""
    from chance_agreement.spans.conll import read_conll

    path = shared_data / "conll03_systems" / "derived" / "conll03_test_gold_plus_3_systems.tsv"
    _, references, predictions = read_conll(path, 1, (2, 3, 4))
    names = ("CnonWrand_lstmCrf_7849", "CflairWglove_lstmCrf_9303", "CbertWnon_snonMlp_9109")
    return references, dict(zip(names, predictions))


@pytest.fixture(scope="session")
def load_metric():
    """``evaluate.load`` of one of the repository's metric folders, by local path."""
    import evaluate

    def load(folder: str, config_name: str | None = None, **kwargs):
        path = str(REPO / folder)
        return evaluate.load(path, config_name, **kwargs) if config_name else evaluate.load(path, **kwargs)

    return load


TORCH_REASON = ('the Trainer tests need torch and accelerate, kept out of the test extra (no GPU toolchain): '
                'pip install "torch==2.13.0" "accelerate>=0.26" (the CPU build of torch is enough)')


def require_torch(*, module_level: bool = False):
    """torch (and accelerate, which Trainer needs): .ci/run installs the CPU build before the test
    command, so under CI (CI set) their absence fails; elsewhere the tests skip with the reason."""
    try:
        import accelerate  # noqa: F401
        import torch
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail(f"CI installs them: {TORCH_REASON}", pytrace=False)
        pytest.skip(TORCH_REASON, allow_module_level=module_level)
    return torch


@pytest.fixture
def own_count_tables(monkeypatch):
    """Every side's counts marked inexact, so that each segment's table is built from its own
    others instead of leaving the segment out of the side's table (``document_bands._Group``)."""
    from chance_agreement.chance.random_models import document_bands

    counted = document_bands._job_counts

    def all_inexact(prepared):
        out = counted(prepared)
        for job in prepared:
            job.inexact = True
        return out

    monkeypatch.setattr(document_bands, "_job_counts", all_inexact)
