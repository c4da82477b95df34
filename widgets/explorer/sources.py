"""Where the explorer's tokenizers come from: GPT-4's cl100k, the lesson, or a tokenizer file.

cl100k's hundred thousand ranks take a noticeable moment to read, and a file may be large, so
both load in a worker thread; the explorer paints at once and fills a side in when its tokenizer
arrives. The lesson's tokenizer at the current step is cheap and comes straight from the session.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QObject, Signal, Slot

from engine.algorithm.cl100k import load_cl100k
from engine.algorithm.encoder import Encoder
from engine.errors import internal_detail, is_bad_input, one_line
from engine.lesson_io.loading import load_any
from widgets.session_view import SessionView
from widgets.worker import Worker

CL100K = "cl100k"
CL100K_CHAT = "cl100k_chat"
LESSON = "lesson"
FILE_PREFIX = "file:"

BUILT_IN_TITLES = {
    CL100K: "GPT-4 (cl100k_base)",
    CL100K_CHAT: "cl100k_im (+ ChatML markers)",
    LESSON: "This lesson's tokenizer",
}

def file_key(path: str | os.PathLike) -> str:
    return FILE_PREFIX + os.fspath(path)


def _load(key: str):
    if key == CL100K:
        return load_cl100k()
    if key == CL100K_CHAT:
        return load_cl100k(chat=True)
    return load_any(key[len(FILE_PREFIX):])


def failure_message(key: str, error: BaseException) -> str:
    """One line saying why a tokenizer did not load: the reader's own words for a file it refused."""
    if is_bad_input(error):
        return one_line(str(error))
    name = key[len(FILE_PREFIX):] if key.startswith(FILE_PREFIX) else BUILT_IN_TITLES.get(key, key)
    if isinstance(error, MemoryError):
        return f"{name} is too large for the memory available"
    if isinstance(error, OSError):
        return f"{name}: cannot be read ({error.strerror or 'input/output error'})"
    # a loader's own bug: named as one, never lost with the thread, never a bare Python message
    return f"{name} could not be loaded: {internal_problem(error)}"


def internal_problem(error: BaseException) -> str:
    """A failure that is no fault of the file or text: named as BPE Lab's, in one line."""
    return one_line(f"an internal error of BPE Lab ({internal_detail(error)}); please report it")


class TokenizerSources(QObject):
    """Loads tokenizers by key in the background and keeps them; announces each one ready or failed."""

    ready = Signal(str)
    failed = Signal(str, str)

    def __init__(self, session: SessionView, parent: QObject | None = None):
        super().__init__(parent)
        self.session = session
        self._loaded: dict[str, Encoder] = {}
        self._errors: dict[str, str] = {}
        # the worker reading each key
        self._loading: dict[str, Worker] = {}

    def title(self, key: str) -> str:
        if key == LESSON:
            return f"This lesson, step {self.session.step} of {self.session.lesson.last_step}"
        if key.startswith(FILE_PREFIX):
            return os.path.basename(key[len(FILE_PREFIX):])
        return BUILT_IN_TITLES.get(key, key)

    def error(self, key: str) -> str | None:
        return self._errors.get(key)

    def is_loading(self, key: str) -> bool:
        return key in self._loading

    def get(self, key: str) -> Encoder | None:
        """The tokenizer for ``key``, or None while it loads (``ready`` or ``failed`` follows)."""
        if key == LESSON:
            lesson = self.session.lesson
            return lesson.tokenizer_at(self.session.step) if lesson.trained else None
        if key in self._loaded:
            return self._loaded[key]
        if key not in self._loading and key not in self._errors:
            self._start(key)
        return None

    def reload(self, key: str) -> None:
        """Forget a failed or loaded file and read it again."""
        self._loaded.pop(key, None)
        self._errors.pop(key, None)
        if key not in self._loading:
            self._start(key)

    def _start(self, key: str) -> None:
        worker = Worker(_load, key)
        worker.returned.connect(self._on_returned)
        worker.errored.connect(self._on_errored)
        self._loading[key] = worker
        worker.start()

    def _key_of_sender(self) -> str | None:
        """The key the sending worker read, which it no longer reads (None: a worker since replaced)."""
        sender = self.sender()
        for key, worker in self._loading.items():
            if worker is sender:
                del self._loading[key]
                return key
        return None

    @Slot(object)
    def _on_returned(self, tokenizer: Encoder) -> None:
        key = self._key_of_sender()
        if key is not None:
            self._loaded[key] = tokenizer
            self.ready.emit(key)

    @Slot(object)
    def _on_errored(self, error: BaseException) -> None:
        key = self._key_of_sender()
        if key is not None:
            message = failure_message(key, error)
            self._errors[key] = message
            self.failed.emit(key, message)
