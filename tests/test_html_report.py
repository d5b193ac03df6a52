"""The HTML report: its data from the library, its sections, escaping, capping, validity, the CLI.

The browser checks (screenshot, console, DOM numbers) are in ``test_html_report_browser.py``.
"""

from __future__ import annotations

import re
import warnings
import subprocess
import sys

import html5lib
import pytest

from chance_agreement import AnnotationSet, chance_f1, coefficients, contingency, multi_annotator_agreement, noise_report
from chance_agreement.reports.html_report import (
    MAX_TYPES,
    _team_results,
    html_report,
    load_annotations,
    render_report,
    report_data,
)
from conftest import REPO

TOKENS = [["Ann", "met", "Bob", "in", "Paris", "."], ["IBM", "and", "Acme", "Inc", "merged"], ["Nothing", "here"]]
A = [["B-PER", "O", "B-PER", "O", "B-LOC", "O"], ["B-ORG", "O", "B-ORG", "I-ORG", "O"], ["O", "O"]]
B = [["B-PER", "O", "O", "O", "B-LOC", "O"], ["B-ORG", "O", "B-ORG", "O", "O"], ["O", "O"]]
C = [["B-PER", "O", "B-LOC", "O", "B-LOC", "O"], ["B-ORG", "O", "O", "B-ORG", "O"], ["O", "B-MISC"]]


def parse_strict(page: str):
    """html5lib in strict mode: any parse error (bad nesting, stray tags, bad doctype) raises."""
    return html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(page)


def numbers(page: str) -> dict[str, tuple[str, str]]:
    """data-key -> (data-value, shown text) of every number cell."""
    tree = parse_strict(page)
    return {node.get("data-key"): (node.get("data-value"), "".join(node.itertext()))
            for node in tree.iter() if node.get("data-key") is not None}


def section_ids(page: str) -> list[str]:
    return [node.get("id") for node in parse_strict(page).iter("section")]


def test_pair_numbers_are_the_librarys():
    page = html_report(TOKENS, {"a": A, "b": B})
    shown = numbers(page)
    result = chance_f1(B, A, zero_division=0)
    for key in ("observed_f1", "chance_f1", "corrected_f1"):
        value, text = shown[f"summary/overall_{key}"]
        assert float(value) == result[f"overall_{key}"]
        assert text == f"{result[f'overall_{key}']:.4f}"
        for name in ("LOC", "ORG", "PER"):
            assert float(shown[f"types/{name}/{key}"][0]) == result[name][key]
    table, categories = contingency(B, A)
    kappa = coefficients(table, categories)
    for key in ("observed_agreement", "bennett_s", "scott_pi", "cohen_kappa"):
        assert float(shown[f"summary/{key}"][0]) == kappa[key]
    noise = noise_report(B, A)
    assert float(shown["summary/noise_bound"][0]) == noise["noise_bound"]
    assert int(shown["summary/noisy_items"][0]) == noise["noisy_items"]
    assert section_ids(page) == ["summary", "types", "contingency", "sentences"]


def test_the_data_holds_the_contingency_table_and_table_8_similarities():
    data = report_data(TOKENS, {"a": A, "b": B})
    table, categories = contingency(B, A)
    assert data["contingency"]["table"] == table.tolist() and data["contingency"]["categories"] == categories
    assert data["coefficients"]["category_similarity"] == coefficients(table, categories)["category_similarity"]


def test_sentences_ranked_by_disagreement_beyond_chance_with_both_annotations():
    data = report_data(TOKENS, {"a": A, "b": B})
    shown = data["sentences"]["shown"]
    scores = chance_f1(B, A, zero_division=0, return_sentence_scores=True)["sentence_scores"]
    # sentence 3 has no entity on either side: no chance level, not ranked
    assert sorted(row["sentence"] for row in shown) == [1, 2]
    assert shown[0]["disagreement"] >= shown[1]["disagreement"]
    for row in shown:
        score = scores[row["sentence"] - 1]
        corrected = (score["observed_f1"] - score["chance_f1"]) / (1 - score["chance_f1"])
        assert row["corrected_f1"] == pytest.approx(corrected)
        assert row["disagreement"] == pytest.approx((1 - corrected) * score["denominator"])
    first = next(row for row in shown if row["sentence"] == 1)
    assert first["spans"] == {"a": [["PER", 0, 1], ["PER", 2, 3], ["LOC", 4, 5]], "b": [["PER", 0, 1], ["LOC", 4, 5]]}
    assert data["sentence_chance"] == [s["chance_f1"] for s in scores]
    page = render_report(data)
    assert '<mark class="ent"' in page and "Bob<sub>PER</sub>" in page


@pytest.mark.parametrize("mode,spans", [(None, [["PER", 0, 2], ["LOC", 3, 4]]), ("strict", [["LOC", 3, 4]])])
def test_shown_spans_follow_the_span_options(mode, spans):
    tokens = [["a", "b", "c", "d"]]
    a = [["I-PER", "I-PER", "O", "B-LOC"]]  # strict IOB2 has no span without its B-
    b = [["O", "O", "O", "B-LOC"]]
    data = report_data(tokens, {"a": a, "b": [["B-PER", "O", "O", "O"]], "c": b}, mode=mode, scheme="IOB2" if mode else None)
    row = next(r for r in data["sentences"]["shown"] if r["sentence"] == 1)
    assert row["spans"]["a"] == spans


def test_intervals_render_when_the_ci_keys_are_present():
    data = report_data(TOKENS, {"a": A, "b": B}, confidence_level=None)
    page = render_report(data)
    assert "interval: not computed" in page
    data["result"]["overall_corrected_f1_ci"] = [0.25, 0.75]
    data["result"]["PER"]["corrected_f1_ci"] = [0.125, 0.5]
    shown = numbers(render_report(data))
    assert shown["summary/overall_corrected_f1_ci/low"] == ("0.25", "0.2500")
    assert shown["summary/overall_corrected_f1_ci/high"] == ("0.75", "0.7500")
    assert shown["types/PER/corrected_f1_ci/low"] == ("0.125", "0.1250")
    assert "types/LOC/corrected_f1_ci/low" not in shown


def test_team_results_pool_the_pairs_of_chance_f1():
    annotations = {"a": A, "b": B, "c": C}
    team = _team_results(AnnotationSet.from_tags(annotations), "token", "non_overlapping")
    pairs = {}
    for first, second in (("a", "b"), ("a", "c"), ("b", "c")):
        result = chance_f1(annotations[second], annotations[first], zero_division=0, return_sentence_scores=True)
        size = sum(s["denominator"] for s in result["sentence_scores"])
        pairs[first, second] = (result, size)

    def pooled(chosen):
        size = sum(pairs[p][1] for p in chosen)
        observed = sum(pairs[p][0]["overall_observed_f1"] * pairs[p][1] for p in chosen) / size
        chance = sum(pairs[p][0]["overall_chance_f1"] * pairs[p][1] for p in chosen) / size
        return observed, chance, (observed - chance) / (1 - chance)

    assert (team["overall_observed_f1"], team["overall_chance_f1"], team["overall_corrected_f1"]) == pytest.approx(
        pooled(list(pairs)))
    for name in "abc":
        mine = team["per_annotator"][name]
        assert (mine["observed_f1"], mine["chance_f1"], mine["corrected_f1"]) == pytest.approx(
            pooled([p for p in pairs if name in p]))
    matrix = team["pairwise_corrected_f1"]
    assert [matrix[i][i] for i in range(3)] == [None] * 3
    assert matrix[0][2] == matrix[2][0] == pytest.approx(pairs["a", "c"][0]["overall_corrected_f1"])
    assert team["annotators"] == ["a", "b", "c"]


def test_two_annotators_as_a_team_equal_their_pair():
    team = _team_results(AnnotationSet.from_tags({"a": A, "b": B}), "token", "non_overlapping")
    result = chance_f1(B, A, zero_division=0, return_sentence_scores=True)
    assert team["overall_corrected_f1"] == pytest.approx(result["overall_corrected_f1"])
    for ours, theirs in zip(team["sentence_scores"], result["sentence_scores"], strict=True):
        assert ours.keys() == theirs.keys()
        for key, value in theirs.items():
            assert ours[key] == (None if value is None else pytest.approx(value))


def test_three_annotators_page():
    page = html_report(TOKENS, {"a": A, "b": B, "c": C})
    assert section_ids(page) == ["summary", "annotators", "types", "contingency", "sentences"]
    shown = numbers(page)
    assert float(shown["pairwise/a/b"][0]) == pytest.approx(chance_f1(B, A, zero_division=0)["overall_corrected_f1"])
    assert shown["pairwise/a/a"] == ("", "–")
    for name in "abc":
        assert f"annotators/{name}/corrected_f1" in shown
    assert "Fleiss&#x27; kappa" in page or "Fleiss' kappa" in page
    # every annotator's annotation of the shown sentences, side by side
    assert page.count('<th><bdi class="name" title="c">c</bdi></th>') >= 1 and "MISC" in page


def test_sections_from_plain_dicts_with_the_parallel_issues_keys():
    """team_chance_f1's and the bootstrap's keys, fed in as plain dicts, show their sections."""
    data = report_data(TOKENS, {"a": A, "b": B}, confidence_level=None)
    data["team"] = {"annotators": ["a", "b", "c"],
                    "per_annotator": {n: {"observed_f1": 0.5, "chance_f1": 0.25, "corrected_f1": 1 / 3} for n in "abc"},
                    "pairwise_corrected_f1": [[None, 0.5, 0.25], [0.5, None, 0.75], [0.25, 0.75, None]]}
    data["multi"] = {"fleiss_kappa": 0.5, "krippendorff_alpha": 0.625}
    data["leaderboard"] = {"systems": [
        {"system": "x", "observed_f1": 0.9, "chance_f1": 0.2, "corrected_f1": 0.875, "corrected_f1_ci": [0.8, 0.95],
         "observed_rank": 2, "corrected_rank": 1, "rank_change": 1},
        {"system": "y", "observed_f1": 0.92, "chance_f1": 0.5, "corrected_f1": 0.84,
         "observed_rank": 1, "corrected_rank": 2, "rank_change": -1}]}
    page = render_report(data)
    assert section_ids(page) == ["summary", "leaderboard", "annotators", "types", "contingency", "sentences"]
    shown = numbers(page)
    assert shown["pairwise/b/c"] == ("0.75", "0.7500")
    assert shown["annotators/c/corrected_f1"][0] == repr(1 / 3)
    assert shown["summary/krippendorff_alpha"] == ("0.625", "0.6250")
    assert shown["leaderboard/x/corrected_f1_ci/low"] == ("0.8", "0.8000")
    assert "leaderboard/y/corrected_f1_ci/low" not in shown
    assert "&#9650; +1" in page and "&#9660; -1" in page


def test_leaderboard_page(tmp_path):
    gold = [["B-PER", "O", "B-LOC"], ["B-ORG", "I-ORG", "O"]]
    systems = {"good": [["B-PER", "O", "B-LOC"], ["B-ORG", "I-ORG", "O"]],
               "half": [["B-PER", "O", "O"], ["B-ORG", "O", "O"]]}
    tokens = [["x", "y", "z"], ["u", "v", "w"]]
    page = html_report(tokens, {"gold": gold, **systems}, leaderboard=True)
    shown = numbers(page)
    assert int(shown["leaderboard/good/corrected_rank"][0]) == 1
    assert float(shown["leaderboard/half/corrected_f1"][0]) == chance_f1(systems["half"], gold, zero_division=0)[
        "overall_corrected_f1"]
    assert "observed against corrected F1" in page
    assert section_ids(page)[:2] == ["summary", "leaderboard"]



def test_leaderboard_page_with_an_undefined_corrected_f1():
    """Issue 24, 1e: a system with chance F1 1 shows "undefined", is not ranked or drawn, and the page says why."""
    gold = [["B-PER", "I-PER"], ["B-LOC"]]
    systems = {"same": [["B-PER", "I-PER"], ["B-LOC"]], "half": [["B-PER", "O"], ["B-LOC"]]}
    page = html_report([["Ada", "Byron"], ["Rome"]], {"gold": gold, **systems}, leaderboard=True)
    parse_strict(page)
    shown = numbers(page)
    assert shown["leaderboard/same/corrected_f1"] == ("", "undefined")
    assert shown["leaderboard/same/corrected_rank"] == ("", "–")
    assert int(shown["leaderboard/half/corrected_rank"][0]) == 1
    assert "same: corrected F1 is undefined: chance F1 is 1" in page
    assert "2. same" not in page and "1. half" in page  # the plot's marks


EVIL = '<script>alert("x")</script>&amp;"\''


def test_user_text_is_escaped(tmp_path):
    tokens = [[EVIL, "b", "c"]]
    a = [[f"B-{EVIL}", "O", "B-X"]]
    b = [["O", "O", "B-X"]]
    page = html_report(tokens, {EVIL: a, f"{EVIL}2": b}, title=EVIL)
    tree = parse_strict(page)
    assert not list(tree.iter("script"))
    text = "".join(tree.itertext())
    assert EVIL in text  # shown as the text it is
    assert "<script>" not in page and EVIL not in page


def test_long_lists_are_capped_with_a_note():
    types = [f"T{i:02d}" for i in range(MAX_TYPES + 5)]
    tokens = [["w"] * 2 for _ in types]
    a = [[f"B-{t}", "O"] for t in types]
    b = [["O", f"B-{t}"] for t in types]
    page = html_report(tokens, {"a": a, "b": b}, max_sentences=3)
    assert "5 more left out (showing the first 40)." in page
    assert f"{len(types) - 3} more sentences with disagreement beyond chance left out" in page
    assert "more categories left out" in page
    assert len(numbers(page)) < 40 * 5 + 200


def test_no_entities_anywhere_gives_a_page_not_a_crash():
    tokens = [["a", "b"], ["c"]]
    empty = [["O", "O"], ["O"]]
    page = html_report(tokens, {"a": empty, "b": empty})
    assert "No sentence has disagreement beyond chance." in page
    assert numbers(page)["summary/cohen_kappa"] == ("", "–")  # undefined: one category
    assert not re.search(r"\bnan\b", page, flags=re.I)


@pytest.mark.parametrize("bad,message", [
    ({"a": A}, "at least two annotations"),
    ({"a": A, "b": B[:2]}, "b: 2 sentences, the tokens have 3"),
    ({"a": A, "b": [B[0], B[1][:3], B[2]]}, "b: sentence 2 has 3 tags for 5 tokens"),
])
def test_bad_input_is_a_clear_value_error(bad, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        report_data(TOKENS, bad)


def write_columns(path, tokens, *columns):
    lines = []
    for i, sentence in enumerate(tokens):
        for j, token in enumerate(sentence):
            lines.append(" ".join([token] + [column[i][j] for column in columns]))
        lines.append("")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "chance_agreement.reports.cli", "report", *map(str, args)],
                          capture_output=True, text=True, cwd=REPO)


def test_cli_writes_the_page_from_column_files(tmp_path):
    data = tmp_path / "three.tsv"
    write_columns(data, TOKENS, A, B, C)
    out = tmp_path / "report.html"
    done = run_cli(f"{data}:1", f"{data}:2", f"{data}:3", "-o", out)
    assert done.returncode == 0, done.stderr
    page = out.read_text(encoding="utf-8")
    parse_strict(page)
    assert section_ids(page)[:2] == ["summary", "annotators"]
    assert "three:1" in page and "three:3" in page  # names from the file and column
    tokens, annotations = load_annotations([f"{data}:1", f"{data}:2"])
    assert tokens == TOKENS and list(annotations) == ["three:1", "three:2"] and annotations["three:2"] == B


def test_cli_errors_are_one_line_without_traceback(tmp_path):
    data = tmp_path / "pair.tsv"
    write_columns(data, TOKENS, A, B)
    other = tmp_path / "other.tsv"
    write_columns(other, [["x"] + s[1:] for s in TOKENS], A, B)
    cases = [
        ((f"{data}", tmp_path / "missing.tsv"), 1, "missing.tsv: no such file"),
        ((f"{data}", f"{other}"), 1, f"{data} line 1 has 'Ann', {other} line 1 has 'x'"),
        ((f"{data}", f"{data}:2", "--names", "one"), 2, "--names gives 1 names for 2"),
    ]
    cases.append(((f"{data}", f"{data}:2", "-o", tmp_path / "no" / "such" / "r.html"), 1, "r.html: cannot write: the folder"))
    for args, code, message in cases:
        done = run_cli(*args, *(() if "-o" in args else ("-o", tmp_path / "r.html")))
        assert done.returncode == code, done.stderr
        assert message in done.stderr
        assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    done = run_cli(f"{data}", f"{data}:2")  # no -o: argparse's usage error
    assert done.returncode == 2 and "-o" in done.stderr


def test_page_is_offline():
    page = html_report(TOKENS, {"a": A, "b": B, "c": C})
    tree = parse_strict(page)
    assert not [node for node in tree.iter() if node.get("src") is not None]
    assert all(node.get("href").startswith("#") for node in tree.iter("a"))
    assert not [node for node in tree.iter("link")]
    assert set(re.findall(r"https?://[^\"' ]+", page)) == {"http://www.w3.org/2000/svg"}


def test_docs_numbers_are_the_reports(conll_systems):
    """The docs' description of the CoNLL-2003 pages quotes numbers these computations give."""
    from docs_pages import folded, page
    from docs_pages import section as page_section

    section = folded(page_section(page("howto/command-line-and-reports.md"), "## Agreement report (HTML)"))
    references, systems = conll_systems
    lstm, flair, bert = systems.values()
    data = report_data([["t"] * len(s) for s in references], {"gold": references, "lstm": lstm})
    result, kappa, noise = data["result"], data["coefficients"], data["noise"]
    table = dict(zip(data["contingency"]["categories"], data["contingency"]["table"]))
    quoted = [f"{result[f'overall_{k}']:.4f}" for k in ("corrected_f1", "observed_f1", "chance_f1")]
    quoted += [f"{kappa[k]:.4f}" for k in ("cohen_kappa", "observed_agreement", "bennett_s", "scott_pi")]
    quoted += [f"{noise['noise_bound']:.4f}", f"{noise['noisy_items']} of {noise['agreed']} agreed"]
    quoted += [f"{result['MISC']['chance_f1']:.4f}", f"{result['PER']['chance_f1']:.4f}",
               f"{result['MISC']['corrected_f1']:.4f}", f"{result['LOC']['corrected_f1']:.4f}"]
    quoted += [f"O/O cell ({table['O'][-1]} tokens)", f"as O ({table['PER'][-1]})"]
    similarity = kappa["category_similarity"]
    quoted += [f"{similarity['MISC']['MISC']:.3f} (MISC)", f"{similarity['O']['O']:.3f} (O)"]
    assert max(v for a, row in similarity.items() for b, v in row.items() if a != b) < 0.08
    undefined = sum(v is None for v in data["sentence_chance"])
    quoted += [f"({len(references) - undefined} sentences drawn, {undefined} have no entity",
               f"{data['sentences']['left_out']} more were left out", f"sentence {data['sentences']['shown'][0]['sentence']},",
               f"{len(references)} sentences"]
    for name, tags in (("flair", flair), ("bert", bert)):
        quoted.append(f"{name} {chance_f1(tags, references, zero_division=0)['overall_corrected_f1']:.4f}")
    pairs = {("flair", "bert"): (flair, bert), ("lstm", "flair"): (lstm, flair), ("lstm", "bert"): (lstm, bert)}
    for (a, b), (first, second) in pairs.items():
        quoted.append(f"{a}-{b} {chance_f1(second, first, zero_division=0)['overall_corrected_f1']:.3f}")
    team = _team_results(AnnotationSet.from_tags({"lstm": lstm, "flair": flair, "bert": bert}), "token",
                         "non_overlapping")
    quoted.append(f"corrected F1 {team['overall_corrected_f1']:.4f}")
    multi = multi_annotator_agreement([list(item) for item in zip(lstm, flair, bert)])
    quoted.append(f"Krippendorff's alpha ({multi['fleiss_kappa']:.4f})")
    assert f"{multi['krippendorff_alpha']:.4f}" == f"{multi['fleiss_kappa']:.4f}"
    missing = [text for text in quoted if text not in section]
    assert not missing


@pytest.mark.parametrize("ci,outcome,reason", [("true", "1 error", "CI requires chromium"),
                                               ("", "1 skipped", "chromium is not installed")])
def test_without_chromium_browser_tests_fail_under_ci_and_skip_elsewhere(tmp_path, ci, outcome, reason):
    bin_dir = tmp_path / "bin"  # a PATH with python and no chromium
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(sys.executable)
    env = {"PATH": str(bin_dir), "CI": ci, "PYTHONPATH": str(REPO / "src"), "HOME": str(tmp_path),
           "CHANCE_AGREEMENT_DATA": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
                           "tests/test_html_report_browser.py", "-k", "catches"],
                          capture_output=True, text=True, cwd=REPO, env=env)
    assert outcome in done.stdout, done.stdout[-2000:]
    assert reason in done.stdout


def test_a_zero_p_estimate_shows_the_least_favourable_bound_and_why():
    """Issue 24, 1f: the summary showed a noise bound of 0.0000 when every disagreement goes one way."""
    gold = [["B-PER", "O", "B-LOC", "O"]]
    other = [["O", "O", "O", "O"]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a note on the page, not a warning
        page = html_report([["a", "b", "c", "d"]], {"gold": gold, "other": other})
    shown = numbers(page)
    assert shown["summary/noise_bound"][1] == "0.0000"
    assert float(shown["summary/noise_bound_least_favourable"][0]) > 0.0
    assert "footnote 3&#x27;s estimate of p is 0" in page or "footnote 3's estimate of p is 0" in page


def test_team_page_support_and_interval_reasons():
    """Issue 24, 6: the team page's support column showed "–" in every cell under a caption
    promising values, and "interval: not computed" came without a reason."""
    from chance_agreement.spans.tags import spans_from_tags

    tags = {"a": [["B-PER", "O", "B-LOC"], ["B-ORG", "I-ORG", "O"]],
            "b": [["B-PER", "O", "O"], ["B-ORG", "I-ORG", "B-LOC"]],
            "c": [["B-PER", "I-PER", "B-LOC"], ["O", "O", "O"]]}
    page = html_report([["x", "y", "z"], ["u", "v", "w"]], tags)
    shown = numbers(page)
    for name in ("PER", "LOC", "ORG"):
        expected = sum(1 for sentences in tags.values() for sentence in sentences
                       for span in spans_from_tags(sentence) if span[0] == name)
        assert shown[f"types/{name}/number"] == (str(expected), str(expected))
    total = sum(len(spans_from_tags(sentence)) for sentences in tags.values() for sentence in sentences)
    assert shown["types/overall/number"] == (str(total), str(total))
    assert "Support: the entity spans of each type, all 3 annotators together" in page
    assert "interval: not computed</span>" not in page
    assert "not computed for several annotators" not in page  # issue 35 item 3: a team has its interval
    assert 'data-key="types/overall/corrected_f1_ci/low"' in page and "95% interval " in page
    pair = html_report([["x", "y", "z"], ["u", "v", "w"]], {"a": tags["a"], "b": tags["b"]}, confidence_level=None)
    assert "interval: not computed</span>" not in pair and "no confidence level was asked for" in pair
