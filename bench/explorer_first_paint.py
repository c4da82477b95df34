"""How soon the token explorer paints, next to how long GPT-4's tokenizer takes to load (run by hand).

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/explorer_first_paint.py

The explorer must paint before cl100k_base is read: it loads the ranks in a worker once shown.
Prints the time to build and paint the explorer, the time until the GPT-4 side is filled in, the
time of a plain load_cl100k() for scale, and the time to split the whole languages set.
"""

from __future__ import annotations

import os
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import PySide6  # noqa: F401,E402
from PySide6.QtWidgets import QApplication  # noqa: E402


def main() -> None:
    app = QApplication.instance() or QApplication([])
    from app.session import Session
    from widgets.explorer import ExplorerView

    session = Session()
    start = time.perf_counter()
    view = ExplorerView(session)
    view.resize(1920, 1080)
    view.show()
    view.grab()  # a full paint, as the window would do
    painted = time.perf_counter() - start
    while view.left.split is None:
        app.processEvents()
        time.sleep(0.001)
    filled = time.perf_counter() - start

    from engine.algorithm.cl100k import load_cl100k
    from engine.readable.explorer import load_languages, split_text

    load_cl100k.cache_clear()
    t = time.perf_counter()
    tokenizer = load_cl100k()
    load = time.perf_counter() - t
    samples = load_languages()
    t = time.perf_counter()
    for sample in samples:
        split_text(tokenizer, sample.text)
    languages = time.perf_counter() - t

    print(f"first paint of the explorer   {painted * 1000:8.1f} ms")
    print(f"GPT-4 side filled in          {filled * 1000:8.1f} ms")
    print(f"load_cl100k() alone           {load * 1000:8.1f} ms")
    print(f"split {len(samples)} language samples    {languages * 1000:8.1f} ms")
    print(f"first paint / cl100k load     {painted / load:8.2f}")


if __name__ == "__main__":
    main()
