"""Python's cycle collector held off while the engine works through many small objects.

Its own module so that the trainer and the tokenizer can both use it without one importing the
other. The window's collector on the GUI thread is app.collector; this is only the engine's hold.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def collector_paused() -> Iterator[None]:
    """Hold Python's cycle collector off for a whole training run (``train``, the CLI).

    A step makes thousands of small lists and tuples, none in a cycle; left on, the collector
    would walk the trainer's whole working set again and again. The window keeps it off anyway
    and collects on its own thread (app.collector), so ``steps()`` leaves it alone.
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
