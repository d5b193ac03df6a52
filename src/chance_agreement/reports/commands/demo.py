"""``chance-agreement demo``: the chance-F1 paper's simulations, our values beside the paper's."""

from __future__ import annotations

from ...chance.corrected_f1 import chance_f1
from ..command_io import Command, check_outputs, emit
from ..paper_examples import SIMULATIONS

PAPER = '"Estimating Agreement by Chance for Sequence Annotation" (anonymous ACL submission)'


def demo_rows():
    """(name, ours, paper) rows for the paper's simulations, ours rounded to 4 decimals."""
    rows = []
    for simulation in SIMULATIONS:
        annotator_1, annotator_2 = simulation.tags()
        result = chance_f1([annotator_1], [annotator_2])
        ours = (result["overall_observed_f1"], result["overall_chance_f1"], result["overall_corrected_f1"])
        paper = (simulation.observed_f1, simulation.chance_f1, simulation.corrected_f1)
        rows.append((simulation.name, ours, paper))
    return rows


def run(args) -> int:
    check_outputs({"--output": args.output}, [])
    lines = [f"{PAPER}, Tables 2-9: the simulated annotations",
             "token-level F1, non-overlapping random annotation model; ours | paper", "",
             f"{'case':<26}{'ObsF1':>16}{'ChanceF1':>18}{'CorrF1':>18}"]
    for name, ours, paper in demo_rows():
        cells = "".join(f"{o:>9.4f} |{p:>6.4f}" for o, p in zip(ours, paper, strict=True))
        lines.append(f"{name:<26}{cells}")
    lines += ["", "The paper truncates where we round (Sim4 annotator 2: 32/47 = 0.68085 prints as 0.6808)."]
    emit("\n".join(lines) + "\n", args.output)
    return 0


def arguments(parser) -> None:
    """The demo takes only the common options (``-o``, ``-q``)."""


COMMAND = Command("demo", "the paper's simulations, ours beside the paper's values", arguments, run,
                  output="the table")

__all__ = ["COMMAND", "PAPER", "demo_rows"]
