"""A class of simulated students, run in a process of their own (``run``) so the process holding
the vote server and its GUI thread does none of their work.

Each student joins (GET /api/state); two in three then follow the live events as the page does,
the others poll every 2 s as the page does where live events fail; everyone votes in round 1 (one in four changes their
mind and votes again), waits for round 2 and votes again. Every answer is a function of the
student's number, so the counts the server must show are known (``expected``).

Messages to the test, on ``outbox``: ("joined",), then ("voted", round, problems) for each round,
then ("done",). ``problems`` lists every refused request or failure, so "no error" is checked by
the test, in the test's process.
"""

from __future__ import annotations

import asyncio
import json
import random

STUDENTS = 300
POLL_EVERY_S = 2.0
# the server's bound is 300 at once, event streams included: 200 streams, and the other requests
# share at most this many connections
REQUESTS_AT_ONCE = 90
ROUND_WAIT_S = 30.0
OPTIONS = ("0", "1", "2")


def answer(student: int, round_number: int) -> str:
    """The answer a student's last vote in a round gives."""
    if round_number == 1:
        return OPTIONS[student % 3]
    return OPTIONS[0] if student % 3 else OPTIONS[1]  # after discussion most agree


def first_thought(student: int) -> str | None:
    """The answer a student votes first and changes in round 1, or None for one who does not."""
    return OPTIONS[(student + 1) % 3] if student % 4 == 0 else None


def expected(round_number: int, students: int = STUDENTS) -> dict[str, int]:
    counts = dict.fromkeys(OPTIONS, 0)
    for s in range(students):
        counts[answer(s, round_number)] += 1
    return counts


def follows_events(student: int) -> bool:
    return student % 3 != 0


def voter_token(student: int) -> str:
    return f"student-{student:05d}-token"


def run(address: str, code: str, qid: str, outbox, students: int = STUDENTS) -> None:
    asyncio.run(_lesson(address, code, qid, outbox, students))


async def _lesson(address: str, code: str, qid: str, outbox, students: int) -> None:
    import aiohttp

    problems: list[str] = []
    limits = aiohttp.ClientTimeout(total=ROUND_WAIT_S)
    async with aiohttp.ClientSession(address, connector=aiohttp.TCPConnector(limit=REQUESTS_AT_ONCE),
                                     timeout=limits) as http, \
            aiohttp.ClientSession(address, connector=aiohttp.TCPConnector(limit=0),
                                  timeout=aiohttp.ClientTimeout(total=None, sock_read=ROUND_WAIT_S)) as streams:
        class_ = [_Student(s, code, qid, http, problems) for s in range(students)]
        await asyncio.gather(*(s.join() for s in class_))
        followers = [s for s in class_ if follows_events(s.number)]
        listening = [asyncio.create_task(s.follow(streams)) for s in followers]
        await asyncio.gather(*(s.first_state.wait() for s in followers))
        outbox.put(("joined",))
        for round_number in (1, 2):
            if round_number > 1:
                await asyncio.gather(*(s.wait_for_round(round_number) for s in class_))
            await asyncio.gather(*(s.vote(round_number) for s in class_))
            outbox.put(("voted", round_number, list(problems)))
            problems.clear()
        for task in listening:
            task.cancel()
        await asyncio.gather(*listening, return_exceptions=True)
    outbox.put(("done",))


class _Student:
    def __init__(self, number: int, code: str, qid: str, http, problems: list[str]):
        self.number, self.code, self.qid, self.http, self.problems = number, code, qid, http, problems
        self.voter = voter_token(number)
        self.round: int | None = None
        self.first_state = asyncio.Event()
        self.round_seen = asyncio.Condition()
        self.following = False

    async def _request(self, method: str, path: str, **kwargs) -> dict | None:
        try:
            async with self.http.request(method, path, **kwargs) as response:
                body = await response.read()
                if response.status != 200:
                    self.problems.append(f"student {self.number}: {method} {path} gave {response.status} {body[:80]!r}")
                    return None
                return json.loads(body)
        except Exception as exc:  # noqa: BLE001 - every failure is reported to the test as a problem
            self.problems.append(f"student {self.number}: {method} {path} failed: {type(exc).__name__} {exc}")
            return None

    async def _state(self) -> dict | None:
        return await self._request("GET", "/api/state", params={"code": self.code, "voter": self.voter})

    async def join(self) -> None:
        state = await self._state()
        if state is not None:
            self.round = state["round"]

    async def follow(self, streams) -> None:
        """Read the live events as the page does: each state event tells the round."""
        self.following = True
        try:
            async with streams.get("/api/events", params={"code": self.code, "voter": self.voter}) as response:
                if response.status != 200:
                    self.problems.append(f"student {self.number}: events gave {response.status}")
                    self.following = False
                    self.first_state.set()
                    return
                async for line in response.content:
                    if line.startswith(b"data: "):
                        await self._saw(json.loads(line[6:])["round"])
                        self.first_state.set()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - reported to the test
            self.problems.append(f"student {self.number}: events failed: {type(exc).__name__} {exc}")
            self.following = False
            self.first_state.set()

    async def _saw(self, round_number: int | None) -> None:
        async with self.round_seen:
            self.round = round_number
            self.round_seen.notify_all()

    async def wait_for_round(self, round_number: int) -> None:
        if self.following:
            async with self.round_seen:
                await asyncio.wait_for(self.round_seen.wait_for(lambda: self.round == round_number), ROUND_WAIT_S)
            return
        await asyncio.sleep(random.random() * POLL_EVERY_S)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + ROUND_WAIT_S
        while loop.time() < deadline:
            state = await self._state()
            if state is not None and state["round"] == round_number and state["status"] == "open":
                return
            await asyncio.sleep(POLL_EVERY_S)
        self.problems.append(f"student {self.number}: never saw round {round_number}")

    async def vote(self, round_number: int) -> None:
        votes = [answer(self.number, round_number)]
        if round_number == 1 and first_thought(self.number) is not None:
            votes.insert(0, first_thought(self.number))
        for choice in votes:
            await self._request("POST", "/api/vote", json={"code": self.code, "voter": self.voter, "qid": self.qid,
                                                           "answer": choice})
