"""Gamma in the ``agreement`` command (``--gamma-samples``) and in the HTML report: the same values as
``gamma_agreement``, the best alignment of the most disordered sentences drawn."""

from __future__ import annotations

import json

import html5lib

from chance_agreement import gamma_agreement
from chance_agreement.reports.cli import main
from chance_agreement.reports.html_report import html_report
from chance_agreement.reports.team_report import build_report, load_annotations
from chance_agreement.spans.conll import write_conll

TOKENS = [["John", "lives", "in", "New", "York"], ["Acme", "hired", "Mary", "Smith"], ["Nothing", "here"]]
A = [["B-PER", "O", "O", "B-LOC", "I-LOC"], ["B-ORG", "O", "B-PER", "I-PER"], ["O", "O"]]
B = [["B-PER", "O", "O", "B-LOC", "O"], ["B-ORG", "O", "B-PER", "O"], ["O", "O"]]
C = [["B-PER", "O", "B-LOC", "I-LOC", "I-LOC"], ["B-PER", "O", "B-PER", "I-PER"], ["O", "B-MISC"]]


def files(tmp_path, annotations=(A, B, C)):
    paths = []
    for number, tags in enumerate(annotations):
        path = tmp_path / f"ann{number}.conll"
        with path.open("w") as handle:
            write_conll(handle, TOKENS, tags, tags)
        paths.append(str(path))
    return paths


def test_agreement_report_has_gamma_only_when_asked(tmp_path):
    annotations = load_annotations(files(tmp_path))
    assert "gamma" not in [s.key for s in build_report(annotations)["sections"]]
    report = build_report(annotations, gamma_samples=6, gamma_sampler="random_model")
    section = next(s for s in report["sections"] if s.key == "gamma")
    direct = gamma_agreement(annotations.items, annotators=annotations.names, n_samples=6, sampler="random_model")
    assert section.data["gamma"] == direct.gamma and section.data["gamma_k"] == direct.gamma_k
    worst = section.data["most_disordered"][0]
    assert worst["disorder"] == max(row["disorder"] for row in direct.alignment.rows())
    cells = section.tables[2].rows
    assert cells[0][2:] != ["-", "-", "-"] and any("Mary Smith" in str(cell) or "York" in str(cell) for row in cells for cell in row)


def test_agreement_command_json_and_bad_samples(tmp_path, capsys):
    paths = files(tmp_path, (A, B))
    assert main(["agreement", *paths, "--gamma-samples", "4", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["gamma"]["n_samples"] == 4 and 0 < out["gamma"]["gamma"] <= 1
    assert out["gamma"]["most_disordered"][0]["units"]["ann0"] is not None
    assert main(["agreement", *paths, "--gamma-samples", "four"]) == 2
    assert "'four' is not a whole number" in capsys.readouterr().err
    assert main(["agreement", *paths, "--gamma-samples", "3", "--gamma-sampler", "magic"]) == 1
    assert "sampler must be one of" in capsys.readouterr().err


def test_html_report_draws_the_most_disordered_sentences():
    annotations = {"a": A, "b": B, "c": C}
    page = html_report(TOKENS, annotations, gamma_samples=5, confidence_level=None)
    tree = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(page)
    section = next(node for node in tree.iter("section") if node.get("id") == "gamma")
    drawings = list(section.iter("{http://www.w3.org/2000/svg}svg"))
    labels = [svg.get("aria-label") for svg in drawings]
    direct = gamma_agreement([list(t) for t in zip(A, B, C)], annotators=["a", "b", "c"], n_samples=5)
    disordered = {row["text"] for row in direct.alignment.rows() if row["disorder"] > 0}
    assert len(drawings) == len(disordered) == 3  # every sentence has a disagreement, sentence 3 a unit alone
    assert f"{direct.gamma:.4f}" in "".join(section.itertext())
    assert all(label.startswith("best alignment of sentence") for label in labels)
    assert "gamma" not in [node.get("id") for node in
                           html5lib.parse(html_report(TOKENS, annotations, confidence_level=None),
                                          namespaceHTMLElements=False).iter("section")]


def test_evaluate_module_gamma_configuration(load_metric):
    metric = load_metric("coefficients_metric", "gamma")
    items = [list(t) for t in zip(A, B, C)]
    out = metric.compute(annotations=items, n_samples=5, sampler="shuffle", annotators=["a", "b", "c"])
    direct = gamma_agreement(items, n_samples=5, sampler="shuffle", annotators=["a", "b", "c"])
    assert out["gamma"] == direct.gamma and out["alignment"] == direct.to_dict()["alignment"]
    assert json.loads(json.dumps(out)) == out


def dense_tags(annotator: int, n: int = 60) -> list:
    """Entities of 1 to 3 tokens nearly everywhere, shifted per annotator: every unit near others."""
    tags, p = [], 0
    while p < n:
        if (p + annotator) % 4 == 0:
            tags.append("O")
            p += 1
            continue
        length = min(1 + (p * annotator) % 3, n - p)
        kind = "PER" if (p + annotator) % 2 else "LOC"
        tags += [f"B-{kind}"] + [f"I-{kind}"] * (length - 1)
        p += length
    return tags


def test_agreement_command_refuses_a_dense_gamma_up_front(tmp_path, capsys):
    # issue 38 item 3a: 8 annotators on a 60-token sentence ran past 600 s and 9.5 GB
    tokens = [TOKENS[0], [f"w{i}" for i in range(60)]]
    paths = []
    for a in range(8):
        path = tmp_path / f"a{a}.conll"
        with path.open("w") as handle:
            tags = [["O"] * 5, dense_tags(a)]
            write_conll(handle, tokens, tags, tags)
        paths.append(str(path))
    assert main(["agreement", *paths, "--gamma-samples", "30"]) == 1
    err = capsys.readouterr().err
    assert "gamma: sentence 2, positions 0 to 60: 252 units of 8 annotators (a0, a1, a2, a3, a4, a5, a6, a7)" in err
    assert "(limit 100,000)" in err and "or leave out --gamma-samples" in err
    assert main(["agreement", *paths[:2], "--gamma-samples", "10001"]) == 2
    assert "10001 random continua is more than gamma's limit of 10,000" in capsys.readouterr().err
