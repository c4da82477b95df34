"""The class vote's server on loopback: what it serves, what it refuses, and that nothing listens
outside a vote session."""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path

import pytest

import app.vote_server as vote_server
from app.vote_http import Limits
from app.vote_server import MISSING_PAGE, PORT_TRIES, VoteServer, vote_page
from engine.vote.ballot import VoteSession
from tests.engine.vote.questions import CHOOSE, PAIR

from .vote_client import EventStream, free_port, ports_held, refused, request, state, vote

CODE = "2468"
ALICE, BOB = "alice-token-0001", "bob-token-000002"


@pytest.fixture
def serve(qtbot):
    """A started server on a free loopback port over a session showing PAIR with round 1 open."""
    servers = []

    def start(limits: Limits | None = None, question=PAIR):
        session = VoteSession(CODE)
        if question is not None:
            session.show(question)
            session.open_round()
        server = VoteServer(session, host="127.0.0.1", port=free_port(), limits=limits)
        servers.append(server)
        with qtbot.waitSignal(server.started, timeout=5000):
            server.start()
        return server, int(server.address.rsplit(":", 1)[1])

    yield start
    for server in servers:
        server.stop()


def test_nothing_listens_before_start_or_after_stop(qtbot):
    port = free_port()
    server = VoteServer(VoteSession(CODE), host="127.0.0.1", port=port)
    assert refused(port) and not server.running
    with qtbot.waitSignal(server.started) as started:
        server.start()
    assert started.args == [f"http://127.0.0.1:{port}"] and server.address == started.args[0]
    assert not refused(port)
    with pytest.raises(ConnectionRefusedError):  # bound to the one address asked for, not to every interface
        socket.create_connection(("127.0.0.2", port), timeout=2).close()
    thread = server._thread
    with qtbot.waitSignal(server.stopped):
        server.stop()
    assert refused(port) and not thread.is_alive() and not server.running
    server.stop()  # again: nothing to do
    with qtbot.waitSignal(server.started):
        server.start()  # a second session on the same machine
    second = int(server.address.rsplit(":", 1)[1])
    assert not refused(second)
    server.stop()
    assert refused(second) and refused(port)


def test_the_application_quitting_stops_a_server_left_running(qtbot, qapp):
    server = VoteServer(VoteSession(CODE), host="127.0.0.1", port=free_port())
    with qtbot.waitSignal(server.started):
        server.start()
    thread = server._thread
    with qtbot.waitSignal(server.stopped):
        qapp.aboutToQuit.emit()
    assert not thread.is_alive() and refused(server.port)


def test_a_busy_port_moves_to_the_next_and_ten_busy_ports_fail_in_one_sentence(qtbot):
    port, blockers = ports_held(PORT_TRIES)
    try:
        server = VoteServer(VoteSession(CODE), host="127.0.0.1", port=port)
        with qtbot.waitSignal(server.failed) as failed:
            server.start()
        assert "\n" not in failed.args[0] and f"{port} to {port + PORT_TRIES - 1}" in failed.args[0]
        assert not server.running
        blockers.pop().close()  # the last one frees up
        with qtbot.waitSignal(server.started) as started:
            server.start()
        assert started.args == [f"http://127.0.0.1:{port + PORT_TRIES - 1}"]
        server.stop()
    finally:
        for s in blockers:
            s.close()


def test_an_address_not_on_this_machine_fails_in_one_sentence(qtbot):
    server = VoteServer(VoteSession(CODE), host="192.0.2.123", port=free_port())  # TEST-NET: nobody's
    with qtbot.waitSignal(server.failed) as failed:
        server.start()
    assert failed.args[0].startswith("Cannot listen on 192.0.2.123 port") and "\n" not in failed.args[0]
    assert not server.running


def test_no_network_says_so_and_listens_nowhere(qtbot, monkeypatch):
    monkeypatch.setattr(vote_server, "choose_address", lambda: None)
    server = VoteServer(VoteSession(CODE), port=free_port())
    with qtbot.waitSignal(server.failed) as failed:
        server.start()
    assert "no network" in failed.args[0] and not server.running and refused(server.port)


def test_the_page_is_served_at_the_root_with_a_policy_allowing_only_its_own_script(serve):
    server, port = serve()
    for path in ("/", "/index.html"):
        status, body, response = request(port, "GET", path)
        assert status == 200 and body == vote_page()
        assert response.getheader("Content-Type") == "text/html; charset=utf-8"
        policy = response.getheader("Content-Security-Policy")
        assert "default-src 'none'" in policy and "connect-src 'self'" in policy and "http" not in policy
        assert response.getheader("Server") == "BPE Lab"


def test_a_missing_page_is_a_one_line_page_saying_so(monkeypatch, tmp_path):
    monkeypatch.setattr(vote_server.resources, "files", lambda package: Path(tmp_path))
    assert vote_page() == MISSING_PAGE and MISSING_PAGE.count(b"\n") == 1 and b"missing" in MISSING_PAGE
    (tmp_path / "vote").mkdir()
    (tmp_path / "vote" / "page.html").write_bytes(b"<p>the page</p>")
    assert vote_page() == b"<p>the page</p>"


@pytest.mark.parametrize("path", ["/etc/passwd", "/../pyproject.toml", "/resources/vote/page.html", "/api",
                                  "/page.html", "/static/x.js", "/%2e%2e/app/main.py"])
def test_no_other_path_is_served(serve, path):
    server, port = serve()
    status, body, _ = request(port, "GET", path)
    assert status == 404 and set(body) == {"error"}


def test_the_state_tells_the_phone_the_question_without_the_answer(serve):
    server, port = serve()
    status, data = state(port, CODE, ALICE)
    assert status == 200 and data == server.session.phone_state(ALICE)
    assert data["status"] == "open" and data["question"] == PAIR.to_json() and data["mine"] is None
    assert vote(port, CODE, ALICE, "merge-1", "2") == (200, {"ok": True})
    assert state(port, CODE, ALICE)[1]["mine"] == "2"
    assert state(port, CODE, ALICE)[1]["question"] == PAIR.to_json()  # never `correct` nor `note`
    assert state(port, CODE, "short")[0] == 400


def test_wrong_codes_are_refused_then_rate_limited_for_that_peer_only(serve):
    server, port = serve()
    for attempt in range(5):
        status, data = state(port, f"{attempt:04d}", ALICE)
        assert status == 403 and set(data) == {"error"}
    assert state(port, "9999", ALICE)[0] == 429
    assert state(port, CODE, ALICE)[0] == 429  # the right code too: guessing stays locked out
    assert vote(port, CODE, ALICE, "merge-1", "0")[0] == 429
    # another phone on the network still votes
    assert state(port, CODE, BOB, source="127.0.0.2")[0] == 200
    assert vote(port, CODE, BOB, "merge-1", "1", source="127.0.0.2") == (200, {"ok": True})
    assert server.session.tally().counts == {"0": 0, "1": 1, "2": 0}


def test_a_vote_posted_by_another_site_s_page_is_refused(serve):
    server, port = serve()
    body = json.dumps({"code": CODE, "voter": ALICE, "qid": "merge-1", "answer": "0"}).encode()
    for origin in ("http://evil.example", "null", f"http://127.0.0.1:{port + 1}"):
        status, data, _ = request(port, "POST", "/api/vote", body, headers={"Origin": origin, "Content-Type": "text/plain"})
        assert status == 403 and set(data) == {"error"}
    assert server.session.tally().voters == 0
    status, _, _ = request(port, "POST", "/api/vote", body, headers={"Origin": f"http://127.0.0.1:{port}"})
    assert status == 200 and server.session.tally().voters == 1


def test_a_wrong_code_in_a_vote_is_refused_and_not_counted(serve):
    server, port = serve()
    assert vote(port, "1357", ALICE, "merge-1", "0")[0] == 403
    assert server.session.tally().voters == 0


def test_an_oversize_body_is_refused(serve):
    server, port = serve()
    big = json.dumps({"code": CODE, "voter": ALICE, "qid": "merge-1", "answer": "0", "pad": "x" * 5000}).encode()
    status, data, _ = request(port, "POST", "/api/vote", big)
    assert status == 413 and set(data) == {"error"}
    # chunked, so no length is announced: refused while it is read
    chunks = iter([big[:3000], big[3000:]])
    status, data, _ = request(port, "POST", "/api/vote", chunks, headers={"Transfer-Encoding": "chunked"})
    assert status == 413
    assert server.session.tally().voters == 0


def test_a_broken_request_is_refused_and_logged_without_the_phone_s_address(serve, caplog):
    server, port = serve()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"POST /api/vote HTTP/1.1\r\nHost: room\r\nTransfer-Encoding: chunked\r\n\r\nnot a chunk\r\n")
        assert s.recv(100).split(b"\r\n")[0].endswith(b" 400 Bad Request")
    assert "Error handling request from a phone" in caplog.text and "127.0.0.1" not in caplog.text


@pytest.mark.parametrize("body", [
    b"not json", b"\xff\xfe{}", b"[]", b'"0"', b"{}", b'{"code": "2468", "voter": "alice-token-0001", "qid": "merge-1"}',
    b'{"code": "2468", "voter": "alice-token-0001", "qid": "merge-1", "answer": NaN}',
    b"[" * 4000, b"",
])
def test_malformed_json_is_refused(serve, body):
    server, port = serve()
    status, data, _ = request(port, "POST", "/api/vote", body)
    assert status == 400 and set(data) == {"error"}
    assert server.session.tally().voters == 0


def test_an_option_that_does_not_exist_is_unprocessable(serve):
    server, port = serve()
    for answer in ("7", "e + s"):
        status, data = vote(port, CODE, ALICE, "merge-1", answer)
        assert status == 422 and data == {"error": "No such option: choose one of the answers shown."}
    assert vote(port, CODE, ALICE, "merge-1", ["0"])[0] == 400  # the wrong shape for one choice
    assert server.session.tally().voters == 0


def test_a_vote_after_the_round_closed_or_for_another_question_is_a_conflict(serve):
    server, port = serve()
    assert vote(port, CODE, ALICE, "merge-1", "0")[0] == 200
    server.session.close_round()
    status, data = vote(port, CODE, ALICE, "merge-1", "1")
    assert status == 409 and set(data) == {"error"}
    server.session.show(CHOOSE)
    server.session.open_round()
    assert vote(port, CODE, ALICE, "merge-1", "1")[0] == 409
    assert server.session.tally().voters == 0
    assert server.session.results()[0].count == 1  # merge-1 round 1 kept Alice's "0"


def test_a_flood_from_one_voter_is_limited_while_another_voter_counts(serve):
    server, port = serve()
    answers, statuses = ["0", "1", "2"] * 17, []
    for i, answer in enumerate(answers):
        statuses.append(vote(port, CODE, ALICE, "merge-1", answer)[0])
        if i % 10 == 0:
            assert vote(port, CODE, BOB, "merge-1", str(i % 3), source="127.0.0.2") == (200, {"ok": True})
    assert set(statuses) == {200, 429} and statuses[:10] == [200] * 10
    last_counted = answers[max(i for i, s in enumerate(statuses) if s == 200)]
    counts = {"0": 0, "1": 0, "2": 0}
    counts[last_counted] += 1
    counts[str(50 % 3)] += 1  # Bob's last vote
    assert server.session.tally().counts == counts and server.session.tally().voters == 2


def test_votes_tell_the_window_at_most_every_tenth_of_a_second(serve, qtbot):
    server, port = serve()
    told = []
    server.tally_changed.connect(lambda: told.append(threading.current_thread() is threading.main_thread()))
    with qtbot.waitSignal(server.tally_changed, timeout=5000):
        for i in range(20):
            assert vote(port, CODE, f"voter-token-{i:05d}", "merge-1", "0")[0] == 200
    qtbot.wait(300)
    assert told and all(told)  # on the GUI thread
    assert len(told) < 20  # one notice for many votes


def test_events_send_the_state_at_once_and_on_every_change_then_end_on_stop(serve):
    server, port = serve(Limits(ping_every=0.2))
    stream = EventStream(port, CODE, ALICE)
    try:
        assert stream.head() == 200
        assert stream.next_state() == server.session.phone_state(ALICE)
        server.session.close_round()
        server.changed()
        assert stream.next_state()["status"] == "closed"
        assert stream.next_message() == ": still here"  # nothing changed: a comment keeps it open
        server.session.show(None)
        server.changed()
        assert stream.next_state()["status"] == "waiting"
        thread = server._thread
        server.stop()
        assert not thread.is_alive()
        with pytest.raises(EOFError):
            while True:
                stream.next_message()
    finally:
        stream.close()
    assert refused(port)


def test_joined_counts_each_phone_once_whether_it_listens_or_only_polls(serve):
    server, port = serve(Limits(present_for=0.5))
    assert server.joined == 0
    stream = EventStream(port, CODE, ALICE)
    try:
        assert stream.head() == 200 and stream.next_state()["status"] == "open"
        assert state(port, CODE, BOB)[0] == 200  # a phone whose browser has no live events
        assert state(port, CODE, ALICE)[0] == 200  # the listening phone polling as well
        assert state(port, "1111", "carol-token-0003")[0] == 403  # a wrong code joins nothing
        assert server.joined == 2 and server.clients == 1
        time.sleep(0.7)  # Bob has not asked again; Alice's stream is still open
        assert server.joined == 1
    finally:
        stream.close()


def test_stop_ends_many_open_streams_and_the_thread(serve):
    server, port = serve()
    streams = [EventStream(port, CODE, f"phone-token-{i:05d}") for i in range(50)]
    try:
        for s in streams:
            assert s.head() == 200 and s.next_state()["status"] == "open"
        thread = server._thread
        server.stop()
        assert not thread.is_alive() and refused(port)
        assert all(s.read_to_end().endswith(b"0\r\n\r\n") for s in streams)
    finally:
        for s in streams:
            s.close()


def test_a_connection_that_never_finishes_its_request_is_closed(serve):
    server, port = serve(Limits(idle_timeout=0.5, body_timeout=0.5))
    slow = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        slow.sendall(b"GET /api/state?code=2468 HTTP/1.1\r\nHost: ro")  # headers never end
        assert slow.recv(100) == b""  # closed by the server
        trickle = socket.create_connection(("127.0.0.1", port), timeout=10)
        trickle.sendall(b"POST /api/vote HTTP/1.1\r\nHost: room\r\nContent-Length: 100\r\n\r\n{\"code\"")
        assert trickle.recv(1000).startswith(b"HTTP/1.1 408")
        assert state(port, CODE, ALICE)[0] == 200  # everyone else is served meanwhile
        trickle.close()
    finally:
        slow.close()


def test_the_301st_client_is_told_the_room_is_full(serve):
    server, port = serve()
    streams = [EventStream(port, CODE, f"phone-token-{i:05d}") for i in range(300)]
    try:
        assert all(s.head() == 200 for s in streams)
        status, data = state(port, CODE, ALICE)
        assert status == 503 and data == {"error": "The room is full: try again in a moment."}
        assert vote(port, CODE, ALICE, "merge-1", "0")[0] == 503
        streams.pop().close()  # one phone leaves: its place is free again
        deadline = time.monotonic() + 10
        while state(port, CODE, ALICE)[0] == 503 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert state(port, CODE, ALICE)[0] == 200
        assert server.session.tally().voters == 0
    finally:
        for s in streams:
            s.close()
