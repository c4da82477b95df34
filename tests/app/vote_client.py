"""Talking to a vote server the way a phone would, with the standard library only (for tests)."""

from __future__ import annotations

import http.client
import json
import socket

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def request(port: int, method: str, path: str, body: bytes | None = None, *, source: str | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, object, http.client.HTTPResponse]:
    """Status, the body as JSON (or bytes when it is not JSON) and the response."""
    conn = http.client.HTTPConnection(HOST, port, timeout=10, source_address=(source, 0) if source else None)
    try:
        headers = headers or {}
        conn.request(method, path, body=body, headers=headers, encode_chunked="Transfer-Encoding" in headers)
        response = conn.getresponse()
        data = response.read()
    finally:
        conn.close()
    try:
        return response.status, json.loads(data), response
    except ValueError:
        return response.status, data, response


def state(port: int, code: str, voter: str, **kwargs) -> tuple[int, object]:
    status, data, _ = request(port, "GET", f"/api/state?code={code}&voter={voter}", **kwargs)
    return status, data


def vote(port: int, code: str, voter: str, qid: str, answer: object, **kwargs) -> tuple[int, object]:
    body = json.dumps({"code": code, "voter": voter, "qid": qid, "answer": answer}).encode()
    status, data, _ = request(port, "POST", "/api/vote", body, headers={"Content-Type": "application/json"}, **kwargs)
    return status, data


def refused(port: int) -> bool:
    """Whether nothing listens on the port."""
    try:
        socket.create_connection((HOST, port), timeout=2).close()
    except ConnectionRefusedError:
        return True
    return False


class EventStream:
    """One /api/events stream read off a raw socket: its server-sent events and comments."""

    def __init__(self, port: int, code: str, voter: str, timeout: float = 10):
        self.sock = socket.create_connection((HOST, port), timeout=timeout)
        self.sock.sendall(f"GET /api/events?code={code}&voter={voter} HTTP/1.1\r\nHost: room\r\n\r\n".encode())
        self.buffer = b""
        self.status = None
        self.ended = False

    def head(self) -> int:
        while b"\r\n\r\n" not in self.buffer:
            self._more()
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        self.status = int(head.split(b" ", 2)[1])
        return self.status

    def _more(self) -> None:
        data = self.sock.recv(65536)
        if not data:
            self.ended = True
            raise EOFError
        self.buffer += data

    def next_message(self) -> str:
        """The next event or comment: the server writes each as one chunk of its chunked body."""
        while True:
            size, sep, rest = self.buffer.partition(b"\r\n")
            if sep:
                length = int(size, 16)
                if length == 0:
                    raise EOFError("the stream ended")
                if len(rest) >= length + 2:
                    self.buffer = rest[length + 2:]
                    return rest[:length].decode("utf-8").rstrip("\n")
            self._more()

    def next_state(self) -> dict:
        while True:
            message = self.next_message()
            if message.startswith("event: state\n"):
                return json.loads(message.split("data: ", 1)[1])

    def read_to_end(self) -> bytes:
        while True:
            try:
                self._more()
            except EOFError:
                return self.buffer

    def close(self) -> None:
        self.sock.close()


def ports_held(n: int) -> tuple[int, list[socket.socket]]:
    """n ports in a row bound and listening here; another row is tried when a port of one is
    taken (other tests and programs open ports of their own at the same time)."""
    for _ in range(50):
        port, held = free_port(), []
        for p in range(port, port + n):
            s = socket.socket()
            try:
                s.bind(("127.0.0.1", p))
            except OSError:
                s.close()
                break
            s.listen()
            held.append(s)
        if len(held) == n:
            return port, held
        for s in held:
            s.close()
    raise AssertionError(f"no {n} free ports in a row on 127.0.0.1 in 50 tries")
