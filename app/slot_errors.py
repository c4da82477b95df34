"""What the slots connected to a signal raised while it was emitted.

Qt does not pass a slot's exception back to ``emit``: PySide6 hands it to ``sys.excepthook`` and
goes on to the next slot. A caller that must know whether every view took a change (a lesson is
swapped in all or nothing) collects them here::

    with slot_errors() as errors:
        self.lesson_changed.emit(lesson)
    if errors: ...  # put the previous lesson back

Left out: slots reached later through a queued connection or a timer; they run after ``emit``.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def slot_errors() -> Iterator[list[BaseException]]:
    """Collect, in order, the exceptions slots raise in this block instead of reporting them."""
    errors: list[BaseException] = []
    previous = sys.excepthook

    def collect(_kind, error, _traceback) -> None:
        errors.append(error)

    sys.excepthook = collect
    try:
        yield errors
    finally:
        sys.excepthook = previous
