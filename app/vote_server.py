"""The class vote's server, as the window sees it: start, stop, and signals.

aiohttp serves ``app.vote_http`` on its own asyncio loop on one background thread, so the GUI
thread never waits on a phone: the window's event loop only receives the ``tally_changed``
notices (at most ten a second) and calls ``changed()`` when it shows, opens or closes something.
Nothing listens before ``start()`` or after ``stop()``; the socket is bound to one address of the
room's network (``engine.vote.address``), never to every interface.

``stop()`` ends every event stream, closes every connection and the socket and joins the
thread, in well under a second: closing the window must never wait on a phone. The application's
quitting stops it too, should the window not have.
"""

from __future__ import annotations

import asyncio
import errno
import gc
import ipaddress
import logging
import threading
from importlib import resources

from aiohttp import web
from PySide6.QtCore import QCoreApplication, QObject, Signal

from app.vote_http import Limits, VoteService
from engine.vote.address import choose_address
from engine.vote.ballot import VoteSession

DEFAULT_PORT = 8123
PORT_TRIES = 10  # the port asked for and the next nine
# a phone's request still being answered when the server stops gets this long to finish
SHUTDOWN_GRACE_S = 0.25
START_TIMEOUT_S = 5.0
STOP_TIMEOUT_S = 3.0
MISSING_PAGE = (b"<!doctype html><meta charset=utf-8><title>BPE Lab vote</title>"
                b"<p>The vote page is missing from this copy of BPE Lab: reinstall BPE Lab.</p>\n")


class _NoAddresses(logging.Filter):
    """aiohttp names the peer in its error lines ("Error handling request from 10.0.0.7"): no
    student's address goes into a log, so each is said as "a phone"."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple("a phone" if _is_address(a) else a for a in record.args)
        return True


def _is_address(value: object) -> bool:
    if not isinstance(value, str):
        return False
    try:
        ipaddress.ip_address(value)
    except ValueError:
        return False
    return True


# the server's own log, in place of aiohttp's (whose access log, with addresses, is off)
LOG = logging.getLogger("app.vote_server")
LOG.addFilter(_NoAddresses())


def vote_page() -> bytes:
    """The phone page shipped in resources/vote, or a one-line page saying it is missing."""
    page = resources.files("resources").joinpath("vote", "page.html")
    return page.read_bytes() if page.is_file() else MISSING_PAGE


class VoteServer(QObject):
    started = Signal(str)  # the address to show, "http://192.168.1.23:8123"
    failed = Signal(str)  # one line: why it could not start
    tally_changed = Signal()  # votes arrived (at most ten notices a second); read session.tally()
    stopped = Signal()

    def __init__(self, session: VoteSession, parent: QObject | None = None, *, host: str | None = None,
                 port: int = DEFAULT_PORT, limits: Limits | None = None):
        super().__init__(parent)
        self.session = session
        self.host = host
        self.port = port
        self.limits = limits or Limits()
        self.address = ""
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._service: VoteService | None = None
        self._stop: asyncio.Event | None = None
        application = QCoreApplication.instance()
        if application is not None:
            # the thread is not a daemon: one left running would keep the process from ending
            application.aboutToQuit.connect(self.stop)

    @property
    def running(self) -> bool:
        return self._thread is not None

    @property
    def clients(self) -> int:
        """Requests being answered and event streams open (read on the GUI thread: a moment's figure)."""
        return self._service.clients if self._service is not None else 0

    @property
    def joined(self) -> int:
        """The phones in the room now, each counted once however it listens (read on the GUI thread)."""
        return self._service.present.count() if self._service is not None else 0

    def start(self) -> None:
        """Listen, then emit ``started`` with the address, or ``failed`` with a sentence."""
        if self._thread is not None:
            return
        host = self.host or choose_address()
        if host is None:
            self.failed.emit("This computer is on no network, so phones cannot reach it: "
                             "join the room's Wi-Fi or plug in its cable, then start the vote again.")
            return
        outcome: dict[str, object] = {}
        ready = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(host, outcome, ready), name="vote-server",
                                        daemon=False)
        self._thread.start()
        if not ready.wait(START_TIMEOUT_S):
            outcome["problem"] = "The vote server did not start in time: try again."
        if "problem" in outcome:
            self.stop(quiet=True)
            self.failed.emit(str(outcome["problem"]))
            return
        self.address = f"http://{host}:{outcome['port']}"
        # the collector runs on the GUI thread (app.collector); without this its first collections while
        # votes arrive would walk every object aiohttp's first import made, a stall of tens of milliseconds
        gc.collect(1)
        self.started.emit(self.address)

    def stop(self, quiet: bool = False) -> None:
        """Close every connection and the socket and join the thread; does nothing when not running."""
        thread, loop, stop = self._thread, self._loop, self._stop
        if thread is None:
            return
        if loop is not None and stop is not None:
            try:
                loop.call_soon_threadsafe(stop.set)
            except RuntimeError:  # the loop has already closed: the thread is ending by itself
                pass
        thread.join(STOP_TIMEOUT_S)
        self._thread = self._loop = self._stop = self._service = None
        self.address = ""
        if not quiet:
            self.stopped.emit()

    def changed(self) -> None:
        """The window changed the session (a question shown, a round opened or closed): tell the phones."""
        loop, service = self._loop, self._service
        if loop is None or service is None:
            return
        try:
            loop.call_soon_threadsafe(service.changed)
        except RuntimeError:  # stopping: no phone is listening any more
            pass

    # -- on the server's thread ---------------------------------------------------------------------

    def _run(self, host: str, outcome: dict[str, object], ready: threading.Event) -> None:
        loop = asyncio.new_event_loop()
        try:
            loop.run_until_complete(self._serve(loop, host, outcome, ready))
        finally:
            ready.set()
            loop.close()

    async def _serve(self, loop: asyncio.AbstractEventLoop, host: str, outcome: dict[str, object],
                     ready: threading.Event) -> None:
        service = VoteService(self.session, vote_page(), self.tally_changed.emit, self.limits)
        runner = web.AppRunner(service.application(), access_log=None, logger=LOG, handle_signals=False,
                               handler_cancellation=True, keepalive_timeout=self.limits.idle_timeout,
                               shutdown_timeout=SHUTDOWN_GRACE_S)
        await runner.setup()
        try:
            port = await _bind(runner, host, self.port)
        except _CannotListen as exc:
            outcome["problem"] = str(exc)
            await runner.cleanup()
            return
        self._loop, self._service, self._stop = loop, service, asyncio.Event()
        outcome["port"] = port
        ready.set()
        try:
            await self._stop.wait()
        finally:
            service.close()
            await runner.cleanup()


class _CannotListen(Exception):
    pass


async def _bind(runner: web.AppRunner, host: str, first: int) -> int:
    """Listen on the first free port from ``first`` on; the port taken."""
    for port in range(first, first + PORT_TRIES):
        site = web.TCPSite(runner, host, port, backlog=128)
        try:
            await site.start()
        except OSError as exc:
            if exc.errno in (errno.EADDRINUSE, errno.EACCES):
                continue
            raise _CannotListen(f"Cannot listen on {host} port {port}: {exc.strerror or exc}.") from None
        return port
    last = first + PORT_TRIES - 1
    raise _CannotListen(f"Ports {first} to {last} are all in use by other programs: close one of them, "
                        "then start the vote again.")
