"""The class vote end to end in a real browser: headless Chromium (Debian's chromium and chromium-driver,
driven by selenium) opens the page the vote server serves on loopback, types the room code and votes,
and the session's tally counts what it sent.

It runs wherever the browser is installed; under .ci/run (CI_REQUIRE_BROWSER=1) a missing browser fails
the run with the packages to install, elsewhere the test is skipped and says why."""

from __future__ import annotations

import os
import shutil
import socket
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
# what a phone shows: the narrow screen the page is made for
PHONE = (360, 740)
# a browser starts, loads and reacts in well under this on the slowest shared machine
WAIT_MS = 20_000
# a closed network: nothing in the browser may reach out on its own
CHROMIUM_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync")


def browser_missing() -> list[str]:
    missing = [f"{path} (Debian package {package})" for path, package in
               ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")) if not path.exists()]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("the selenium module (pip install -e '.[test]')")
    return missing


@pytest.fixture(scope="module", autouse=True)
def _browser_installed():
    missing = browser_missing()
    if not missing:
        return
    why = ("the class-vote browser test needs Debian's chromium and chromium-driver and selenium; missing: "
           + ", ".join(missing) + ". As root, bash tools/test.sh installs them "
           "(or: sudo apt-get install chromium chromium-driver)")
    if os.environ.get("CI_REQUIRE_BROWSER") == "1":
        pytest.fail(why, pytrace=False)
    pytest.skip(why)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Room:
    """The teacher's side: the session the projector drives and the server that shows it to phones."""

    session: object
    server: object
    address: str

    def ask(self, question) -> None:
        self.session.show(question)
        self.session.open_round()
        self.server.changed()

    def close(self) -> None:
        self.session.close_round()
        self.server.changed()

    def again(self) -> None:
        self.session.open_round()
        self.server.changed()

    def show_nothing(self) -> None:
        self.session.show(None)
        self.server.changed()


@pytest.fixture
def room(qtbot):
    from app.vote_server import VoteServer
    from engine.vote.ballot import VoteSession

    session = VoteSession()
    server = VoteServer(session, host="127.0.0.1", port=free_port())
    with qtbot.waitSignal(server.started, timeout=WAIT_MS) as started:
        server.start()
    yield Room(session, server, started.args[0])
    server.stop()


class Phone:
    """One student's browser: its own profile, so its own voter token."""

    def __init__(self, qtbot, profile: Path, address: str, *, streams: bool = True):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        options = webdriver.ChromeOptions()
        for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--window-size={},{}".format(*PHONE)):
            options.add_argument(flag)
        self.driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 1, "mobile": True})
        if not streams:  # a browser, or a proxy on the way, with no server-sent events
            self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                        {"source": "delete window.EventSource; window.EventSource = undefined;"})
        self.qtbot = qtbot
        self.driver.get(address + "/")

    def quit(self) -> None:
        self.driver.quit()

    def find(self, css: str):
        from selenium.webdriver.common.by import By

        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def text(self) -> str:
        return self.find("body")[0].text

    def until_says(self, words: str) -> None:
        """Waits, with Qt's events flowing for the server's signals, until the page shows ``words``."""
        def says() -> None:
            assert words.casefold() in self.text().casefold(), f"the page never said {words!r}: {self.text()!r}"
        self.qtbot.waitUntil(says, timeout=WAIT_MS)

    def error(self) -> str:
        """The error line once it says something."""
        def said() -> None:
            assert self.find("#error")[0].text, "the page showed no error"
        self.qtbot.waitUntil(said, timeout=WAIT_MS)
        return self.find("#error")[0].text

    def fits_a_phone(self) -> None:
        """Nothing scrolls sideways at 360 px, every visible button is a thumb's size, no text under 18 px."""
        width, small_buttons, small_text = self.driver.execute_script("""
            const shown = [...document.querySelectorAll("body *")].filter(e => e.getClientRects().length);
            const small = shown.filter(e => e.tagName === "BUTTON")
                .map(b => b.getBoundingClientRect()).filter(r => r.width < 48 || r.height < 48).length;
            const texts = shown.filter(e => [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()));
            return [document.documentElement.scrollWidth, small,
                    texts.filter(e => parseFloat(getComputedStyle(e).fontSize) < 18).map(e => e.textContent)];
        """)
        assert width <= PHONE[0] and small_buttons == 0 and small_text == []

    def join(self, code: str) -> None:
        self.find("#code")[0].send_keys(code)

    def choices(self):
        return self.find(".choice")

    def tap(self, index: int) -> None:
        self.choices()[index].click()

    def type_answer(self, text: str) -> None:
        field = self.find("#typed")[0]
        field.clear()
        field.send_keys(text)

    def send(self) -> None:
        self.find("#answer .send")[0].click()


@pytest.fixture
def phones(qtbot, tmp_path):
    opened: list[Phone] = []

    def open_phone(address: str, streams: bool = True) -> Phone:
        profile = tmp_path / f"profile-{len(opened)}"
        profile.mkdir()
        opened.append(Phone(qtbot, profile, address, streams=streams))
        return opened[-1]

    yield open_phone
    for phone in opened:
        phone.quit()
    shutil.rmtree(tmp_path, ignore_errors=True)


def pair_question(qid: str = "merge-1"):
    from engine.vote.question import VoteOption, VoteQuestion

    pairs = (("e", "s"), ("s", "t"), ("t", "</w>"))
    options = tuple(VoteOption(str(i), f"{a} + {b}", (a, b)) for i, (a, b) in enumerate(pairs))
    return VoteQuestion(qid, "pair", "Which pair merges next?", options, correct=("0",))


def until(qtbot, check) -> None:
    qtbot.waitUntil(check, timeout=WAIT_MS)


def test_a_class_votes_on_a_pair_changes_its_mind_and_votes_again(qtbot, room, phones):
    room.ask(pair_question())
    ana = phones(room.address)
    ana.join("0000" if room.session.room_code != "0000" else "1111")
    assert ana.error()  # the server's sentence
    assert ana.find("#join")[0].is_displayed() and not ana.find("#room")[0].is_displayed()
    ana.join(room.session.room_code)
    ana.until_says("Which pair merges next?")
    tiles = [[t.text for t in choice.find_elements("css selector", ".tile")] for choice in ana.choices()]
    assert tiles == [["e", "s"], ["s", "t"], ["t", "</w>"]]

    ana.tap(1)
    ana.until_says("your vote: s + t")
    ana.fits_a_phone()
    until(qtbot, lambda: counted(room) == (1, {"1": 1}))
    ana.tap(0)  # a change of mind replaces the vote: still one voter
    ana.until_says("your vote: e + s")
    until(qtbot, lambda: counted(room) == (1, {"0": 1}))

    ben = phones(room.address)  # another browser: another voter token
    ben.join(room.session.room_code)
    ben.until_says("Which pair merges next?")
    ben.tap(0)
    ben.until_says("your vote: e + s")
    until(qtbot, lambda: counted(room) == (2, {"0": 2}))

    ana.driver.refresh()  # the room code stays for the visit and the voter token for the browser
    ana.until_says("your vote: e + s")
    assert not ana.find("#join")[0].is_displayed()
    ana.tap(1)
    ana.until_says("your vote: s + t")
    until(qtbot, lambda: counted(room) == (2, {"0": 1, "1": 1}))  # the same voter, not a third

    room.close()
    ana.until_says("round closed")
    ben.until_says("round closed")
    assert not any(choice.is_enabled() for choice in ana.choices())

    room.again()
    ana.until_says("round 2")
    assert "your vote" not in ana.text().casefold()  # a new round starts with no vote
    ana.tap(2)
    ana.until_says("your vote: t + </w>")
    until(qtbot, lambda: counted(room) == (1, {"2": 1}))

    room.show_nothing()
    ana.until_says("wait for the next question")
    ben.until_says("wait for the next question")


def counted(room: Room) -> tuple[int, dict[str, int]]:
    """The open or last round as the projector reads it: how many voted, and each answer given."""
    tally = room.session.tally()
    return tally.voters, {key: n for key, n in tally.counts.items() if n}


def quiz_question(qid: str, kind: str, prompt: str, labels: tuple[str, ...] = (), correct: tuple[str, ...] = ()):
    from engine.vote.question import VoteOption, VoteQuestion

    options = tuple(VoteOption(str(i), label) for i, label in enumerate(labels))
    return VoteQuestion(qid, kind, prompt, options, correct)


def test_every_quiz_kind_is_answered_from_the_phone(qtbot, room, phones):
    phone = phones(room.address)
    phone.join(room.session.room_code)
    phone.until_says("wait for the next question")

    room.ask(quiz_question("quiz-1", "choose", "Which one is a token?", ("low", "lo w", "l"), ("0",)))
    phone.until_says("Which one is a token?")
    phone.tap(1)
    phone.until_says("your vote: lo w")
    until(qtbot, lambda: counted(room) == (1, {"1": 1}))

    room.ask(quiz_question("quiz-2", "multi", "Which are in the vocabulary?", ("es", "st", "est</w>"), ("0", "2")))
    phone.until_says("Which are in the vocabulary?")
    phone.tap(2)
    phone.tap(0)
    phone.tap(1)
    phone.tap(1)  # tapped twice: not chosen after all
    phone.send()
    phone.until_says("your vote: es, est</w>")
    until(qtbot, lambda: counted(room) == (1, {"0": 1, "2": 1}))

    room.ask(quiz_question("quiz-3", "number", "How many symbols before any merge?", correct=("95",)))
    phone.until_says("How many symbols before any merge?")
    phone.type_answer("twelve")
    phone.send()
    assert "number" in phone.error()  # refused on the phone, nothing sent
    assert counted(room) == (0, {})
    phone.type_answer("95")
    phone.send()
    phone.until_says("your vote: 95")
    until(qtbot, lambda: counted(room) == (1, {"95": 1}))

    room.ask(quiz_question("quiz-4", "fill", "The end-of-word marker is written …", correct=("</w>",)))
    phone.until_says("The end-of-word marker is written")
    phone.type_answer("  </W> ")
    phone.send()
    phone.until_says("your vote: </W>")
    until(qtbot, lambda: counted(room) == (1, {"</w>": 1}))

    room.ask(quiz_question("quiz-5", "order", "Put the merges in order", ("l + o", "e + s", "es + t"), ("1", "2", "0")))
    phone.until_says("Put the merges in order")
    phone.fits_a_phone()
    first_down = phone.find(".order li")[0].find_elements("css selector", "button")[1]
    first_down.click()  # l + o below e + s
    phone.find(".order li")[1].find_elements("css selector", "button")[1].click()  # and below es + t
    phone.send()
    phone.until_says("your vote: e + s → es + t → l + o")
    until(qtbot, lambda: counted(room) == (1, {"1,2,0": 1}))


def test_a_phone_without_live_events_follows_the_lesson_by_polling(qtbot, room, phones):
    phone = phones(room.address, streams=False)
    phone.join(room.session.room_code)
    phone.until_says("wait for the next question")
    room.ask(pair_question())
    phone.until_says("Which pair merges next?")
    phone.tap(2)
    phone.until_says("your vote: t + </w>")
    until(qtbot, lambda: counted(room) == (1, {"2": 1}))
    room.close()
    phone.until_says("round closed")
