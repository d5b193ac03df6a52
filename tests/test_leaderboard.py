"""``chance-agreement leaderboard`` and the figures, on the shared CoNLL-2003 system outputs."""

from __future__ import annotations

import csv
import fcntl
import io
import json
import math
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from chance_agreement.chance.corrected_f1 import chance_f1
from chance_agreement.reports.cli import main
from chance_agreement.reports.leaderboard import (
    build_leaderboard,
    competition_ranks,
    load_systems,
    parse_system_spec,
    render,
    sentence_chance,
)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

# System file -> its column in derived/conll03_test_gold_plus_3_systems.tsv (derived/COLUMNS.txt).
SYSTEM_FILES = {
    "spanner_combination/conll03_CnonWrand_lstmCrf_03689925_test_7849.txt": 2,
    "explainaboard/conll2003_CflairWglove_lstmCrf_9303.tsv": 3,
    "explainaboard/test-conll03_CbertWnon_snonMlp_9109.tsv": 4,
}
NAMES = ["lstmCrf_7849", "flair_9303", "bert_9109"]

# Two sentences where chance reorders systems: A copies the long ORG of the short sentence
# (high chance), B finds the short PER of the long sentence (low chance).
GOLD = [["B-ORG", "I-ORG", "I-ORG", "I-ORG", "O"], ["O"] * 8 + ["B-PER", "I-PER"] + ["O"] * 10]
SMALL_SYSTEMS = {
    "A": [GOLD[0], ["O"] * 20],
    "B": [["O"] * 5, GOLD[1]],
    "C": [["B-ORG", "I-ORG", "I-ORG", "O", "O"], ["O"] * 8 + ["B-PER", "O"] + ["O"] * 10],
}


@pytest.fixture(scope="module")
def conll(shared_data):
    return shared_data / "conll03_systems"


@pytest.fixture(scope="module")
def system_paths(conll):
    return [str(conll / relative) for relative in SYSTEM_FILES]


@pytest.fixture(scope="module")
def gold_path(conll):
    return str(conll / "gold" / "eng.testb.conll03_test_original.txt")


@pytest.fixture(scope="module")
def derived(conll):
    return str(conll / "derived" / "conll03_test_gold_plus_3_systems.tsv")


@pytest.fixture(scope="module")
def loaded(gold_path, system_paths):
    return load_systems(gold_path, system_paths, gold_column=3, names=NAMES)


@pytest.fixture(scope="module")
def board(loaded):
    references, systems = loaded
    return build_leaderboard(references, systems, split=0.825, progress=False)


def test_system_files_align_with_the_gold_and_the_derived_columns(loaded, derived, conll_systems):
    references, systems = loaded
    derived_refs, derived_systems = conll_systems
    assert len(references) == 3453 and sum(map(len, references)) == 46435  # -DOCSTART- lines skipped
    assert references == derived_refs
    assert list(systems) == NAMES
    for name, column in zip(NAMES, SYSTEM_FILES.values()):
        assert systems[name] == list(derived_systems.values())[column - 2]
    refs_by_column, by_column = load_systems(derived, [f"{derived}:{c}" for c in (2, 3, 4)])
    assert refs_by_column == references
    assert list(by_column) == [f"{Path(derived).stem}:{c}" for c in (2, 3, 4)]
    assert list(by_column.values()) == list(systems.values())


def test_scores_and_rankings_on_conll03(board, loaded):
    references, systems = loaded
    rows = {row["system"]: row for row in board["systems"]}
    for name, predictions in systems.items():
        expected = chance_f1(predictions, references, zero_division=0)
        assert rows[name]["observed_f1"] == expected["overall_observed_f1"]
        assert rows[name]["chance_f1"] == pytest.approx(expected["overall_chance_f1"], abs=1e-12)
        assert rows[name]["corrected_f1"] == pytest.approx(expected["overall_corrected_f1"], abs=1e-12)
    assert [row["system"] for row in board["systems"]] == ["flair_9303", "bert_9109", "lstmCrf_7849"]
    assert [row["observed_rank"] for row in board["systems"]] == [1, 2, 3]
    assert [row["corrected_rank"] for row in board["systems"]] == [1, 2, 3]
    assert all(row["rank_change"] == 0 for row in board["systems"])
    assert all(row["corrected_f1"] < row["observed_f1"] for row in board["systems"])


def test_entity_level_observed_is_the_span_f1_in_the_file_names(loaded):
    references, systems = loaded
    board = build_leaderboard(references, systems, level="entity", progress=False)
    observed = {row["system"]: round(row["observed_f1"], 4) for row in board["systems"]}
    assert observed == {"lstmCrf_7849": 0.7849, "flair_9303": 0.9303, "bert_9109": 0.9109}


def test_rank_changes_when_chance_differs():
    board = build_leaderboard(GOLD, SMALL_SYSTEMS, progress=False)
    rows = {row["system"]: row for row in board["systems"]}
    # A: overlap 4 of a1 + a2 = 8 + 2; chance: a 4-token segment in 5 tokens covers [.5, 1, 1, 1, .5]
    assert rows["A"]["observed_f1"] == pytest.approx(0.8)
    assert rows["A"]["chance_f1"] == pytest.approx(2 * 3.5 / 10)
    # B: overlap 2 of 4 + 4; a 2-token segment in 20 tokens covers 1/19, 2/19 (x18), 1/19
    assert rows["B"]["observed_f1"] == pytest.approx(0.5)
    assert rows["B"]["chance_f1"] == pytest.approx(2 * (74 / 361) / 8)
    assert (rows["A"]["observed_rank"], rows["A"]["corrected_rank"], rows["A"]["rank_change"]) == (1, 3, -2)
    assert (rows["B"]["observed_rank"], rows["B"]["corrected_rank"], rows["B"]["rank_change"]) == (3, 2, 1)
    assert (rows["C"]["observed_rank"], rows["C"]["corrected_rank"]) == (1, 1)  # tied with A before
    assert [row["system"] for row in board["systems"]] == ["C", "B", "A"]
    assert competition_ranks([0.5, 0.9, 0.5, None, 0.1]) == [2, 1, 2, None, 4]


@pytest.mark.parametrize("split_by", ["gold", "system"])
def test_split_subsets_partition_the_sentences(loaded, board, split_by):
    references, systems = loaded
    if split_by == "gold":
        chosen = board
        gold_chances = sentence_chance(references, references)
    else:
        chosen = build_leaderboard(references, systems, split=0.825, split_by="system", progress=False)
    for row in chosen["systems"]:
        high, low = row["subset1_indices"], row["subset2_indices"]
        assert sorted(high + low) == list(range(len(references)))
        assert row["subset1_sentences"] + row["subset2_sentences"] == 3453
        assert 0 < len(high) < 3453
        chances = gold_chances if split_by == "gold" else sentence_chance(systems[row["system"]], references)
        assert all(chances[i] is not None and chances[i] > 0.825 for i in high)
        assert all(chances[i] is None or chances[i] <= 0.825 for i in low)
        for subset, indices in (("subset1", high), ("subset2", low)):
            direct = chance_f1([systems[row["system"]][i] for i in indices], [references[i] for i in indices],
                               zero_division=0)
            assert row[f"{subset}_observed_f1"] == pytest.approx(direct["overall_observed_f1"], abs=1e-12)
            assert row[f"{subset}_corrected_f1"] == pytest.approx(direct["overall_corrected_f1"], abs=1e-12)
    if split_by == "gold":  # the same sentences for every system
        assert len({tuple(row["subset1_indices"]) for row in chosen["systems"]}) == 1


def _markdown_rows(text: str) -> list[list[str]]:
    lines = [line for line in text.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines]


def test_each_format_parses_back(board):
    systems = board["systems"]
    table = _markdown_rows(render(board, "markdown"))
    header, body = table[0], table[2:]
    assert header[:7] == ["system", "Obs F1", "Obs rank", "Chance F1", "Cor F1", "Cor rank", "change"]
    assert len(header) == 7 + 2 * 6
    assert [row[0] for row in body] == [row["system"] for row in systems]
    for cells, row in zip(body, systems):
        assert float(cells[1]) == round(row["observed_f1"], 4)
        assert float(cells[4]) == round(row["corrected_f1"], 4)
        assert int(cells[5]) == row["corrected_rank"] and int(cells[6]) == row["rank_change"]
        assert int(cells[7]) == row["subset1_sentences"]

    parsed_csv = list(csv.DictReader(io.StringIO(render(board, "csv"))))
    assert [r["system"] for r in parsed_csv] == [row["system"] for row in systems]
    for parsed, row in zip(parsed_csv, systems):
        assert float(parsed["corrected_f1"]) == row["corrected_f1"]
        assert int(parsed["subset2_corrected_rank"]) == row["subset2_corrected_rank"]
        assert "subset1_indices" not in parsed

    parsed_json = json.loads(render(board, "json"))
    assert parsed_json["split"] == 0.825 and parsed_json["split_by"] == "gold" and parsed_json["level"] == "token"
    for parsed, row in zip(parsed_json["systems"], systems):
        assert parsed == {key: value for key, value in row.items() if not key.endswith("_indices")}
    with pytest.raises(ValueError, match="format"):
        render(board, "html")


def test_markdown_shows_rank_changes():
    text = render(build_leaderboard(GOLD, SMALL_SYSTEMS, progress=False), "markdown")
    rows = {cells[0]: cells for cells in _markdown_rows(text)[2:]}
    assert rows["A"][6] == "-2" and rows["B"][6] == "+1" and rows["C"][6] == "0"


def _check_png(path: Path, min_width: int, min_height: int) -> None:
    from matplotlib.image import imread

    assert path.read_bytes()[:8] == PNG_MAGIC
    image = imread(path)
    assert image.shape[0] >= min_height and image.shape[1] >= min_width
    assert image[..., :3].std() > 0.05  # not a blank canvas


def test_cli_writes_table_and_plot(gold_path, system_paths, tmp_path, capsys):
    output, plot = tmp_path / "board.json", tmp_path / "board.png"
    code = main(["leaderboard", gold_path, *system_paths, "--gold-column", "3", "--names", ",".join(NAMES),
                 "--split", "0.825", "--format", "json", "--output", str(output), "--plot", str(plot)])
    assert code == 0
    assert capsys.readouterr().out == ""
    parsed = json.loads(output.read_text())
    assert [row["system"] for row in parsed["systems"]] == ["flair_9303", "bert_9109", "lstmCrf_7849"]
    _check_png(plot, 500, 500)


def test_start_distributions_api_and_figure1_cli(tmp_path, capsys):
    from chance_agreement.reports.plots import plot_start_distributions

    ax = plot_start_distributions(100, [1, 5, 10, 15])
    lines = ax.get_lines()
    assert [len(line.get_ydata()) for line in lines] == [100, 96, 91, 86]
    for line in lines:
        assert math.isclose(sum(line.get_ydata()), 1.0, abs_tol=1e-12)
        assert min(line.get_ydata()) > 0
    assert [t.get_text() for t in ax.get_legend().get_texts()][0].startswith("length 1")
    assert ax.get_xlabel() and ax.get_ylabel()

    figure = tmp_path / "figure1.png"
    assert main(["figure1", "--output", str(figure)]) == 0
    assert capsys.readouterr().out.strip() == str(figure)
    _check_png(figure, 800, 400)


def test_leaderboard_plot_checks_matplotlib_before_computing(tmp_path, monkeypatch, capsys):
    """Issue 35 item 11: --plot without matplotlib is refused before the board is computed or
    written (it used to print the whole table, then fail)."""
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # what an install without the extra sees
    table = tmp_path / "board.md"
    assert main(["leaderboard", str(EXAMPLES / "gold.conll"), str(EXAMPLES / "sysA.conll"), "--plot",
                 str(tmp_path / "board.png"), "-o", str(table)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == "chance-agreement: error: plotting needs matplotlib: pip install matplotlib\n"
    assert not table.exists() and not (tmp_path / "board.png").exists()


def test_missing_matplotlib_is_a_clear_cli_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # what an install without the extra sees
    assert main(["figure1", "--output", str(tmp_path / "f.png")]) == 1
    assert "chance-agreement: error: plotting needs matplotlib" in capsys.readouterr().err
    assert not (tmp_path / "f.png").exists()


def _write(path: Path, sentences) -> str:
    path.write_text("\n\n".join("\n".join(" ".join(row) for row in sentence) for sentence in sentences) + "\n")
    return str(path)


def test_misaligned_system_is_a_value_error_naming_files_and_lines(tmp_path, capsys):
    gold = _write(tmp_path / "gold.txt", [[("EU", "B-ORG"), ("rejects", "O")], [("Peter", "B-PER"), ("Blackburn", "I-PER")]])
    shifted = _write(tmp_path / "shifted.txt", [[("EU", "B-ORG", "B-ORG"), ("rejects", "O", "O")],
                                                [("Peter", "B-PER", "B-PER"), ("Blackbum", "I-PER", "I-PER")]])
    short = _write(tmp_path / "short.txt", [[("EU", "B-ORG", "B-ORG"), ("rejects", "O", "O")]])
    with pytest.raises(ValueError, match=r"gold\.txt line 5 has 'Blackburn', .*shifted\.txt line 5 has 'Blackbum'"):
        load_systems(gold, [shifted])
    with pytest.raises(ValueError, match=r"gold\.txt line 4 has 'Peter', .*short\.txt has only 1 sentences"):
        load_systems(gold, [short])
    assert main(["leaderboard", gold, shifted]) == 1
    assert "chance-agreement: error: " in capsys.readouterr().err
    assert main(["leaderboard", gold, str(tmp_path / "missing.txt")]) == 1
    assert "missing.txt: no such file" in capsys.readouterr().err
    with pytest.raises(ValueError, match="split"):
        build_leaderboard(GOLD, SMALL_SYSTEMS, split=1.5)
    assert parse_system_spec("runs/out.txt:3") == ("runs/out.txt", 3)
    assert parse_system_spec("runs/out.txt") == ("runs/out.txt", None)


def _leaderboard_command(gold: str, system: str) -> list[str]:
    code = "import sys; from chance_agreement.reports.cli import main; sys.exit(main(sys.argv[1:]))"
    return [sys.executable, "-c", code, "leaderboard", gold, system, system + ":2", "--names", "a,b"]


def run_on_terminal(command: list[str]) -> tuple[int, bytes, bytes]:
    """``(exit status, standard output, what the terminal on standard error saw)``: the command's
    standard error is a 100-column pseudo-terminal, its standard output a pipe."""
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a 100-column terminal
    try:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=terminal, timeout=120)
        os.close(terminal)
        terminal = None
        seen = b""
        while True:
            try:
                chunk = os.read(controller, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    finally:
        if terminal is not None:
            os.close(terminal)
        os.close(controller)
    return done.returncode, done.stdout, seen


def test_progress_bar_only_on_a_terminal(tmp_path):
    gold = _write(tmp_path / "gold.txt", [[("EU", "B-ORG"), ("rejects", "O")]])
    system = _write(tmp_path / "system.txt", [[("EU", "B-ORG", "B-ORG"), ("rejects", "O", "O")]])
    piped = subprocess.run(_leaderboard_command(gold, system), capture_output=True, text=True, timeout=120)
    assert piped.returncode == 0 and piped.stderr == ""
    assert "| a |" in piped.stdout
    code, out, seen = run_on_terminal(_leaderboard_command(gold, system))
    assert code == 0
    assert b"scoring systems" in seen and b"2/2" in seen
    assert b"scoring" not in out  # never in the numbers' stream
    code, out, seen = run_on_terminal(_leaderboard_command(gold, system) + ["--quiet"])
    assert code == 0 and seen == b"" and b"| a |" in out


def test_intervals_tests_and_chance_difference_between_neighbours(loaded):
    """Issue 12: each system's interval, a test against the next one down, the chance difference."""
    from chance_agreement.noise.noise_model import chance_difference

    references, systems = loaded
    board = build_leaderboard(references, systems, progress=False, confidence_level=0.95, n_resamples=500,
                              random_state=0, gold_noise=0.01)
    rows = board["systems"]
    tokens = sum(len(sentence) for sentence in references)
    accuracy = {row["system"]: chance_f1(systems[row["system"]], references, zero_division=0)["overall_accuracy"]
                for row in rows}
    for upper, lower in zip(rows, rows[1:] + [None]):
        assert upper["corrected_f1_ci_low"] < upper["corrected_f1"] < upper["corrected_f1_ci_high"]
        assert upper["chance_difference"] == chance_difference(tokens, 0.01 * tokens).answers
        if lower is None:
            assert upper["p_next"] is None and upper["correct_difference"] is None
            continue
        assert upper["differs_from_next"] == (upper["p_next"] < 0.05)
        gap = round((accuracy[upper["system"]] - accuracy[lower["system"]]) * tokens)
        assert upper["correct_difference"] == gap
        assert upper["beyond_chance_difference"] == (gap > upper["chance_difference"])
    assert [row["differs_from_next"] for row in rows] == [True, True, None]
    text = render(board, "markdown")
    assert "| Cor 95% low | Cor 95% high | p vs next | differs from next |" in text
    assert json.loads(render(board, "json"))["systems"][0]["p_next"] == rows[0]["p_next"]
    assert "_statistics" not in rows[0]
    with pytest.raises(ValueError, match="gold_noise"):
        build_leaderboard(references, systems, progress=False, gold_noise=1.5)


def _results_by_name(card) -> dict:
    return {result.metric_name: result for result in card.data.eval_results}


@pytest.mark.parametrize("level", ["token", "entity"])
def test_model_cards_hold_every_score_as_push_to_hub_writes_it(gold_path, system_paths, tmp_path, level):
    """Gap 6: per system a model card whose model-index lists observed, chance and corrected F1,
    written by the command and the API, read back with huggingface_hub (offline, from disk)."""
    from huggingface_hub import ModelCard

    from chance_agreement.ecosystem.model_cards import METRIC_TYPE, SCORES, metric_name
    from chance_agreement.reports.leaderboard import model_cards

    folder = tmp_path / "cards"
    assert main(["leaderboard", gold_path, *system_paths, "--gold-column", "3", "--names", ",".join(NAMES),
                 "--level", level, "--model-cards", str(folder), "--dataset", "conll2003", "--dataset-name", "CoNLL-2003",
                 "--format", "json",
                 "--output", str(tmp_path / "board.json")]) == 0
    board = json.loads((tmp_path / "board.json").read_text())
    assert sorted(p.name for p in folder.iterdir()) == sorted(NAMES)
    api_cards = model_cards(board)
    for row in board["systems"]:
        card = ModelCard.load(folder / row["system"] / "README.md")
        assert card.data.model_name == row["system"]
        assert str(api_cards[row["system"]]) == (folder / row["system"] / "README.md").read_text()
        results = _results_by_name(card)
        assert len(results) == len(SCORES)
        for score in SCORES:
            result = results[metric_name(score, level)]
            assert result.metric_value == row[score]
            assert (result.task_type, result.dataset_type, result.dataset_name, result.dataset_split) == (
                "token-classification", "conll2003", "CoNLL-2003", "test")
            assert result.metric_type == METRIC_TYPE and result.metric_config == "default"
            assert result.metric_args == {"level": level, "model": "non_overlapping"}


def test_model_card_options_and_the_yaml_is_huggingface_hubs(tmp_path):
    import yaml
    from huggingface_hub import ModelCard

    from chance_agreement import model_card

    card = model_card("my-ner", {"observed_f1": 0.9, "chance_f1": 0.25, "corrected_f1": 0.8667},
                      {"level": "entity", "model": "overlapping", "mode": "strict", "scheme": "IOB2"},
                      dataset_type="wnut_17", dataset_name="WNUT 17", dataset_split="validation")
    meta = yaml.safe_load(str(card).split("---\n")[1])
    (entry,) = meta["model-index"]
    assert entry["name"] == "my-ner"
    (result,) = entry["results"]
    assert result["task"]["type"] == "token-classification"
    assert result["dataset"] == {"name": "WNUT 17", "type": "wnut_17", "split": "validation"}
    assert [m["value"] for m in result["metrics"]] == [0.9, 0.25, 0.8667]
    assert all(m["args"] == {"level": "entity", "model": "overlapping", "mode": "strict", "scheme": "IOB2"}
               for m in result["metrics"])
    parsed = ModelCard(str(card))
    assert [r.metric_value for r in parsed.data.eval_results] == [0.9, 0.25, 0.8667]
    with pytest.raises(ValueError, match="no value for"):
        model_card("x", {"observed_f1": 0.9, "corrected_f1": 0.8}, {"level": "token"})
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    assert main(["leaderboard", _write(tmp_path / "g.txt", [[("EU", "B-ORG")]]),
                 _write(tmp_path / "s.txt", [[("EU", "B-ORG", "B-ORG")]]), "--model-cards", str(not_a_folder),
                 "--dataset", "conll2003"]) == 1


def test_gold_column_as_its_own_system_is_an_error(tmp_path, capsys):
    """Like ``f1`` on a two-column file (issue 10 item 2): never score the gold against itself."""
    gold = _write(tmp_path / "gold.txt", [[("EU", "B-ORG"), ("rejects", "O")]])
    with pytest.raises(ValueError, match=r"gold\.txt: the system column -1 is the gold column 1"):
        load_systems(gold, [gold])
    assert main(["leaderboard", gold, gold]) == 1
    assert "is the gold column" in capsys.readouterr().err


# --- issue 24: undefined scores, model-card folders, tables safe to open ------------------------

# Both annotators cover every token: chance F1 is 1 and corrected F1 (o - c) / (1 - c) is undefined.
FULL_GOLD = [["B-PER", "I-PER"], ["B-LOC"]]
WITH_UNDEFINED = {"same": FULL_GOLD, "half": [["B-PER", "O"], ["B-LOC"]]}


def test_an_undefined_corrected_f1_is_shown_as_undefined_and_not_ranked(tmp_path, capsys):
    """1e: it was printed as 0.0000 and ranked (tied with a real 0)."""
    board = build_leaderboard(FULL_GOLD, WITH_UNDEFINED, progress=False, split=0.5)
    rows = {row["system"]: row for row in board["systems"]}
    assert rows["same"]["chance_f1"] == 1.0 and rows["same"]["observed_f1"] == 1.0
    assert rows["same"]["corrected_f1"] is None
    assert rows["same"]["corrected_rank"] is None and rows["same"]["rank_change"] is None
    assert rows["half"]["corrected_rank"] == 1 and rows["half"]["corrected_f1"] is not None
    assert [row["system"] for row in board["systems"]] == ["half", "same"]  # unranked last
    assert any("chance F1 is 1" in note and "same" in note for note in board["notes"])
    table = _markdown_rows(render(board, "markdown"))
    same = next(cells for cells in table if cells[0] == "same")
    assert same[4] == "undefined" and same[5] == "-" and "0.0000" not in same[4:7]
    text = render(board, "markdown")
    assert "note: same: corrected F1 is undefined" in text and "not ranked" in text
    parsed = json.loads(render(board, "json"))
    assert next(r for r in parsed["systems"] if r["system"] == "same")["corrected_f1"] is None
    assert parsed["notes"] == board["notes"]
    parsed_csv = {r["system"]: r for r in csv.DictReader(io.StringIO(render(board, "csv")))}
    assert parsed_csv["same"]["corrected_f1"] == "" and parsed_csv["same"]["corrected_rank"] == ""
    # with intervals, a test against the next system, model cards and a plot it still runs
    gold = _write(tmp_path / "gold.txt", [[("Ada", "B-PER"), ("Byron", "I-PER")], [("Rome", "B-LOC")]])
    same = _write(tmp_path / "same.txt", [[("Ada", "B-PER", "B-PER"), ("Byron", "I-PER", "I-PER")],
                                          [("Rome", "B-LOC", "B-LOC")]])
    half = _write(tmp_path / "half.txt", [[("Ada", "B-PER", "B-PER"), ("Byron", "I-PER", "O")],
                                          [("Rome", "B-LOC", "B-LOC")]])
    cards = tmp_path / "cards"
    assert main(["leaderboard", gold, same, half, "--confidence-level", "0.9", "--n-resamples", "20",
                 "--random-state", "1", "--model-cards", str(cards), "--dataset", "conll2003", "--format", "json",
                 "--plot", str(tmp_path / "board.png")]) == 0
    _check_png(tmp_path / "board.png", 300, 300)
    out = json.loads(capsys.readouterr().out)
    row = next(r for r in out["systems"] if r["system"] == "same")
    assert row["corrected_f1"] is None and row["corrected_f1_ci_low"] is None and row["p_next"] is None
    assert next(r for r in out["systems"] if r["system"] == "half")["p_next"] is None
    card = (cards / "same" / "README.md").read_text()
    assert "chance-corrected F1 (token level): undefined" in card
    assert card.count("value:") == 2  # observed and chance F1 only in model-index
    (results,) = (cards / "same" / ".eval_results").iterdir()
    assert "corrected_f1_token" not in results.read_text() and "chance_f1_token" in results.read_text()


def test_model_cards_refuse_names_that_land_in_one_folder(tmp_path):
    """2b: 'a/b' and 'a_b' (and '', '.', '..') were written to one folder, the last card winning."""
    from chance_agreement.ecosystem.model_cards import write_model_cards

    for systems in (["a/b", "a_b"], ["", "."], [".", ".."], ["Model", "model"]):
        folder = tmp_path / f"cards{len(list(tmp_path.iterdir()))}"
        with pytest.raises(ValueError, match="same folder") as caught:
            write_model_cards({name: f"card of {name!r}" for name in systems}, folder)
        assert all(repr(name) in str(caught.value) for name in systems)
        assert not folder.exists() or not any(folder.rglob("README.md"))  # nothing half written


def test_model_cards_never_overwrite_a_readme_without_force(tmp_path, capsys):
    """2b: an existing README.md was overwritten without a word."""
    from chance_agreement.ecosystem.model_cards import write_model_cards

    folder = tmp_path / "cards"
    (folder / "mine").mkdir(parents=True)
    (folder / "mine" / "README.md").write_text("my own card")
    with pytest.raises(ValueError, match=r"mine[/\\]README\.md exists.*--force"):
        write_model_cards({"other": "new card", "mine": "new card"}, folder)
    assert (folder / "mine" / "README.md").read_text() == "my own card"
    assert not (folder / "other").exists()
    assert write_model_cards({"mine": "new card"}, folder, force=True) == [folder / "mine" / "README.md"]
    assert (folder / "mine" / "README.md").read_text() == "new card"
    gold = _write(tmp_path / "gold.txt", [[("EU", "B-ORG"), ("rejects", "O")]])
    system = _write(tmp_path / "mine.txt", [[("EU", "B-ORG", "B-ORG"), ("rejects", "O", "O")]])
    assert main(["leaderboard", gold, system, "--model-cards", str(folder), "--dataset", "conll2003"]) == 1
    assert "--force" in capsys.readouterr().err
    assert (folder / "mine" / "README.md").read_text() == "new card"
    assert main(["leaderboard", gold, system, "--model-cards", str(folder), "--dataset", "conll2003", "--force"]) == 0
    assert "model-index" in (folder / "mine" / "README.md").read_text()


HOSTILE = ["a|b", "=HYPERLINK(\"http://x\")", "+1", "-2", "@SUM(A1)", "back\\slash|", "line\nbreak"]


def _unescaped_cells(line: str) -> list[str]:
    """Split a GFM table row on pipes not escaped by a backslash, then undo the escapes."""
    cells, current, index = [], "", 0
    body = line.strip()[1:-1]
    while index < len(body):
        if body[index] == "\\" and index + 1 < len(body):
            current += body[index + 1]
            index += 2
            continue
        if body[index] == "|":
            cells.append(current.strip())
            current = ""
        else:
            current += body[index]
        index += 1
    return cells + [current.strip()]


def test_markdown_and_csv_are_safe_with_hostile_names():
    """5: a '|' broke the Markdown table; '=', '+', '-', '@' went raw into CSV (formula injection)."""
    systems = {name: SMALL_SYSTEMS["A"] if index % 2 else SMALL_SYSTEMS["B"] for index, name in enumerate(HOSTILE)}
    board = build_leaderboard(GOLD, systems, progress=False)
    lines = [line for line in render(board, "markdown").splitlines() if line.startswith("|")]
    assert len(lines) == 2 + len(HOSTILE)
    width = len(_unescaped_cells(lines[0]))
    body = [_unescaped_cells(line) for line in lines[2:]]
    assert all(len(cells) == width for cells in body)
    assert sorted(cells[0] for cells in body) == sorted(name.replace("\n", "<br>") for name in HOSTILE)
    rows = list(csv.DictReader(io.StringIO(render(board, "csv"))))
    for row in rows:
        assert row["system"][0] not in "=+-@", row["system"]
        assert row["system"].removeprefix("'") in HOSTILE
    assert sorted(r["system"].removeprefix("'") for r in rows) == sorted(HOSTILE)
    for parsed, row in zip(rows, board["systems"]):  # numbers stay numbers, negative ones too
        assert float(parsed["corrected_f1"]) == row["corrected_f1"]
        assert parsed["rank_change"] == str(row["rank_change"])


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf"), "0.9", True])
def test_model_cards_refuse_nan_infinite_and_non_numbers(bad):
    """1g: a NaN score became ``value: .nan`` in model-index."""
    from chance_agreement import model_card

    with pytest.raises(ValueError, match=r"corrected_f1 .*not a finite number"):
        model_card("x", {"observed_f1": 0.9, "chance_f1": 0.2, "corrected_f1": bad}, {"level": "token"})


# --- issue 35 item 9: the gold column of a CoNLL-2003 file ------------------------------------------

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _board_json(capsys, *arguments) -> tuple[dict, str]:
    assert main(["leaderboard", *arguments, "--format", "json"]) == 0
    captured = capsys.readouterr()
    return json.loads(captured.out), captured.err


def test_the_gold_of_a_conll_2003_file_is_its_last_column_and_said(capsys):
    """``token POS chunk NER``: without --gold-column the NER column, not the POS tags, and a note says so."""
    runs = [str(EXAMPLES / "runs" / f"sys{name}.tsv") for name in "ABC"]
    gold = str(EXAMPLES / "eng.testb")
    default, err = _board_json(capsys, gold, *runs, "--level", "entity")
    chosen, chosen_err = _board_json(capsys, gold, *runs, "--level", "entity", "--gold-column", "3")
    assert default["systems"] == chosen["systems"]
    assert [row["observed_f1"] > 0.7 for row in default["systems"]] == [True] * 3
    assert f"note: gold: column 3 of {gold} (the last column; --gold-column N or {gold}:N reads another)" in err
    assert "NNP" not in err and "note" not in chosen_err  # no POS tag read as an entity tag; no default to explain


def test_a_gold_file_that_is_a_system_file_too_takes_the_column_no_system_reads(capsys):
    merged = str(EXAMPLES / "merged.tsv")  # token gold flair bert lstm
    default, err = _board_json(capsys, merged, f"{merged}:2", f"{merged}:3", f"{merged}:4")
    chosen, _ = _board_json(capsys, merged, f"{merged}:2", f"{merged}:3", f"{merged}:4", "--gold-column", "1")
    assert default["systems"] == chosen["systems"]
    assert f"gold: column 1 of {merged} (the one tag column no system reads;" in err
    assert main(["leaderboard", merged, f"{merged}:2", f"{merged}:3"]) == 2
    assert "which of its columns [1, 4] is the gold? give --gold-column N" in capsys.readouterr().err


def test_a_system_and_gold_without_entities_are_undefined_not_zero():
    """Issue 35 item 2: 0/0 was shown as observed 0.0000 and ranked."""
    board = build_leaderboard([["O", "O"]], {"quiet": [["O", "O"]], "loud": [["B-PER", "O"]]}, progress=False)
    rows = {row["system"]: row for row in board["systems"]}
    assert rows["quiet"]["observed_f1"] is None and rows["quiet"]["observed_rank"] is None
    assert rows["loud"]["observed_f1"] == 0.0 and rows["loud"]["corrected_f1"] == 0.0
    assert "quiet: corrected F1 is undefined: no entity on either side, so observed and chance F1 are 0/0; not " \
           "ranked" in board["notes"]
    quiet = next(cells for cells in _markdown_rows(render(board, "markdown")) if cells[0] == "quiet")
    assert quiet[1] == "undefined" and quiet[4] == "undefined"


def test_a_pairs_numbers_do_not_depend_on_who_else_is_on_the_board(conll_systems):
    """Issue 35 item 10: with random_state 0, flair against bert gave p = 0.006 with three systems,
    0.004 with two, 0.002 from compare_systems; bert's interval differed from chance_f1's."""
    from chance_agreement import compare_systems

    references, systems = conll_systems
    flair, bert = "CflairWglove_lstmCrf_9303", "CbertWnon_snonMlp_9109"
    options = dict(progress=False, confidence_level=0.95, n_resamples=1000, random_state=0)
    three = {row["system"]: row for row in build_leaderboard(references, systems, **options)["systems"]}
    two = {row["system"]: row for row in build_leaderboard(references, {k: systems[k] for k in (flair, bert)},
                                                           **options)["systems"]}
    pair = compare_systems(systems[flair], systems[bert], references, random_state=0)
    assert three[flair]["p_next"] == two[flair]["p_next"] == pair["corrected_f1_p_value"] == 2 / 1001
    alone = chance_f1(systems[bert], references, confidence_level=0.95, n_resamples=1000, random_state=0,
                      zero_division=0)["overall_corrected_f1_ci"]
    for board in (three, two):
        assert [board[bert]["corrected_f1_ci_low"], board[bert]["corrected_f1_ci_high"]] == list(alone)
        assert board[flair]["corrected_f1_ci_low"] == three[flair]["corrected_f1_ci_low"]
    assert [round(x, 4) for x in alone] == [0.8982, 0.9159]  # the README's interval
