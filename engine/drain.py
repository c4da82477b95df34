"""Running a reporting generator to its end: the long jobs yield progress and return their result."""

from __future__ import annotations

from typing import Callable, Generator, TypeVar

T = TypeVar("T")


def drain(run: Generator[tuple[object, ...], None, T], progress: Callable[..., None] | None = None) -> T:
    """What ``run`` returns, each report it yields passed to ``progress`` (when given) on the way."""
    while True:
        try:
            report = next(run)
        except StopIteration as end:
            value: T = end.value
            return value
        if progress is not None:
            progress(*report)
