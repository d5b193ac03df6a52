"""Writes the INCEpTION near-miss fixtures with dkpro-cassis: a custom layer beside an empty
NamedEntity layer (XMI with its TypeSystem.xml, and JSON), the same XMI without a type system, and
Chinese CAS JSON files without Token annotations. Run: ``python tests/data/near_miss/make_inception.py``."""
import cassis
from pathlib import Path
DK = "de.tudarmstadt.ukp.dkpro.core.api"
def ts(custom=True, tokens=True):
    t = cassis.TypeSystem()
    t.create_type(f"{DK}.segmentation.type.Sentence", supertypeName="uima.tcas.Annotation")
    if tokens:
        t.create_type(f"{DK}.segmentation.type.Token", supertypeName="uima.tcas.Annotation")
    ne = t.create_type(f"{DK}.ner.type.NamedEntity", supertypeName="uima.tcas.Annotation")
    t.create_feature(ne, "value", "uima.cas.String")
    if custom:
        c = t.create_type("webanno.custom.Entity", supertypeName="uima.tcas.Annotation")
        t.create_feature(c, "label", "uima.cas.String")
    md = t.create_type(f"{DK}.metadata.type.DocumentMetaData", supertypeName="uima.tcas.DocumentAnnotation")
    t.create_feature(md, "documentTitle", "uima.cas.String")
    return t
def cas(t, text, toks, ents, layer="webanno.custom.Entity", feat="label", tokens=True):
    c = cassis.Cas(typesystem=t)
    c.sofa_string = text
    S = t.get_type(f"{DK}.segmentation.type.Sentence")
    c.add(S(begin=0, end=len(text)))
    if tokens:
        T = t.get_type(f"{DK}.segmentation.type.Token")
        for a, b in toks: c.add(T(begin=a, end=b))
    L = t.get_type(layer)
    for a, b, l in ents: c.add(L(begin=a, end=b, **{feat: l}))
    M = t.get_type(f"{DK}.metadata.type.DocumentMetaData")
    c.add(M(begin=0, end=len(text), documentTitle="doc.txt"))
    return c
text = "Ada Lovelace met Charles Babbage in London ."
toks = [(0,3),(4,12),(13,16),(17,24),(25,32),(33,35),(36,42),(43,44)]
out = Path(__file__).resolve().parent; 
for d in ("inception_custom_layer", "inception_no_typesystem", "inception_no_tokens"): (out/d).mkdir(parents=True, exist_ok=True)
t = ts()
for name, ents in (("alice", [(0,12,"PER"),(17,32,"PER"),(36,42,"LOC")]), ("bob", [(0,12,"PER"),(36,42,"LOC")])):
    c = cas(t, text, toks, ents)
    (out/"inception_custom_layer"/f"{name}.xmi").write_text(c.to_xmi(pretty_print=True))
    (out/"inception_custom_layer"/f"{name}.json").write_text(c.to_json(pretty_print=True))
    (out/"inception_no_typesystem"/f"{name}.xmi").write_text(c.to_xmi(pretty_print=True))
(out/"inception_custom_layer"/"TypeSystem.xml").write_text(t.to_xml())
t2 = ts(custom=False, tokens=False)
ztext = "艾达在伦敦见了巴贝奇。"
for name, ents in (("alice", [(0,2,"PER"),(3,5,"LOC"),(7,10,"PER")]), ("bob", [(0,2,"PER"),(7,10,"PER")])):
    c = cas(t2, ztext, [], ents, layer=f"{DK}.ner.type.NamedEntity", feat="value", tokens=False)
    (out/"inception_no_tokens"/f"{name}.json").write_text(c.to_json(pretty_print=True))
