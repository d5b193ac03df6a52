"""Writes the INCEpTION CAS fixtures (``cas/*.json``, ``xmi/*.xmi`` + ``xmi/TypeSystem.xml``) with
dkpro-cassis itself, from the annotation that ``team.conll`` holds as columns (alice, bob, carol).

The type system holds the DKPro Core types INCEpTION uses: Sentence, Token, NamedEntity (features
``value`` and ``identifier``) and DocumentMetaData. Run from the repository root:
``python tests/data/formats/make_cas.py`` (the test suite checks the files are what it writes).
"""

from __future__ import annotations

from pathlib import Path

import cassis

HERE = Path(__file__).resolve().parent
DKPRO = "de.tudarmstadt.ukp.dkpro.core.api"
NAMES = ("alice", "bob", "carol")


def type_system() -> cassis.TypeSystem:
    types = cassis.TypeSystem()
    types.create_type(f"{DKPRO}.segmentation.type.Sentence", supertypeName="uima.tcas.Annotation")
    types.create_type(f"{DKPRO}.segmentation.type.Token", supertypeName="uima.tcas.Annotation")
    entity = types.create_type(f"{DKPRO}.ner.type.NamedEntity", supertypeName="uima.tcas.Annotation")
    types.create_feature(entity, "value", "uima.cas.String")
    types.create_feature(entity, "identifier", "uima.cas.String")
    metadata = types.create_type(f"{DKPRO}.metadata.type.DocumentMetaData", supertypeName="uima.tcas.DocumentAnnotation")
    types.create_feature(metadata, "documentTitle", "uima.cas.String")
    types.create_feature(metadata, "documentId", "uima.cas.String")
    return types


def sentences() -> list[tuple[list[str], list[list[str]]]]:
    """(tokens, [tags of alice, bob, carol]) per sentence of ``team.conll``."""
    found, rows = [], []
    for line in (HERE / "team.conll").read_text(encoding="utf-8").split("\n") + [""]:
        if line.strip():
            rows.append(line.split())
        elif rows:
            found.append(([r[0] for r in rows], [[r[i] for r in rows] for i in range(1, len(rows[0]))]))
            rows = []
    return found


def entities(tags: list[str]) -> list[tuple[int, int, str]]:
    spans = []
    for index, tag in enumerate(tags):
        if tag.startswith("B-"):
            spans.append([index, index + 1, tag[2:]])
        elif tag.startswith("I-"):
            spans[-1][1] = index + 1
    return [tuple(span) for span in spans]


def build(annotator: int, types: cassis.TypeSystem) -> cassis.Cas:
    cas = cassis.Cas(typesystem=types)
    Sentence, Token = types.get_type(f"{DKPRO}.segmentation.type.Sentence"), types.get_type(f"{DKPRO}.segmentation.type.Token")
    Entity = types.get_type(f"{DKPRO}.ner.type.NamedEntity")
    text, annotations = "", []
    for tokens, tags in sentences():
        start = len(text)
        offsets = []
        for token in tokens:
            if text and not text.endswith("\n") and token != ".":
                text += " "
            offsets.append((len(text), len(text) + len(token)))
            text += token
        annotations.append(Sentence(begin=start, end=len(text)))
        annotations += [Token(begin=a, end=b) for a, b in offsets]
        annotations += [Entity(begin=offsets[s][0], end=offsets[e - 1][1], value=label)
                        for s, e, label in entities(tags[annotator])]
        text += "\n"
    cas.sofa_string = text
    metadata = types.get_type(f"{DKPRO}.metadata.type.DocumentMetaData")
    annotations.append(metadata(begin=0, end=len(text), documentTitle="sentences.txt", documentId="sentences.txt"))
    for annotation in annotations:
        cas.add(annotation)
    return cas


def files() -> dict[Path, str]:
    types = type_system()
    written = {HERE / "xmi" / "TypeSystem.xml": types.to_xml()}
    for index, name in enumerate(NAMES):
        cas = build(index, types)
        written[HERE / "cas" / f"{name}.json"] = cas.to_json(pretty_print=True)
        written[HERE / "xmi" / f"{name}.xmi"] = cas.to_xmi(pretty_print=True)
    return written


if __name__ == "__main__":
    for path, text in files().items():
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(path.relative_to(HERE))
