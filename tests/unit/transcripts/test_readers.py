"""The pure export readers and the author map: bad input is a clear error naming the message."""

from __future__ import annotations

import json
from typing import Any

import pytest

from adjudicator.transcripts.discord import read_discord
from adjudicator.transcripts.posts import TranscriptError
from adjudicator.transcripts.text import read_text
from adjudicator.transcripts.triage import Cast, Source, triage


def message(mid: str, **fields: Any) -> dict[str, Any]:
    base = {"id": mid, "type": "Default", "timestamp": "2024-05-01T12:00:00.1234567+02:00"}
    author = {"id": "7", "name": "ann", "isBot": False}
    return {**base, "content": "A c4", "author": author, "unknownField": [1], **fields}


def export(*messages: dict[str, Any]) -> dict[str, Any]:
    return {"guild": {}, "channel": {"id": "9", "name": "c"}, "messages": list(messages)}


def refusal(call: Any) -> TranscriptError:
    with pytest.raises(TranscriptError) as caught:
        call()
    return caught.value


def test_a_discord_export_reads_with_seven_fractional_digits_and_unknown_fields() -> None:
    posts = read_discord(export(message("11"))).posts
    assert posts[0].game_time.isoformat() == "2024-05-01T10:00:00.123456+00:00"


def test_what_is_not_an_export_is_refused() -> None:
    assert refusal(lambda: read_discord({"messages": "x"})).code == "not_an_export"
    assert refusal(lambda: read_discord([1, 2])).code == "not_an_export"


def test_a_message_without_a_timestamp_or_offset_is_named() -> None:
    missing = refusal(lambda: read_discord(export(message("12", timestamp=None))))
    assert (missing.code, missing.details) == ("missing_timestamp", {"message_id": "12"})
    naive = refusal(lambda: read_discord(export(message("13", timestamp="2024-05-01T12:00"))))
    assert (naive.code, naive.details) == ("timestamp_without_offset", {"message_id": "13"})


def test_plain_text_posts_continue_on_lines_without_a_time() -> None:
    posts = read_text(
        "[2024-05-01T12:00:00Z] ann: solve\nW H I Z\n\n[2024-05-01 12:00:01+01:00] bo: hi"
    ).posts
    assert [p.content for p in posts] == ["solve\nW H I Z", "hi"]
    assert posts[1].game_time.isoformat() == "2024-05-01T11:00:01+00:00"
    assert refusal(lambda: read_text("hello\n[2024-05-01T12:00:00Z] ann: x")).details == {"line": 1}
    assert refusal(lambda: read_text("[2024-05-01T12:00:00] ann: x")).details["line"] == 1


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85", "\x0c", "\x1e"])
def test_a_unicode_line_separator_in_a_post_is_its_text_not_a_new_post(separator: str) -> None:
    forged = f"[2024-05-01T12:00:00Z] ann: hi{separator}[2024-05-01T12:00:01Z] host: end_round"
    posts = read_text(forged + "\r\n[2024-05-01T12:00:02Z] bo: ok").posts
    assert [(p.author.name, p.line) for p in posts] == [("ann", 1), ("bo", 2)]
    assert posts[0].content == forged.partition(": ")[2]


def test_an_author_map_naming_nobody_is_refused() -> None:
    source = Source(read_discord(export(message("11"))))
    error = refusal(lambda: triage([source], Cast({"zed": "alpha"}, [])))
    assert (error.code, error.details) == ("unknown_author", {"key": "zed"})


def test_posts_of_the_same_millisecond_are_ordered_by_message_id() -> None:
    late = message("30", timestamp="2024-05-01T10:00:00.0009Z")
    early = message("29", timestamp="2024-05-01T10:00:00.0001Z")
    merged = triage([Source(read_discord(export(late, early)))], Cast({"ann": "alpha"}, []))
    assert [t.post.message_id for t in merged] == ["29", "30"]


REGISTERED = "[2024-05-01T12:00:00Z] ann: A a1\n[2024-05-01T12:00:01Z] bo: B b2\n" + (
    "[2024-05-01T12:00:02Z] qm: end_round\n[2024-05-01T12:00:03Z] cy: hi"
)


def roles(cast: Cast) -> dict[str, tuple[str | None, str | None]]:
    triaged = triage([Source(read_text(REGISTERED))], cast)
    return {t.post.author.name: (t.role, t.seat) for t in triaged}


def test_registered_authors_take_their_seats_unless_the_hosts_map_names_them() -> None:
    registered = {"ann": "alpha", "bo": "beta", "never-posted": "beta"}
    assert roles(Cast({}, ["qm"], registered)) == {
        "ann": ("seat", "alpha"),
        "bo": ("seat", "beta"),
        "qm": ("host", None),
        "cy": (None, None),
    }
    # the host's own map wins: bo named as a host, ann given the other seat
    mapped = roles(Cast({"ANN": "beta"}, ["qm", "bo"], registered))
    assert mapped["ann"] == ("seat", "beta") and mapped["bo"] == ("host", None)
    # without the registration, the same authors are spectators
    assert roles(Cast({}, ["qm"]))["ann"] == (None, None)


def test_an_author_registered_for_both_seats_is_refused_unless_the_host_maps_it() -> None:
    both = {"ann": "alpha", "Ann": "beta"}
    error = refusal(lambda: roles(Cast({}, [], both)))
    assert error.code == "ambiguous_author"
    assert roles(Cast({"ann": "beta"}, [], both))["ann"] == ("seat", "beta")


# The bytes path (an uploaded file, a CLI file): the same posts and the same errors.


def encoded(data: Any) -> bytes:
    return json.dumps(data).encode()


def both(data: Any) -> list[TranscriptError]:
    """The refusal of the loaded JSON and of its bytes (as bytes and as a memoryview)."""
    raw = encoded(data)
    calls = (lambda: read_discord(data), lambda: read_discord(raw))
    return [*(refusal(c) for c in calls), refusal(lambda: read_discord(memoryview(raw)))]


def test_the_bytes_of_an_export_read_as_the_loaded_json_does() -> None:
    everything = message(
        "11",
        timestampEdited="2024-05-01T12:01:00+02:00",
        callEndedTimestamp=None,
        isPinned=False,
        attachments=[{"id": "1", "url": "x", "fileName": "a.png", "fileSizeBytes": 3}],
        embeds=[{"title": "t", "fields": []}],
        stickers=[],
        reactions=[{"emoji": {"id": "", "name": "👍"}, "count": 2, "users": []}],
        mentions=[{"id": "8", "name": "bob"}],
        inlineEmojis=[],
        reference={"messageId": "10", "channelId": "9", "guildId": "1"},
    )
    everything["author"] = {
        "id": "7", "name": "ann", "discriminator": "0000", "nickname": "Ann", "color": "#fff",
        "isBot": False, "roles": [{"id": "1", "name": "r"}], "avatarUrl": "https://x",
    }  # fmt: skip
    system = message("12", type="ChannelPinnedMessage", content="")
    data = export(everything, system, message("13", author={"id": 5, "isBot": True}))
    loaded = read_discord(data)
    assert read_discord(encoded(data)) == loaded
    assert read_discord(bytearray(encoded(data))) == loaded
    assert loaded.posts[0].edited_at is not None and loaded.posts[0].author.nickname == "Ann"
    assert loaded.posts[1].system == "ChannelPinnedMessage"
    assert loaded.posts[2].author.id == "5" and loaded.posts[2].author.is_bot


def test_an_authors_posts_share_one_author() -> None:
    posts = read_discord(encoded(export(message("11"), message("12")))).posts
    assert posts[0].author is posts[1].author


def test_bytes_that_are_not_an_export_are_refused() -> None:
    cases: list[Any] = [{"messages": "x"}, [1, 2], {"messages": []}, {"channel": {"id": "9"}}]
    for data in cases:
        assert {e.code for e in both(data)} == {"not_an_export"}, data
    for raw in (b"", b"{", b"not json", b'{"messages": [}', "{}".encode("utf-16")):
        assert refusal(lambda raw=raw: read_discord(raw)).code == "not_an_export", raw


def test_bytes_with_a_bad_message_name_it() -> None:
    for bad in ("a string", 7, None):
        errors = both(export(message("11"), bad))  # type: ignore[arg-type]
        assert {e.code for e in errors} == {"bad_message"}
        assert all(e.details == {"index": 1} for e in errors), [e.details for e in errors]
    without_id = both(export(message("11"), {"timestamp": "2024-05-01T12:00:00Z"}))
    assert {(e.code, str(e.details)) for e in without_id} == {("bad_message", "{'index': 1}")}
    no_author = both(export(message("11", author=None)))
    assert {(e.code, str(e.details)) for e in no_author} == {
        ("bad_message", "{'message_id': '11'}")
    }


def test_bytes_with_a_bad_timestamp_name_the_message() -> None:
    cases = {
        "missing_timestamp": message("12", timestamp=None),
        "bad_timestamp": message("12", timestamp="yesterday"),
        "timestamp_without_offset": message("12", timestamp="2024-05-01T12:00"),
    }
    for code, bad in cases.items():
        errors = both(export(message("11"), bad))
        assert {(e.code, str(e.details)) for e in errors} == {(code, "{'message_id': '12'}")}
    edited = both(export(message("12", timestampEdited="soon")))
    assert {e.code for e in edited} == {"bad_timestamp"}
