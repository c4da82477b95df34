"""The class vote's HTTP side: the page, the JSON vote API and its live events, with the bounds a
school network needs. It runs on the vote server's own asyncio loop (``app.vote_server``) and
knows no Qt; everything here is called on that loop.

What is served: ``/`` and ``/index.html`` (the page, one file of ours), ``/api/state``,
``/api/events`` (server-sent events) and ``/api/vote``; every other path is a 404, and no path
reads the disk. Every request to the API carries the room code and the browser's voter token.

The bounds:
- a body of at most ``max_body`` bytes (413), read within ``body_timeout`` (408);
- at most ``max_clients`` requests and event streams at once; one more is told the room is full (503);
- wrong room codes: after ``wrong_codes`` in ``wrong_code_window`` seconds from one peer, that peer's
  requests are refused (429) until the window has passed, so four digits cannot be guessed in a
  lesson's time. The peer's address is held in memory for this alone: never logged, never exported;
- votes: at most ``votes_per_second`` from one voter (429); the other voters' votes go on counting;
  a vote whose browser says it comes from another site's page is refused (403);
- a connection that sends no whole request within ``idle_timeout`` is closed, and an event stream
  whose phone stops reading is dropped after ``write_timeout``.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass

from aiohttp import web

from engine.vote.ballot import (BadBallot, NoSuchOption, RoomFull, RoundClosed, VoteRefused, VoteSession,
                                WrongRoomCode)

PAGE_PATHS = ("/", "/index.html")
# the page may run only its own inline script and style and talk only to this server: no CDN, no frame
PAGE_POLICY = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' data:; "
               "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
# a refusal's status, the most particular class first
STATUS_OF = ((WrongRoomCode, 403), (RoundClosed, 409), (NoSuchOption, 422), (RoomFull, 503), (BadBallot, 400),
             (VoteRefused, 400))
VOTE_FIELDS = ("code", "voter", "qid", "answer")
# how many peers and voters the limits remember: a class is a few hundred; beyond this the oldest go
REMEMBERED = 4096


@dataclass(frozen=True)
class Limits:
    max_body: int = 4096
    max_clients: int = 300
    wrong_codes: int = 5
    wrong_code_window: float = 60.0
    votes_per_second: int = 10
    ping_every: float = 15.0
    idle_timeout: float = 10.0
    body_timeout: float = 5.0
    write_timeout: float = 5.0
    tally_every: float = 0.1  # at most ten tally notices a second
    # a phone that only polls asks every 2 s: one heard from within this long is still in the room
    present_for: float = 8.0


class _Refusal(Exception):
    """Ends a request with a status and a sentence for the student."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


class Recent:
    """Events per key within a sliding window, for a bounded number of keys (the oldest forgotten)."""

    def __init__(self, limit: int, window: float, clock: Callable[[], float] = time.monotonic):
        self.limit, self.window, self.clock = limit, window, clock
        self._times: OrderedDict[str, deque[float]] = OrderedDict()

    def _fresh(self, key: str) -> deque[float]:
        times = self._times.get(key)
        if times is None:
            times = self._times[key] = deque()
            if len(self._times) > REMEMBERED:
                self._times.popitem(last=False)
        now = self.clock()
        while times and times[0] <= now - self.window:
            times.popleft()
        return times

    def full(self, key: str) -> bool:
        return len(self._fresh(key)) >= self.limit

    def add(self, key: str) -> None:
        self._fresh(key).append(self.clock())
        self._times.move_to_end(key)


class Present:
    """The voters in the room now: those with a live-event stream open, and those heard from within
    ``window`` seconds (a phone that polls). Updated on the loop; ``count`` may be read from another
    thread, as it reads a copy taken in one step."""

    def __init__(self, window: float, clock: Callable[[], float] = time.monotonic):
        self.window, self.clock = window, clock
        self._heard: OrderedDict[str, float] = OrderedDict()
        self._streams: dict[str, int] = {}

    def heard(self, voter: str) -> None:
        self._heard[voter] = self.clock()
        self._heard.move_to_end(voter)
        if len(self._heard) > REMEMBERED:
            self._heard.popitem(last=False)

    def stream_opened(self, voter: str) -> None:
        self._streams[voter] = self._streams.get(voter, 0) + 1

    def stream_closed(self, voter: str) -> None:
        left = self._streams.pop(voter, 1) - 1
        if left > 0:
            self._streams[voter] = left
        self.heard(voter)

    def count(self) -> int:
        heard, streams = self._heard.copy(), set(self._streams)
        since = self.clock() - self.window
        return len(streams | {voter for voter, at in heard.items() if at >= since})


def refused_json(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)


class VoteService:
    """The aiohttp application over one vote session. ``on_votes`` is called (on the loop, at most
    every ``limits.tally_every`` seconds) after votes were counted."""

    def __init__(self, session: VoteSession, page: bytes, on_votes: Callable[[], None] = lambda: None,
                 limits: Limits | None = None):
        self.session = session
        self.page = page
        self.on_votes = on_votes
        self.limits = limits or Limits()
        self.clients = 0  # requests being answered and event streams open
        self.present = Present(self.limits.present_for)
        self._wrong = Recent(self.limits.wrong_codes, self.limits.wrong_code_window)
        self._votes = Recent(self.limits.votes_per_second, 1.0)
        self._waker = asyncio.Event()
        self._closing = False
        self._tally_pending = False

    def application(self) -> web.Application:
        app = web.Application(client_max_size=self.limits.max_body, middlewares=[self._bounded])
        for path in PAGE_PATHS:
            app.router.add_get(path, self._page)
        app.router.add_get("/api/state", self._state)
        app.router.add_get("/api/events", self._events)
        app.router.add_post("/api/vote", self._vote)
        app.on_response_prepare.append(self._headers)
        return app

    def changed(self) -> None:
        """The projector changed what phones see: every event stream sends the new state."""
        waker, self._waker = self._waker, asyncio.Event()
        waker.set()

    def close(self) -> None:
        """End every event stream (the server is stopping)."""
        self._closing = True
        self._waker.set()

    # -- every request -----------------------------------------------------------------------------

    @web.middleware
    async def _bounded(self, request: web.Request, handler: Callable) -> web.StreamResponse:
        if self.clients >= self.limits.max_clients:
            return refused_json(503, "The room is full: try again in a moment.")
        self.clients += 1
        try:
            return await handler(request)
        except _Refusal as refusal:
            return refused_json(refusal.status, refusal.message)
        except web.HTTPException as exc:
            if exc.status == 413:
                return refused_json(413, "That was too much to send: reload the page.")
            if exc.status == 404:
                return refused_json(404, "There is nothing here: open the address the projector shows.")
            return refused_json(exc.status, "The page asked for something this server does not do: reload the page.")
        finally:
            self.clients -= 1

    async def _headers(self, request: web.Request, response: web.StreamResponse) -> None:
        response.headers["Server"] = "BPE Lab"  # not the library and its version
        response.headers["Cache-Control"] = "no-store"
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["X-Frame-Options"] = "DENY"
        if request.path in PAGE_PATHS:
            response.headers["Content-Security-Policy"] = PAGE_POLICY

    def _admit(self, request: web.Request, code: object, voter: object) -> str:
        """The voter's token, once the peer is not locked out and the code is the room's."""
        peer = request.remote or ""
        if self._wrong.full(peer):
            raise _Refusal(429, "Too many wrong room codes: wait a minute, then type the code again.")
        try:
            token = self.session.check(code, voter)
        except WrongRoomCode as exc:
            self._wrong.add(peer)
            raise _Refusal(403, str(exc)) from None
        except VoteRefused as exc:
            raise _Refusal(_status(exc), str(exc)) from None
        self.present.heard(token)
        return token

    # -- the routes --------------------------------------------------------------------------------

    async def _page(self, request: web.Request) -> web.Response:
        return web.Response(body=self.page, content_type="text/html", charset="utf-8")

    async def _state(self, request: web.Request) -> web.Response:
        voter = self._admit(request, request.query.get("code"), request.query.get("voter"))
        return web.json_response(self.session.phone_state(voter))

    async def _vote(self, request: web.Request) -> web.Response:
        origin = request.headers.get("Origin")
        if origin is not None and origin != f"http://{request.host}":
            # another site's page in a student's browser, posting as a form would (no preflight asked)
            raise _Refusal(403, "Votes are taken from the vote page only: open the address the projector shows.")
        if request.content_length is not None and request.content_length > self.limits.max_body:
            raise _Refusal(413, "That was too much to send: reload the page.")
        try:
            body = await asyncio.wait_for(request.read(), self.limits.body_timeout)
        except TimeoutError:
            raise _Refusal(408, "Your phone took too long to send the vote: try again.") from None
        data = _vote_fields(body)
        voter = self._admit(request, data["code"], data["voter"])
        if self._votes.full(voter):
            raise _Refusal(429, "Too many votes at once: wait a second, then vote again.")
        self._votes.add(voter)
        try:
            self.session.vote(data["code"], voter, data["qid"], data["answer"])
        except VoteRefused as exc:
            raise _Refusal(_status(exc), str(exc)) from None
        self._votes_counted()
        return web.json_response({"ok": True})

    async def _events(self, request: web.Request) -> web.StreamResponse:
        voter = self._admit(request, request.query.get("code"), request.query.get("voter"))
        stream = web.StreamResponse(headers={"Content-Type": "text/event-stream; charset=utf-8",
                                             "X-Accel-Buffering": "no"})
        await stream.prepare(request)
        sent = None
        self.present.stream_opened(voter)
        try:
            while not self._closing:
                # the waker is taken before the state is read, so a change in between is never missed
                waker = self._waker
                state = self.session.phone_state(voter)
                if state != sent:
                    await self._send(stream, f"event: state\ndata: {json.dumps(state)}\n\n")
                    sent = state
                try:
                    await asyncio.wait_for(waker.wait(), self.limits.ping_every)
                except TimeoutError:
                    await self._send(stream, ": still here\n\n")
        except (ConnectionError, TimeoutError):
            pass  # the phone went away or stopped reading: the stream ends here
        finally:
            self.present.stream_closed(voter)
        return stream

    async def _send(self, stream: web.StreamResponse, text: str) -> None:
        await asyncio.wait_for(stream.write(text.encode("utf-8")), self.limits.write_timeout)

    def _votes_counted(self) -> None:
        if self._tally_pending:
            return
        self._tally_pending = True

        def tell() -> None:
            self._tally_pending = False
            self.on_votes()

        asyncio.get_running_loop().call_later(self.limits.tally_every, tell)


def _status(error: VoteRefused) -> int:
    return next(status for cls, status in STATUS_OF if isinstance(error, cls))


def _no_constant(name: str) -> object:
    raise ValueError(name)


def _vote_fields(body: bytes) -> dict[str, object]:
    """The vote's four fields from its JSON body, or a 400."""
    try:
        data = json.loads(body.decode("utf-8"), parse_constant=_no_constant)
    except (ValueError, RecursionError):  # not UTF-8 (UnicodeDecodeError is one), not JSON, NaN, nested too deep
        data = None
    if not isinstance(data, dict) or any(name not in data for name in VOTE_FIELDS):
        raise _Refusal(400, "The page sent something that is not a vote: reload the page.")
    return data
