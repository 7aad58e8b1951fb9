"""Old documents keep their results: every scenario of the conformance examples and the
library settles and is keyed exactly as recorded in golden/golden.jsonl.gz (the answer key
without its `view`, which grows separately). A document that opts into chips is new, so it
is not in the golden file; one that does not must not change by a byte."""

import gzip
import json

from tests.rules.golden.build_golden import GOLDEN, documents, record


def test_every_old_document_settles_and_is_keyed_as_recorded() -> None:
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as handle:
        want = [line for line in handle.read().split("\n") if line]
    got = [record(doc) for doc in documents() if "chips" not in doc]
    assert len(got) == len(want) >= 597
    for mine, theirs in zip(got, want, strict=True):
        assert mine == theirs, json.loads(theirs)["id"]
