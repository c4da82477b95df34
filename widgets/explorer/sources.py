"""Where the explorer's tokenizers come from: GPT-4's cl100k, the lesson, or a tokenizer file.

cl100k's hundred thousand ranks take a noticeable moment to read, and a file may be large, so
both load in a worker thread; the explorer paints at once and fills a side in when its tokenizer
arrives. The lesson's tokenizer at the current step is cheap and comes straight from the session.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QObject, QThread, Signal, Slot

from engine.errors import BpeLabError

CL100K = "cl100k"
CL100K_CHAT = "cl100k_chat"
LESSON = "lesson"
FILE_PREFIX = "file:"

BUILT_IN_TITLES = {
    CL100K: "GPT-4 (cl100k_base)",
    CL100K_CHAT: "GPT-4 chat (cl100k + chat markers)",
    LESSON: "This lesson's tokenizer",
}

# running loaders stay referenced here until they finish, so closing the explorer never
# destroys a thread that is still reading
_RUNNING: set[QThread] = set()


def file_key(path: str | os.PathLike) -> str:
    return FILE_PREFIX + os.fspath(path)


def _load(key: str):
    if key == CL100K:
        from engine.cl100k import load_cl100k

        return load_cl100k()
    if key == CL100K_CHAT:
        from engine.cl100k import load_cl100k

        return load_cl100k(chat=True)
    from engine.formats.load import load_any

    path = key[len(FILE_PREFIX):]
    try:
        return load_any(path)
    except BpeLabError:
        raise
    except OSError as exc:
        raise BpeLabError(f"could not read {path}: {exc.strerror or exc}") from None


class _Loader(QThread):
    loaded = Signal(str, object)
    failed = Signal(str, str)

    def __init__(self, key: str):
        super().__init__()
        self.key = key

    def run(self) -> None:
        try:
            self.loaded.emit(self.key, _load(self.key))
        except BpeLabError as exc:
            self.failed.emit(self.key, str(exc))
        except Exception as exc:  # a file no loader understands must not kill the thread silently
            self.failed.emit(self.key, f"could not load {self.key[len(FILE_PREFIX):] or self.key}: {exc}")


class TokenizerSources(QObject):
    """Loads tokenizers by key in the background and keeps them; announces each one ready or failed."""

    ready = Signal(str)
    failed = Signal(str, str)

    def __init__(self, session, parent: QObject | None = None):
        super().__init__(parent)
        self.session = session
        self._loaded: dict[str, object] = {}
        self._errors: dict[str, str] = {}
        self._loading: set[str] = set()

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

    def get(self, key: str):
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
        self._loading.add(key)
        loader = _Loader(key)
        loader.loaded.connect(self._on_loaded)
        loader.failed.connect(self._on_failed)
        _RUNNING.add(loader)
        # a slot of this object runs in the GUI thread, after the loader's own thread has let go
        loader.finished.connect(self._on_loader_finished)
        loader.start()

    @Slot()
    def _on_loader_finished(self) -> None:
        for loader in [t for t in _RUNNING if t.isFinished()]:
            loader.wait()
            _RUNNING.discard(loader)

    @Slot(str, object)
    def _on_loaded(self, key: str, tokenizer) -> None:
        self._loading.discard(key)
        self._loaded[key] = tokenizer
        self.ready.emit(key)

    @Slot(str, str)
    def _on_failed(self, key: str, message: str) -> None:
        self._loading.discard(key)
        self._errors[key] = message
        self.failed.emit(key, message)
