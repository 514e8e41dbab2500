"""A record's log proof line (the last line that is not blank) is cut off as the text before it,
and the digest its leaf names is of exactly those bytes (``events.record.split_log_proof``,
``loads``, ``Signed``): whatever the lines before it hold and however many blank lines follow."""

from __future__ import annotations

import hashlib
import json

from hypothesis import given
from hypothesis import strategies as st

from events.record import PROOF_FORMAT, LogProof, loads, split_log_proof
from tests.unit.audit.records import ZOOM

PROOF = json.dumps(
    {
        "checkpoint": "origin\n1\nAAAA\n",
        "format": PROOF_FORMAT,
        "inclusion": [],
        "leaf": "{}",
        "leaf_index": 0,
        "tree_size": 1,
    },
    sort_keys=True,
)

lines = st.lists(  # what a record file can hold: UTF-8 text (no lone surrogates)
    st.text(st.characters(codec="utf-8", exclude_characters="\n"), max_size=20), max_size=6
)
blank = st.lists(st.text(st.sampled_from(" \t\r"), max_size=3), max_size=4)


@given(body=lines, after=blank, indent=st.sampled_from(["", " \t"]))
def test_the_proof_line_is_cut_and_the_digest_is_of_every_byte_before_it(
    body: list[str], after: list[str], indent: str
) -> None:
    before = "".join(line + "\n" for line in body)
    text = before + PROOF + indent + "\n" + "\n".join(after)
    record, proof, signed = split_log_proof(text)
    assert proof == LogProof.model_validate_json(PROOF)
    assert record == before
    assert signed is not None
    assert signed.sha256() == hashlib.sha256(before.encode("utf-8")).hexdigest()


@given(body=lines, after=blank)
def test_a_last_line_that_is_not_a_proof_leaves_the_text_whole(
    body: list[str], after: list[str]
) -> None:
    text = "".join(line + "\n" for line in body) + " " + PROOF + "\n" + "\n".join(after)
    assert split_log_proof(text) == (text, None, None)  # indented: not the proof line


def test_a_parsed_record_hashes_its_text_only_when_asked() -> None:
    """``loads`` keeps the text and where the proof starts; ``record_sha256`` hashes it."""
    text = ZOOM.read_text(encoding="utf-8")
    record = loads(text + PROOF + "\n\n")
    assert record.log_proof == LogProof.model_validate_json(PROOF)
    assert record.record_sha256 == hashlib.sha256(text.encode("utf-8")).hexdigest()
    assert record.events == loads(text).events
    assert loads(text).record_sha256 is None
