"""``chance-agreement figure1 -o FILE.png``: the random model's start distributions (the paper's Figure 1)."""

from __future__ import annotations

from ...chance.random_models import model_names
from ..command_io import Command, check_outputs, positive_number
from ..plots import FIGURE1_LENGTHS, require_matplotlib, save_start_distributions


def run(args) -> int:
    check_outputs({"--output": args.output}, [])
    try:
        require_matplotlib()
    except ImportError as error:
        raise ValueError(str(error)) from None
    save_start_distributions(args.output, args.n, args.lengths, args.model)
    print(args.output)
    return 0


def arguments(parser) -> None:
    parser.add_argument("--n", type=positive_number, default=100, help="text length in tokens (default 100)")
    parser.add_argument("--lengths", type=positive_number, nargs="+", default=list(FIGURE1_LENGTHS),
                        help="segment lengths (default 1 5 10 15)")
    parser.add_argument("--model", choices=model_names(), default="non_overlapping")


COMMAND = Command("figure1", "plot the random model's start distributions (the paper's Figure 1)", arguments, run,
                  output="the image (PNG unless the name ends in .pdf, .svg or .jpg)", output_required=True,
                  output_metavar="FILE.png")

__all__ = ["COMMAND"]
