"""Issue 35 item 3: reports a team lead can read. Every corrected score read in words on a named
scale, every interval labelled with its level, each noise row explained in one sentence, the Space
readable, and intervals for three or more annotators (a sentence bootstrap of the team statistics,
seeded, the same bits on every run)."""

from __future__ import annotations

import json
import re

from chance_agreement import by_item, chance_f1, team_chance_f1
from chance_agreement.ecosystem.space_app import score
from chance_agreement.noise.key_meanings import NOISE_MEANINGS
from chance_agreement.reports.cli import main
from chance_agreement.reports.team_report import NOISE_KEYS, load_annotations
from conftest import REPO

EXAMPLES = REPO / "examples"
LABEL_STUDIO = REPO / "tests" / "data" / "partial" / "label_studio.json"  # three annotators, partial coverage


def run(arguments, capsys) -> str:
    assert main(arguments) == 0
    return capsys.readouterr().out


def test_agreement_reads_the_corrected_f1_in_words_and_explains_every_noise_row(capsys):
    text = run(["agreement", str(EXAMPLES / "anna.conll"), str(EXAMPLES / "ben.conll")], capsys)
    assert ("reading: token level, overall: corrected F1 0.7731 is substantial agreement (0.6 to 0.8 on the "
            "Landis and Koch (1977) scale)") in text
    assert "words follow the Landis and Koch (1977) scale, made for kappa" in text
    assert "reading: Cohen's kappa on all tokens 0.8714 is almost perfect agreement" in text
    for key in ("p", "p_least_favourable", "noise_bound_least_favourable", "tolerable_disagreements"):
        assert f"reading: row {key}: {NOISE_MEANINGS[key]}" in text
    assert all(f"reading: row {key}: " in text for key in NOISE_KEYS)
    assert "(footnote 3's estimate of p)" in text  # what the model's own notes call p


def test_a_team_gets_intervals_labelled_with_their_level_seeded_and_exact(capsys):
    """Three Label Studio annotators who did not all annotate every task: the team's corrected F1
    has a 95% interval (it had none: "not computed for several annotators"), equal to
    team_chance_f1's, the same on every run, and read in words."""
    arguments = ["agreement", str(LABEL_STUDIO), "--intervals", "--random-state", "7"]
    report = json.loads(run([*arguments, "--format", "json"], capsys))
    assert json.loads(run([*arguments, "--format", "json"], capsys)) == report  # seeded: the same bits
    annotations = load_annotations([str(LABEL_STUDIO)])
    for level in ("token", "entity"):
        expected = team_chance_f1(annotations.items, names=annotations.names, level=level, zero_division=0,
                                  confidence_level=0.95, random_state=7)
        shown = report["team_chance_f1"][level]
        assert shown["overall_corrected_f1_ci"] == expected["overall_corrected_f1_ci"]
        assert shown["PER"]["corrected_f1_ci"] == expected["PER"]["corrected_f1_ci"]
    low, high = report["team_chance_f1"]["token"]["overall_corrected_f1_ci"]
    text = run(arguments, capsys)
    assert "corrected F1 95% interval" in text and f"{low:.4f}-{high:.4f}" in text
    assert "reading: token level, the team: corrected F1 0.6937 is substantial agreement" in text
    assert "its 95% interval runs from moderate to almost perfect" in text
    csv = run([*arguments, "--format", "csv"], capsys)
    assert f"corrected F1 95% interval low,{low!r}" in csv and f"corrected F1 95% interval high,{high!r}" in csv


def test_team_intervals_of_two_annotators_are_chance_f1s():
    tags = [[["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG", "O"], ["B-PER", "O", "O"]],
            [["B-PER", "O", "O", "B-LOC"], ["O", "B-ORG", "I-ORG"], ["O", "O", "B-LOC"]]]
    team = team_chance_f1(by_item(tags), confidence_level=0.9, n_resamples=200, random_state=3)
    pair = chance_f1(tags[1], tags[0], confidence_level=0.9, n_resamples=200, random_state=3)
    assert team["overall_corrected_f1_ci"] == pair["overall_corrected_f1_ci"]
    assert team["PER"]["corrected_f1_ci"] == pair["PER"]["corrected_f1_ci"]


def test_the_html_report_labels_intervals_and_gives_a_team_its_interval(tmp_path):
    page = tmp_path / "team.html"
    assert main(["report", str(LABEL_STUDIO), "-o", str(page), "-q"]) == 0
    html = page.read_text(encoding="utf-8")
    assert "not computed for several annotators" not in html
    summary = html[html.index('id="summary"'):html.index('id="annotators"')]
    low = re.search(r'data-key="summary/overall_corrected_f1_ci/low" data-value="([^"]+)"', summary).group(1)
    assert re.search(r'<span class="ci">95% interval <span data-key="summary/overall_corrected_f1_ci/low"', summary)
    assert float(low) >= 0 and "[" not in re.sub(r"<[^>]+>", "", summary).split("95% interval")[1][:20]
    assert "In words: substantial agreement (0.6 to 0.8 on the Landis and Koch (1977) scale)" in summary
    assert "What these numbers mean" in summary and "footnote 3&#x27;s estimate of p" in summary


def test_the_space_shows_a_readable_result_before_the_raw_keys():
    text = (EXAMPLES / "sysB.conll").read_text(encoding="utf-8")
    page = score("chance_f1", text)
    readable, raw = page.split("<details>")
    assert "Chance-corrected F1 is 0.9398: almost perfect agreement (0.8 to 1 on the Landis and Koch (1977) " \
           "scale)." in readable
    assert "data-key=\"overall_corrected_f1\"" not in readable and "data-key=\"overall_corrected_f1\"" in raw
    assert "<th>in words</th>" in readable
    noise = score("noise", text).split("<details>")[0]
    assert all(meaning.replace("'", "&#x27;").replace('"', "&quot;") in noise for meaning in
               (NOISE_MEANINGS["p"], NOISE_MEANINGS["tolerable_disagreements"]))
    # an undefined score is read as undefined, with its reason, never as a level of the scale
    undefined = score("chance_f1", "Paris O O\nis O O\n").split("<details>")[0]
    assert "Chance-corrected F1 is undefined: no entity on either side" in undefined
    assert "agreement (" not in undefined
