"""The Hub Space of each metric module: paste or upload annotations, see the scores.

Each module folder's ``app.py`` (what a Gradio Space runs) is two lines around ``build_demo(gradio,
name)``: the page has a text box for CoNLL columns (``token reference prediction``, or
``token annotator-1 annotator-2``), an upload for one such file or for two annotators' files
(``token tag`` each, the first the reference), and for ``chance_f1`` the level and the random
annotation model; "Score" shows the result as a person reads it first (``summary_html``: the
headline score read in words on the Landis and Koch scale, a table per entity type or coefficient,
what each noise number means), then every number of the metric's result in a table that opens on
a click. The page loads
nothing from outside (system fonts, no analytics). The work is done here without Gradio, so the
tests run it directly: ``read_annotations`` -> ``compute`` -> ``scores_html``; ``score`` chains them
and turns bad input into one line naming the file and line.

The Space takes at most ``MAX_INPUT`` (2,000,000) characters of pasted text and as many bytes per
uploaded file, about 100,000 tokens of CoNLL columns (the server holds about 0.5 GB per million
tokens): larger input is refused before it is read, with a line saying to score it with the
installed package (``chance-agreement f1``) instead.

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

from ..chance.chance_corrected import defined_scores, undefined_reason
from ..chance.corrected_f1 import chance_f1
from ..chance.random_models import model_names
from ..chance.statistics import LEVELS
from ..noise.key_meanings import NOISE_MEANINGS
from ..noise.noise_model import noise_report
from ..reliability.agreement_coefficients import agreement_report
from ..reliability.benchmark_scales import READING_SCALE, SCALE_TITLES, reading
from ..reliability.table_coefficients import titles
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
MAX_INPUT = 2_000_000  # characters of pasted text, bytes of each uploaded file (module docstring)


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
    for path in paths:
        _check_size(path.name, path.stat().st_size, "bytes")
    if not paths:
        _check_size("pasted text", len(text or ""), "characters")
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


def _check_size(name: str, size: int, unit: str) -> None:
    if size > MAX_INPUT:
        raise ValueError(f"{name}: {size:,} {unit} is more than this Space takes ({MAX_INPUT:,}, about 100,000 "
                         "tokens); score it on your machine with the installed package: chance-agreement f1 FILE "
                         "(or the library's chance_f1)")


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


def _shown(value) -> str:
    """A number as the summary shows it: 4 decimals, counts whole, None "undefined"."""
    if value is None:
        return "undefined"
    return f"{value:.4f}" if isinstance(value, float) else str(value)


def _words(what: str, value, reason=None) -> str:
    """One sentence: ``what`` is ``value``, read in words (``benchmark_scales.reading``), or why it
    is undefined."""
    if value is None:
        return f"{what} is undefined: {reason or 'no value'}."
    return f"{what} is {value:.4f}: {reading(value)}."


def _table(header, rows) -> str:
    head = "".join(f"<th>{html.escape(str(cell))}</th>" for cell in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(cell))}</td>" for cell in row) + "</tr>" for row in rows)
    return f'<table class="summary"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _f1_summary(scores: dict) -> tuple[str, list]:
    """The headline sentence and per-type rows of a ``chance_f1`` result whose undefined scores are
    None (``defined_scores``)."""
    overall = {key: scores[f"overall_{key}"] for key in ("observed_f1", "chance_f1", "corrected_f1")}
    text = (_words("Chance-corrected F1", overall["corrected_f1"], undefined_reason(overall))
            + f" Observed F1 {_shown(overall['observed_f1'])}, chance F1 {_shown(overall['chance_f1'])} (what two "
            "annotators placing the same spans at random would reach). 1 is perfect agreement, 0 is chance level.")
    rows = [[name, values["number"], *(_shown(values[key]) for key in ("observed_f1", "chance_f1", "corrected_f1")),
             reading(values["corrected_f1"]) or f"undefined: {undefined_reason(values)}"]
            for name, values in scores.items() if isinstance(values, dict)]
    return text, rows


def summary_html(name: str, references, predictions, *, level: str = "token", model: str = "non_overlapping") -> str:
    """What a person reads first: the metric's headline number in words on a named verbal scale
    (Landis and Koch 1977, made for kappa), a table per entity type or coefficient, or (noise) each
    number with its meaning in one sentence. Undefined scores say so, with their reason.

    Parameters
    ----------
    name : str
        A metric of ``TITLES``.
    references, predictions : list of list of str
        The two annotations' tags per sentence (the reference first).
    level, model : str
        ``chance_f1``'s options.

    Returns
    -------
    str
        HTML.

    Examples
    --------
    >>> tags = [["B-PER", "I-PER", "O", "B-LOC"]]
    >>> "almost perfect agreement" in summary_html("chance_f1", tags, tags)
    True
    """
    scale = f'<p class="muted">Words: the {SCALE_TITLES[READING_SCALE]} scale, made for kappa.</p>'
    if name == "chance_f1":
        text, rows = _f1_summary(defined_scores(lambda fill: chance_f1(predictions, references, level=level,
                                                                        model=model, zero_division=fill)))
        table = _table(["type", "support", "observed F1", "chance F1", "corrected F1", "in words"], rows)
    elif name == "coefficients":
        result = agreement_report(predictions, references)
        text = _words("Cohen's kappa on all tokens", result["all"].get("cohen_kappa"))
        table = _table(["coefficient (all tokens)", "value", "in words"],
                       [[title, _shown(result["all"].get(key)), reading(result["all"].get(key)) or "undefined"]
                        for key, title in titles().items() if key in result["all"]])
    elif name == "noise":
        result = noise_report(predictions, references)
        text = (f"With {result['confidence_level']:.0%} confidence, at most {_shown(result['noise_bound'])} of the "
                f"{result['agreed']} agreed tokens ({result['noisy_items']} tokens) are hard cases agreed on by luck.")
        table = _table(["number", "value", "what it means"],
                       [[key, _shown(result[key]), meaning]
                        for key, meaning in NOISE_MEANINGS.items() if key in result])
        scale = ""
    else:
        raise ValueError(f"unknown metric {name!r}: use one of {sorted(TITLES)}")
    return f'<p class="reading" data-reading="headline">{html.escape(text)}</p>{table}{scale}'


def scores_html(result: dict, sentences: int, notes=(), summary: str = "") -> str:
    """The result as HTML: ``summary`` (``summary_html``) first, then every number in a table that
    opens on a click (one row per score, with data-key and data-value); ``notes`` (the library's
    warnings) above them."""
    keys = sorted(result, key=lambda key: not key.startswith("overall_"))  # the overall scores first
    rows = "".join(f"<tr><th>{html.escape(key)}</th>{_cell(key, result[key])}</tr>" for key in keys)
    shown = "".join(f'<p class="note" data-key="warning">{html.escape(note)}</p>' for note in notes)
    return (f'<p data-key="sentences" data-value="{sentences}">{sentences} sentences scored</p>{shown}{summary}'
            f'<details><summary>Every number of the result ({len(keys)})</summary>'
            f'<table class="scores"><thead><tr><th>score</th><th>value</th></tr></thead><tbody>{rows}</tbody></table>'
            f'</details>')


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
            summary = summary_html(name, references, predictions, level=level, model=model)
    except (ValueError, OSError) as error:
        return error_html(str(error))
    notes = list(dict.fromkeys(str(warning.message) for warning in caught))
    return scores_html(result, len(references), notes, summary)


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
           "scores_html", "summary_html"]
