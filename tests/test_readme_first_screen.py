"""README's first screen (issue 9 gap 5): what and why in at most three lines, then the two
commands; every paper named where its method is first used (in the README and the docs pages);
every `pip install` of the README, the docs and the code works today."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib

import pytest

from conftest import REPO
from docs_pages import page, pages

README = (REPO / "README.md").read_text(encoding="utf-8")
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def test_opens_with_what_and_why_in_three_lines_then_the_two_commands():
    lines = README.splitlines()
    assert lines[0] == "# chance-agreement" and lines[1] == ""
    opening = lines[2:lines.index("", 2)]
    assert 1 <= len(opening) <= 3 and all(len(line) <= 120 for line in opening)
    assert "chance" in opening[0] and "evaluate" in " ".join(opening)
    first_blocks = re.findall(r"```(\w*)\n(.*?)```", README, flags=re.S)[:2]
    assert [kind for kind, _ in first_blocks] == ["bash", "bash"]
    assert first_blocks[0][1].strip().endswith("chance-agreement demo")
    assert first_blocks[1][1].strip() in (REPO / ".ci" / "run").read_text().splitlines()
    before_commands = README[:README.index("```bash")]
    assert "CI" not in before_commands and ".ci" not in before_commands


def _pip_install_targets(text: str) -> list[str]:
    targets = []
    for match in re.finditer(r"pip install ([^`\n&|;)]*)", text):
        words = [w.strip("'\"") for w in match.group(1).split()]
        targets += [w for w in words if w and not w.startswith("-")]
    return targets


def test_every_pip_install_line_works_from_a_clone():
    """Local paths (with extras the project defines) or packages the project itself installs
    from PyPI; never `chance-agreement` by name, which no index has yet."""
    sources = {"README.md": README, **{f"docs/{name}": text for name, text in pages().items()}}
    for path in (REPO / "src").rglob("*.py"):
        sources[str(path.relative_to(REPO))] = path.read_text(encoding="utf-8")
    extras = set(PYPROJECT["project"]["optional-dependencies"])
    known = {re.split(r"[<>=\[ ]", requirement)[0].lower()
             for group in [PYPROJECT["project"]["dependencies"], *PYPROJECT["project"]["optional-dependencies"].values()]
             for requirement in group}
    # and what CI itself installs from the index (the irrCAC port, without its pins)
    known |= {re.split(r"[<>=\[ ]", target)[0].lower()
              for target in _pip_install_targets("\n".join(
                  line for line in (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
                  if not line.lstrip().startswith("#")))
              if not target.startswith(".")}
    found = []
    for name, text in sources.items():
        for target in _pip_install_targets(text):
            found.append(target)
            if target.startswith("."):
                requested = re.findall(r"\[([^\]]*)\]", target)
                assert all(extra in extras for group in requested for extra in group.split(",")), (name, target)
            else:
                package = re.split(r"[<>=\[ ]", target)[0].lower()
                assert package in known and not target.startswith("chance-agreement"), (name, target)
    assert ".[test]" in found and "matplotlib" in found


@pytest.mark.parametrize("citation, where, first_use", [
    ("*Estimating Agreement by Chance for Sequence Annotation* (an anonymous ACL submission", "README.md",
     "evaluate.load("),
    ("*Estimating Agreement by Chance for Sequence Annotation* (an anonymous ACL submission",
     "explanation/random-model.md", "Proposition 2"),
    ("Beata Beigman Klebanov and Eyal Beigman's, *From Annotator Agreement to Noise Models*\n(Computational "
     "Linguistics 35(4), 2009", "howto/coefficients-and-noise.md", "equation 1 bounds"),
    ("Rohan Ramanath, Monojit Choudhury,\nKalika Bali and Rishiraj Saha Roy, *Crowd Prefers the Middle Path* "
     "(ACL 2013)", "howto/coefficients-and-noise.md", "sliding alignment"),
    ("our copy of it has no title page, so we cannot name its authors, year or venue", "howto/coefficients-and-noise.md",
     "prevalence warning"),
])
def test_each_paper_is_named_where_its_method_is_first_used(citation, where, first_use):
    text = README if where == "README.md" else page(where)
    flat, citation = " ".join(text.split()), " ".join(citation.split())
    assert citation in flat
    assert flat.index(citation) < flat.index(first_use)


def test_demo_header_names_the_paper_not_a_file():
    out = subprocess.run([sys.executable, "-m", "chance_agreement.reports.cli", "demo"],
                         capture_output=True, text=True, check=True).stdout
    header = out.splitlines()[0]
    assert "Estimating Agreement by Chance for Sequence Annotation" in header
    assert ".txt" not in out
