"""The host referees a Zoom match from its channel's export in the console: preview (posts
that need a look first), exclude or correct posts, then enter, and the grid and the record show
what the posts found."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx

from tests.api.test_transcript_zoom import CONFIG, FIXTURE
from tests.browser.conftest import OPERATOR, shot

# A round of Zoom in a channel: a near miss ("A c4 lol"), a spectator, an edited post that
# finds B and ends the round, then alice's "B c3", refused unless the edited post is left out.
NEAR_MISS = Path(__file__).parents[1] / "fixtures" / "transcripts" / "zoom-near-miss.json"
LOL, EDITED, LATE = "1300000000000000002", "1300000000000000005", "1300000000000000006"
BUZZ_A_C4 = {"type": "buzz", "pairs": [{"target": "A", "at": "c4"}]}


def create(base: str) -> tuple[str, str, str]:
    """A match with the fixtures' supplied grids, created over HTTP: the host's console link,
    the match id and the host's token."""
    body = {"game": "zoom", "seats": ["alpha", "beta"], "advantage": "beta", "config": CONFIG}
    made = httpx.post(
        f"{base}/matches", json={**body, "seed": 5}, headers={"Authorization": f"Bearer {OPERATOR}"}
    ).json()
    fragment = urlencode({"role": "host", "token": made["tokens"]["host"]})
    link = f"{base}/console/matches/{made['match_id']}#{fragment}"
    return link, made["match_id"], made["tokens"]["host"]


def row(page: Any, message: str) -> Any:
    return page.locator(f"#transcript-rows tr.post[data-message='{message}']")


def old_row(page: Any, message: str) -> Any:
    return row(page, f"12000000000000000{message}")


def upload(host: Any, base: str, fixture: Path) -> tuple[str, str]:
    """Open the host's console, choose ``fixture`` and map alice (by id), bob and the host."""
    link, match_id, token = create(base)
    host.goto(link)
    host.wait_for_selector("#transcript-form")
    assert host.input_value("#transcript-seat-alpha") == "alpha"  # prefilled from the seats
    host.set_input_files("#transcript-files", str(fixture))
    host.wait_for_selector(f"#transcript-file-list li:has-text('{fixture.name}')")
    host.fill("#transcript-seat-alpha", "101")
    host.fill("#transcript-seat-beta", "bob")
    host.fill("#transcript-hosts", "Quizmaster")
    return match_id, token


def answers(host: Any, action: str) -> list[Any]:
    """Every response of the page to ``/transcript/<action>``, as they come."""
    seen: list[Any] = []
    host.on("response", lambda r: seen.append(r) if f"/transcript/{action}" in r.url else None)
    return seen


def events(base: str, match_id: str, token: str) -> list[dict[str, Any]]:
    url = f"{base}/matches/{match_id}/events"
    found: list[dict[str, Any]] = httpx.get(
        url, headers={"Authorization": f"Bearer {token}"}
    ).json()
    return found


def test_the_host_previews_and_enters_a_zoom_export(server: str, contexts: Any) -> None:
    host = contexts()
    upload(host, server, FIXTURE)
    host.focus("#transcript-preview-button")
    host.keyboard.press("Enter")
    host.wait_for_selector("#transcript-rows")

    refused = old_row(host, "05")
    assert refused.get_attribute("data-status") == "refused"
    assert refused.locator(".becomes").inner_text() == "refused by the rules"
    assert refused.locator(".outcome").inner_text() == "refused: 'z9' is outside the grid"
    assert refused.locator(".command").inner_text() == "buzz A z9"
    assert old_row(host, "09").locator(".becomes").inner_text() == "ignored: chatter"
    assert old_row(host, "17").locator(".becomes").inner_text() == "ignored: a host's remark"
    assert old_row(host, "04").locator(".becomes").inner_text() == "ignored: a bot's post"
    pinned = old_row(host, "12").locator(".becomes").inner_text()
    assert pinned == "ignored: a system message (channel pinned message)"
    edited = old_row(host, "11").locator(".becomes").inner_text()
    assert "edited after posting" in edited and "2024-05-01T13:00:45+02:00" in edited
    assert old_row(host, "11").locator(".outcome").inner_text() == "B c3: correct\nseq 7"
    assert (
        old_row(host, "07")
        .locator(".outcome")
        .inner_text()
        .startswith("A b2: ineligible (already found)")
    )
    assert old_row(host, "14").locator(".command").inner_text() == "start round 2"
    # the host's "starting soon" and the edit need a look: listed first, in their own group
    first = host.locator("#transcript-rows tbody.transcript-needs-look tr.post")
    assert [first.nth(i).get_attribute("data-message") for i in range(first.count())] == [
        "1200000000000000001",
        "1200000000000000011",
    ]
    assert "looks like a command" in old_row(host, "01").locator(".becomes").inner_text()
    assert old_row(host, "11").locator("input.exclude").count() == 1
    assert old_row(host, "10").locator("input.exclude").count() == 1
    assert old_row(host, "05").locator("button.correct").count() == 1  # alice's: correctable
    assert old_row(host, "03").locator("button.correct").count() == 0  # a spectator's
    assert old_row(host, "10").locator("button.correct").count() == 0  # already a command
    assert "Nothing is recorded" in host.inner_text("#transcript-status")
    assert "2 need a look" in host.inner_text("#transcript-status")
    assert host.is_hidden("#transcript-pages")  # one page holds every post
    assert host.locator("#grid").count() == 0  # the preview recorded nothing
    shot(host, "transcript-preview")

    box = old_row(host, "11").locator("input.exclude")
    box.focus()
    host.keyboard.press("Space")  # excluding re-runs the preview at once
    host.wait_for_selector("#transcript-rows tr[data-status=excluded]")
    assert old_row(host, "11").get_attribute("data-status") == "excluded"
    old_row(host, "11").locator("input.exclude").uncheck()
    host.wait_for_selector(
        "#transcript-rows tr[data-message='1200000000000000011'][data-status=flagged]"
    )
    host.wait_for_selector("#transcript-enter:enabled")

    host.click("#transcript-enter")
    host.wait_for_selector("#transcript-status:has-text('Entered 9 command(s)')")
    host.wait_for_selector("#grid .outline:has-text('A · alpha')")
    assert host.locator("#grid .outline:has-text('B · beta')").count() == 1
    assert old_row(host, "16").locator(".outcome").inner_text() == "A d4: correct\nseq 11"
    assert host.is_visible("#transcript-result")
    assert host.errors == []


def test_the_host_corrects_a_near_miss_listed_first(server: str, contexts: Any) -> None:
    host = contexts()
    match_id, token = upload(host, server, NEAR_MISS)
    previews = answers(host, "preview")
    host.click("#transcript-preview-button")
    host.wait_for_selector("#transcript-rows")

    assert previews[0].request.headers["content-type"].startswith("multipart/form-data")
    first = host.locator("#transcript-rows tr.post").first
    assert first.get_attribute("data-message") == LOL  # flagged first, though not first in time
    assert host.locator("#transcript-rows tbody.transcript-needs-look tr.post").count() == 2
    assert "Needs a look" in host.inner_text("#transcript-rows tbody.transcript-needs-look")
    lol = row(host, LOL)
    assert lol.locator(".becomes").inner_text().startswith("looks like a command: ")
    assert "Not entered unless corrected" in lol.locator(".becomes").inner_text()

    lol.locator("button.correct").click()
    form = host.locator(f"tr.transcript-correct[data-message='{LOL}']")
    assert form.locator(".correct-command").input_value() == ""  # a near miss has no command
    form.locator(".correct-command").fill(json.dumps(BUZZ_A_C4))
    form.locator("button.save-correction").click()  # the reason is required
    assert form.is_visible() and len(previews) == 1
    form.locator(".correct-reason").fill("the lol is banter")
    form.locator("button.save-correction").click()

    corrected = f"#transcript-rows tr.post[data-message='{LOL}'][data-reading=host]"
    host.wait_for_selector(f"{corrected}[data-status=command]")
    host.wait_for_selector("#transcript-enter:enabled")
    assert len(previews) == 2  # saving re-ran the preview
    mine = next(p for p in previews[-1].json()["posts"] if p["message_id"] == LOL)
    assert (mine["status"], mine["reading"], mine["enters"]) == ("command", "host", True)
    assert mine["command"] == {**BUZZ_A_C4, "seat": "alpha"}  # the service's answer, drawn
    lol = row(host, LOL)
    assert "corrected by the host: the lol is banter" in lol.locator(".becomes").inner_text()
    assert lol.locator(".command").inner_text() == "buzz A c4\nread by the host"
    assert lol.locator(".outcome").inner_text().startswith("A c4: incorrect")
    assert lol.locator("button.uncorrect").count() == 1
    assert host.locator("#transcript-rows tbody.transcript-needs-look tr.post").count() == 1
    shot(host, "transcript-corrected")

    entered = answers(host, "enter")
    host.click("#transcript-enter")
    host.wait_for_selector("#transcript-status:has-text('Entered 4 command(s)')")
    answer = entered[0].json()
    mine = next(p for p in answer["posts"] if p["message_id"] == LOL)
    assert (mine["status"], mine["reading"]) == ("command", "host")
    assert row(host, LOL).locator(".outcome .seqs").inner_text() == f"seq {mine['seqs'][0]}"
    recorded = events(server, match_id, token)
    source = next(e["source"] for e in recorded if e["seq"] == mine["seqs"][0])
    assert source["message_id"] == LOL
    assert (source["reading"], source["reason"]) == ("host", "the lol is banter")
    assert host.errors == []


def test_excluding_a_flagged_post_previews_again_before_enter(server: str, contexts: Any) -> None:
    """The defect: excluding a flagged post did not re-run the preview, and Enter recorded what
    the preview did not show (alice's refused "B c3" became a point)."""
    host = contexts()
    match_id, token = upload(host, server, NEAR_MISS)
    previews = answers(host, "preview")
    host.click("#transcript-preview-button")
    host.wait_for_selector("#transcript-rows")
    assert row(host, LATE).get_attribute("data-status") == "refused"
    assert row(host, EDITED).get_attribute("data-status") == "flagged"

    held: list[Any] = []

    def hold(route: Any) -> None:
        held.append(route)

    host.route("**/transcript/preview*", hold)
    row(host, EDITED).locator("input.exclude").check()
    host.wait_for_timeout(50)
    assert len(held) == 1  # the preview is asked again at once...
    assert host.is_disabled("#transcript-enter")  # ...and Enter waits for its answer
    assert host.is_visible(".transcript-stale")
    held[0].continue_()
    host.unroute("**/transcript/preview*")

    host.wait_for_selector(f"#transcript-rows tr.post[data-message='{LATE}'][data-status=command]")
    host.wait_for_selector("#transcript-enter:enabled")
    assert row(host, EDITED).get_attribute("data-status") == "excluded"
    assert row(host, LATE).locator(".outcome").inner_text().startswith("B c3: correct")
    assert len(previews) == 2
    shown = previews[-1].json()["posts"]

    entered = answers(host, "enter")
    host.click("#transcript-enter")
    host.wait_for_selector("#transcript-status:has-text('Entered 3 command(s)')")
    done = entered[0].json()
    assert next(p for p in done["posts"] if p["message_id"] == EDITED)["status"] == "excluded"

    def what(posts: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            p["message_id"]: (p["command"], p["outcome"], p["seqs"]) for p in posts if p["enters"]
        }

    assert what(done["posts"]) == what(shown)  # entered: exactly what the last preview showed
    recorded = {
        e["source"]["message_id"]: e["seq"]
        for e in events(server, match_id, token)
        if e.get("source")
    }
    assert recorded == {p["message_id"]: p["seqs"][0] for p in shown if p["enters"]}
    assert EDITED not in recorded
    assert host.errors == []


def test_a_long_export_comes_a_page_at_a_time(server: str, contexts: Any) -> None:
    host = contexts()
    upload(host, server, NEAR_MISS)
    host.fill("#transcript-limit", "3")
    host.click("#transcript-preview-button")
    host.wait_for_selector("#transcript-rows")

    def messages() -> list[str]:
        rows = host.locator("#transcript-rows tr.post")
        return [rows.nth(i).get_attribute("data-message")[-2:] for i in range(rows.count())]

    assert host.inner_text("#transcript-showing").startswith("Showing 3 of 8 posts")
    assert messages() == ["02", "05", "01"]  # flagged first, then in game-time order
    assert host.is_disabled("#transcript-prev")
    host.click("#transcript-next")
    host.wait_for_selector("#transcript-rows tr.post[data-message$='03']")
    assert messages() == ["03", "04", "06"]
    host.click("#transcript-next")
    host.wait_for_selector("#transcript-rows tr.post[data-message$='07']")
    assert messages() == ["07", "08"]
    assert host.is_disabled("#transcript-next")
    assert host.inner_text("#transcript-showing").startswith("Showing 2 of 8 posts")
    host.click("#transcript-prev")
    host.wait_for_selector("#transcript-rows tr.post[data-message$='03']")
    host.wait_for_selector("#transcript-enter:enabled")  # any page of the current preview
    assert host.errors == []


def test_a_refused_correction_leaves_enter_off_until_it_is_undone(
    server: str, contexts: Any
) -> None:
    host = contexts()
    upload(host, server, NEAR_MISS)
    host.click("#transcript-preview-button")
    host.wait_for_selector("#transcript-enter:enabled")

    late = row(host, LATE)
    late.locator("button.correct").click()
    form = host.locator(f"tr.transcript-correct[data-message='{LATE}']")
    prefilled = json.loads(form.locator(".correct-command").input_value())
    assert prefilled == {"type": "buzz", "pairs": [{"target": "B", "at": "c3"}]}  # her seat's
    form.locator(".correct-command").fill(json.dumps({**prefilled, "seat": "beta"}))
    form.locator(".correct-reason").fill("bob typed it on her phone")
    form.locator("button.save-correction").click()

    host.wait_for_selector("#transcript-error:has-text('correction_wrong_seat')")
    assert host.is_disabled("#transcript-enter")
    assert "failed" in host.inner_text(".transcript-stale")
    assert "corrected by the host: bob typed it" in row(host, LATE).inner_text()
    row(host, LATE).locator("button.uncorrect").click()
    host.wait_for_selector("#transcript-enter:enabled")
    assert row(host, LATE).get_attribute("data-status") == "refused"
    assert row(host, LATE).locator("button.correct").count() == 1
    assert host.is_hidden("#transcript-error")
    assert host.errors == []
