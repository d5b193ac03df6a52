"""The Hub Space of each metric module: paste or upload annotations, see the scores.

Each module folder's ``app.py`` (what a Gradio Space runs) is two lines around ``build_demo(gradio,
name)``: the page has a text box for CoNLL columns (``token reference prediction``, or
``token annotator-1 annotator-2``), an upload for one such file or for two annotators' files
(``token tag`` each, the first the reference), and for ``chance_f1`` the level and the random
annotation model; "Score" shows every number of the metric's result in a table. The page loads
nothing from outside (system fonts, no analytics). The work is done here without Gradio, so the
tests run it directly: ``read_annotations`` -> ``compute`` -> ``scores_html``; ``score`` chains them
and turns bad input into one line naming the file and line.

In the table, each number sits in an element with ``data-key`` (the flat key, as
``chance_agreement.flatten`` names it) and ``data-value`` (the float's ``repr``, so a browser reads
back exactly the library's value).
"""

from __future__ import annotations

import html
import math
import os
import warnings
from collections.abc import Callable
from pathlib import Path

from ..chance.corrected_f1 import chance_f1
from ..chance.random_models import model_names
from ..chance.statistics import LEVELS
from ..noise.noise_model import noise_report
from ..reliability.agreement_coefficients import agreement_report
from ..spans.conll import check_same_tokens, read_column_file
from .flat import flatten
from .module_paths import examples_path

TITLES = {
    "chance_f1": "Chance-corrected F1 for sequence labelling",
    "coefficients": "Agreement coefficients on BIO tags",
    "noise": "Noise bound of an agreed gold standard",
}
HIDDEN = ("category_probabilities", "category_similarity")  # matrices: in the result, not in the table
FONTS = ("system-ui", "sans-serif")  # no web fonts: the page loads nothing from outside


def _sample() -> str:
    """The first sentences of examples/predictions.conll, shown in the text box at start."""
    try:
        text = (Path(examples_path()) / "predictions.conll").read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""
    return "\n\n".join(text.strip().split("\n\n")[:3]) + "\n"


def read_annotations(text: str = "", files=()) -> tuple[list, list, list]:
    """(tokens, references, predictions) from uploaded files, or else from the pasted text.

    One file or the text: columns ``token reference prediction`` (the reference is column 1, the
    prediction the last). Two files: two annotators, ``token tag`` each (their last column), the first
    the reference; their tokens must match. Errors name the file (``pasted text``) and line.
    """
    paths = [Path(item if isinstance(item, (str, os.PathLike)) else item.name) for item in (files or [])]
    if len(paths) > 2:
        raise ValueError(f"{len(paths)} files: upload one file (token, reference, prediction) or two annotators' files")
    if len(paths) == 2:
        first, second = (read_column_file(path) for path in paths)
        check_same_tokens(first, second)
        return first.tokens, first.column(-1), second.column(-1)
    if paths:
        columns = read_column_file(paths[0])
    else:
        if not (text or "").strip():
            raise ValueError("nothing to score: paste CoNLL columns or upload a file")
        columns = read_column_file(_Named(text.splitlines(), "pasted text"))
    if columns.width < 3:
        raise ValueError(f"{columns.name}: {columns.width} columns: give token, reference and prediction columns "
                         "(or upload two annotators' files)")
    return columns.tokens, columns.column(1), columns.column(-1)


class _Named(list):
    """Lines of pasted text with the name errors give them."""

    def __init__(self, lines, name: str):
        super().__init__(lines)
        self.name = name


def compute(name: str, references, predictions, *, level: str = "token", model: str = "non_overlapping") -> dict:
    """The metric's result, flat (numbers only), as the module's "flat" configuration gives it."""
    if name == "chance_f1":
        return flatten(chance_f1(predictions, references, level=level, model=model, zero_division=0))
    if name == "coefficients":
        result = flatten(agreement_report(predictions, references))
        return {key: value for key, value in result.items() if not any(part in key for part in HIDDEN)}
    if name == "noise":
        return flatten(noise_report(predictions, references))
    raise ValueError(f"unknown metric {name!r}: use one of {sorted(TITLES)}")


COUNTS = ("number", "instances", "agreed", "n_items", "noisy_items", "tolerable_disagreements")


def _cell(key: str, value) -> str:
    if isinstance(value, float) and value.is_integer() and key.endswith(COUNTS):
        shown = str(int(value))
    else:
        shown = f"{value:.4f}" if isinstance(value, float) and math.isfinite(value) else str(value)
    return (f'<td class="number" data-key="{html.escape(key)}" data-value="{html.escape(repr(value))}">'
            f"{html.escape(shown)}</td>")


def scores_html(result: dict, sentences: int, notes=()) -> str:
    """The result as an HTML table: one row per score, every number with data-key and data-value;
    ``notes`` (the library's warnings) above it."""
    keys = sorted(result, key=lambda key: not key.startswith("overall_"))  # the overall scores first
    rows = "".join(f"<tr><th>{html.escape(key)}</th>{_cell(key, result[key])}</tr>" for key in keys)
    shown = "".join(f'<p class="note" data-key="warning">{html.escape(note)}</p>' for note in notes)
    return (f'<p data-key="sentences" data-value="{sentences}">{sentences} sentences scored</p>{shown}'
            f'<table class="scores"><thead><tr><th>score</th><th>value</th></tr></thead><tbody>{rows}</tbody></table>')


def error_html(message: str) -> str:
    return f'<p class="error" data-key="error">{html.escape(message)}</p>'


def score(name: str, text: str = "", files=(), level: str = "token", model: str = "non_overlapping") -> str:
    """What "Score" shows: the table with the library's warnings as notes, or the one-line error for
    bad input (never a traceback)."""
    try:
        _, references, predictions = read_annotations(text, files)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = compute(name, references, predictions, level=level, model=model)
    except (ValueError, OSError) as error:
        return error_html(str(error))
    notes = list(dict.fromkeys(str(warning.message) for warning in caught))
    return scores_html(result, len(references), notes)


def score_result(name: str, text: str, *, level: str = "token", model: str = "non_overlapping") -> dict:
    r"""What the ``/score`` endpoint returns: ``{"metric", "sentences", "scores", "notes"}``.

    ``scores`` is the metric's flat result (the numbers the page's table shows, the same floats);
    ``notes`` the library's warnings. Bad input raises ValueError with the page's one-line message.

    Examples
    --------
    >>> out = score_result("chance_f1", "Paris B-LOC B-LOC\nis O O\n\nBob B-PER O\n")
    >>> out["sentences"], out["scores"]["overall_f1"]
    (2, 0.6666666666666666)
    """
    _, references, predictions = read_annotations(text, ())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = compute(name, references, predictions, level=level, model=model)
    notes = list(dict.fromkeys(str(warning.message) for warning in caught))
    return {"metric": name, "sentences": len(references), "scores": result, "notes": notes}


_ENDPOINT_DOC = """Score annotations pasted as CoNLL columns with the {name} metric ({title}).

    Give one token per line with its columns separated by spaces or tabs: the token, the reference
    tag, then the predicted tag (BIO tags such as B-PER, I-PER, O), and a blank line between
    sentences.{options} Returns a JSON object: "metric", "sentences" (how many were scored),
    "scores" (the metric's result as flat numbers, e.g. overall_corrected_f1 for chance_f1) and
    "notes" (the library's warnings about the input).

    Args:
        text: the CoNLL columns (token, reference, prediction), one sentence per block.{arguments}

    Returns:
        dict: {{"metric": str, "sentences": int, "scores": {{name: number}}, "notes": [str]}}.
    """


def api_function(name: str, error: Callable[[str], Exception] = ValueError) -> Callable[..., dict]:
    """The typed, documented function a Space serves as its ``/score`` endpoint (and MCP tool).

    ``error``: the exception bad input is raised as (``gradio.Error`` in a Space, so a client gets
    the message). The text alone is a valid call; ``chance_f1``'s takes ``level`` and ``model`` too.
    """
    if name not in TITLES:
        raise ValueError(f"unknown metric {name!r}: use one of {sorted(TITLES)}")

    def checked(text: str, **options) -> dict:
        try:
            return score_result(name, text, **options)
        except (ValueError, OSError) as problem:
            raise error(str(problem)) from None

    if name == "chance_f1":
        def score_chance_f1(text: str, level: str = "token", model: str = "non_overlapping") -> dict:
            return checked(text, level=level, model=model)

        function: Callable[..., dict] = score_chance_f1
        options = (" The level is 'token' (overlap of covered tokens) or 'entity' (exact span matches); the "
                   "random annotation model is 'non_overlapping' or 'overlapping'.")
        arguments = ("\n        level: 'token' or 'entity' (default 'token')."
                     "\n        model: the random annotation model, 'non_overlapping' (default) or 'overlapping'.")
    else:
        def score_metric(text: str) -> dict:
            return checked(text)

        function, options, arguments = score_metric, "", ""
    function.__name__ = function.__qualname__ = f"score_{name}"
    function.__doc__ = _ENDPOINT_DOC.format(name=name, title=TITLES[name], options=options, arguments=arguments)
    return function


def build_demo(gr, name: str):
    """The Space's ``gradio.Blocks`` for metric ``name`` (``gr``: the gradio module)."""
    if name not in TITLES:
        raise ValueError(f"unknown metric {name!r}: use one of {sorted(TITLES)}")
    with gr.Blocks(title=f"{name}: {TITLES[name]}") as demo:
        gr.Markdown(f"# {name}\n{TITLES[name]} (chance-agreement). Paste CoNLL columns (token, reference, "
                    "prediction; one sentence per block) or upload one such file, or two annotators' files "
                    "(token and tag each, the first the reference), then press Score.")
        text = gr.Textbox(value=_sample(), lines=14, label="CoNLL columns: token, reference, prediction",
                          elem_id="conll-text")
        files = gr.File(file_count="multiple", label="or upload one file, or two annotators' files", elem_id="upload")
        inputs = [text, files]
        if name == "chance_f1":
            with gr.Row():
                inputs.append(gr.Radio(list(LEVELS), value="token", label="level", elem_id="level"))
                inputs.append(gr.Radio(list(model_names()), value="non_overlapping", label="random annotation model",
                                       elem_id="model"))
        button = gr.Button("Score", variant="primary", elem_id="score")
        output = gr.HTML(elem_id="scores")
        button.click(lambda *values: score(name, *values), inputs=inputs, outputs=output, api_visibility="private")
        # for programs and LLM agents: the text in, the result as JSON out (also an MCP tool)
        gr.api(api_function(name, gr.Error), api_name="score")
    return demo


def launch(gr, demo) -> None:
    """Serve ``demo``: host and port from Gradio's environment variables (a Space sets them), system
    fonts, no analytics."""
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    demo.launch(theme=gr.themes.Base(font=list(FONTS), font_mono=["monospace"]), mcp_server=True)


__all__ = ["TITLES", "api_function", "build_demo", "compute", "launch", "read_annotations", "score", "score_result",
           "scores_html"]
