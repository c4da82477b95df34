"""The session: the one lesson every panel shows, every change made to it, and the signals that say so.

Widgets receive the session in ``__init__`` typed as ``widgets.session_view.SessionView`` (what
they may use of it; this class satisfies it, which the type checker sees where the window builds
them), read ``session.lesson`` and ``session.state``, and subscribe. What the user asks for comes
back as intents: a view's ``*_requested`` signal the window connects to a ``request_*`` slot
here, or a direct call of one. Only the session writes
the lesson, trains, moves the step, keeps the undo history and announces what happened; nothing
else emits its signals.

Corpus, settings and preset changes are undo steps (``undo_stack``; the window's Edit menu uses
its actions). The held-out text and quiz answers are not, but they are still unsaved work
(``dirty``).

Long work runs here, never in a view: training (``TrainingRunner``), a jump in a large lesson, and
counting the held-out text after every step (``held_out_counted``; the growth chart only shows it).

``session.state`` is None while the lesson has no trained history: an empty corpus. Views show a
hint then, not an error.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from functools import partial

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtGui import QUndoStack

from app.held_out_count import HeldOutCounter
from app.slot_errors import slot_errors
from app.undo import ChangeLesson
from app.training_worker import TokenizerFile, TrainingRunner, lesson_training, tokenizer_reading
from engine.errors import internal_detail, is_bad_input
from engine.files.reading import without_lone_surrogates
from engine.formats.lesson_file import LessonFile
from engine.lesson.heldout import TextCurve
from engine.lesson.lesson import Lesson, LessonState
from engine.lesson_io.as_file import lesson_to_file
from engine.readable.display import for_settings
from engine.readable.tile_colours import carry_colours, colours_shown
from engine.algorithm.settings import Settings
from resources.presets import preset, preset_with_held_out
from widgets.worker import Worker

DEFAULT_TEXT = "low 5\nlower 2\nnewest 6\nwidest 3\n"


def default_held_out() -> str:
    """The default lesson is the classic preset's, so it has the held-out text the preset has."""
    return preset("classic").held_out()

# Play's pace: milliseconds between two steps (2 steps a second)
PLAY_INTERVAL_MS = 500
# one merge fills at most two thirds of a step, so Play never outruns the tiles
LONGEST_MERGE_MS = 600
# what the user keeps when a change fails: said after every problem with an edit
KEPT = "the panels still show the lesson before this edit"

log = logging.getLogger(__name__)


def _internal(error: BaseException) -> str:
    return f"an internal error of BPE Lab ({internal_detail(error)}), not a problem with your text"


def edit_problem(error: BaseException) -> str:
    """What the corpus panel says when an edit could not be trained, by the kind of error."""
    if is_bad_input(error):
        return f"{error} ({KEPT})"
    if isinstance(error, MemoryError):
        return f"The text is too large for the memory available: try a smaller text ({KEPT})"
    return f"Training failed on {_internal(error)}. Your lesson is kept: {KEPT}. Please report the error."


def replaced_problem(count: int) -> str:
    """What the corpus panel says when typed or pasted text held halves of characters."""
    what = "a half of a character" if count == 1 else f"{count:,} halves of characters"
    return (f"The text held {what} (a lone UTF-16 surrogate, which no file can save), pasted from another "
            "program: each is shown as the replacement character �.")


def load_problem(error: BaseException) -> str:
    """Why a lesson given to ``load`` could not be made, by the kind of error."""
    if is_bad_input(error):
        return str(error)
    if isinstance(error, MemoryError):
        return "the text is too large for the memory available: try a smaller text"
    return f"{_internal(error)}; please report it"


def opened_problem(error: BaseException) -> str:
    """What the corpus panel says when an opened lesson's text does not train as it stands."""
    return f"{error} (the lesson opened with its text as it was saved; fix those lines to train it)"


def _settings_change(before: Settings, after: Settings) -> str:
    """The undo step's name: special tokens are named, being a lesson's content more than a knob."""
    def rest(s: Settings) -> Settings:
        return replace(s.resolved(), special_tokens=())

    if before.special_tokens != after.special_tokens and rest(before) == rest(after):
        return "Change the special tokens"
    return "Change the settings"


class Session(QObject):
    # a new trained lesson replaced the old one (corpus, settings or file): the Lesson; views rebuild
    lesson_changed = Signal(object)
    # the current step moved: a StepChange (step, previous step, the words whose tokens changed)
    step_changed = Signal(object)
    # a token was picked somewhere (tile, vocabulary row, tokenize panel); "" clears the selection
    token_selected = Signal(str)
    # a training run in the background: started, words counted (characters done, characters in
    # all), progress (merges done, merges expected or 0), ended
    training_started = Signal()
    # after training_started, when what starts is reading a tokenizer file, not training
    tokenizer_reading_started = Signal()
    counting_progressed = Signal(int, int)
    training_progressed = Signal(int, int)
    training_ended = Signal()
    # the lesson's held-out text changed with no new lesson (the user typed or pasted one)
    held_out_changed = Signal(str)
    # the held-out text was counted after every step (a new lesson or text): a TextCurve, or None
    # when there is nothing to count or counting failed; then, on a failure, why
    held_out_counted = Signal(object)
    held_out_count_failed = Signal(str)
    # the text, mode and settings the corpus panel should show: undo, redo, a preset, an opened lesson
    source_changed = Signal(object)
    # a change could not be made (bad input, training stopped): the lesson shown is the one before it
    problem_reported = Signal(str)
    # a lesson given to ``load`` is now the lesson (a file, New, a recovery), or could not be made
    loaded = Signal(object)
    load_failed = Signal(str)
    # unsaved work appeared, or was saved
    dirty_changed = Signal(bool)
    # Play's pace changed (milliseconds between steps)
    play_interval_changed = Signal(int)
    # a jump in a large lesson is being built: the step it goes to; then progress (parts done,
    # parts); then it ended, landed (step_changed follows) or not (cancelled, or replaced)
    step_move_started = Signal(int)
    step_move_progressed = Signal(int, int)
    step_move_ended = Signal()

    def __init__(self, lesson: Lesson | None = None, parent: QObject | None = None):
        super().__init__(parent)
        if lesson is None:
            lesson = Lesson(DEFAULT_TEXT, word_counts=True, held_out=default_held_out())
        if not lesson.trained and not lesson.is_empty:
            lesson.train()
        self.lesson = lesson
        self.state = LessonState(lesson) if lesson.trained else None
        # the latest source asked for: what undo records and a save writes (the lesson shown lags
        # behind it while a run trains, and stays behind when the run fails)
        self.source: LessonFile = lesson_to_file(lesson)
        self.selected_token = ""
        self.training = False
        self.play_interval = PLAY_INTERVAL_MS
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._announce_dirty)
        self._side_changes = False
        self._was_dirty = False
        # (source, opened clean) while a lesson given to ``load`` trains
        self._loading: tuple[LessonFile | TokenizerFile, bool] | None = None
        # the worker building a jump, while one is
        self._mover: Worker | None = None
        self.runner = TrainingRunner(self)
        self.runner.started.connect(self._on_runner_started)
        self.runner.counted.connect(self.counting_progressed)
        self.runner.progressed.connect(self.training_progressed)
        self.runner.done.connect(self._on_runner_done)
        self.runner.errored.connect(self._on_runner_errored)
        self.runner.cancelled.connect(self._on_runner_cancelled)
        self._held_out = HeldOutCounter(self)
        self._held_out.counted.connect(self.held_out_counted)
        self._held_out.failed.connect(self.held_out_count_failed)
        self._held_out.count(lesson, self.state is not None)

    @property
    def step(self) -> int:
        return self.state.step if self.state else 0

    @property
    def last_step(self) -> int:
        return self.lesson.last_step if self.state else 0

    @property
    def text_waiting(self) -> bool:
        """No trained lesson is shown though the corpus panel holds a text: it does not train as it
        stands (word-count lines still being written, in a lesson just opened)."""
        return self.lesson.is_empty and self.lesson.text != self.source.text and bool(self.source.text.strip())

    @property
    def why_untrained(self) -> str:
        """Why no trained lesson is shown, as the views say it."""
        if self.text_waiting:
            return "the text does not train yet (the corpus panel names the line to fix)"
        return "the corpus is empty"

    @property
    def held_out_curve(self) -> TextCurve | None:
        """The held-out text's tokens after every step, once counted (None until then, or without one)."""
        return self._held_out.curve

    def show(self, token: str) -> str:
        """A token as people read it (byte-level tokens as text with a visible space)."""
        return for_settings(self.lesson.settings).token(token)

    # -- the lesson shown ---------------------------------------------------------------------------

    def set_lesson(self, lesson: Lesson, step: int = 0, state: LessonState | None = None) -> None:
        """Show a lesson (trained, or empty) at the given step.

        A worker may pass the state it built off the GUI thread, so a large corpus costs nothing here.
        """
        self._stop_moving()  # a jump in the lesson before means nothing in this one
        if state is None and lesson.trained:
            state = LessonState(lesson, step)
        elif state is not None and state.step != step:
            state.go_to(step)
        self.lesson = lesson
        self.state = state
        had_selection = bool(self.selected_token)
        self.selected_token = ""
        self.lesson_changed.emit(lesson)
        if had_selection:
            # a token of the old lesson means nothing in the new one
            self.token_selected.emit("")
        self._held_out.count(lesson, state is not None)

    @Slot(int)
    def request_step(self, k: int) -> None:
        if self.state is None:
            return
        # a step asked for now replaces a jump still being built
        self._stop_moving()
        if self.state.slow_move(k):
            self._move_in_background(k)
            return
        change = self.state.go_to(k)
        if change.step != change.previous:
            self.step_changed.emit(change)

    @Slot()
    def request_next(self) -> None:
        self.request_step(self.step + 1)

    @Slot()
    def request_previous(self) -> None:
        self.request_step(self.step - 1)

    @Slot(str)
    def request_token_selection(self, token: str) -> None:
        if token != self.selected_token:
            self.selected_token = token
            self.token_selected.emit(token)

    @Slot(int)
    def request_play_interval(self, ms: int) -> None:
        ms = max(1, int(ms))
        if ms != self.play_interval:
            self.play_interval = ms
            self.play_interval_changed.emit(ms)

    @property
    def merge_duration(self) -> int:
        """How long the tiles may take to play one merge at the current pace."""
        return min(LONGEST_MERGE_MS, self.play_interval * 2 // 3)

    # -- edits: each one an undo step ---------------------------------------------------------------

    @Slot(str, bool)
    def request_corpus(self, text: str, word_counts: bool) -> None:
        text, replaced = without_lone_surrogates(text)
        source = self.source
        what = "Edit the training text" if word_counts == source.word_counts else "Switch the text mode"
        held_out = source.held_out if text == source.text else self._kept_held_out()
        self._push(replace(source, text=text, word_counts=word_counts, step=0, held_out=held_out), what)
        self._say_replaced(replaced)

    @Slot(object)
    def request_settings(self, settings: Settings) -> None:
        self._push(replace(self.source, settings=settings, step=0), _settings_change(self.source.settings, settings))

    @Slot(str)
    def request_large_text(self, text: str) -> None:
        """A text too large for the editor, pasted whole: it becomes the running text."""
        text, replaced = without_lone_surrogates(text)
        source = replace(self.source, text=text, word_counts=False, step=0, held_out=self._kept_held_out())
        self._push(source, "Paste a large text")
        self._say_replaced(replaced)

    def _say_replaced(self, replaced: int) -> None:
        if replaced:
            self.problem_reported.emit(replaced_problem(replaced))

    @Slot(str)
    def request_preset(self, key: str) -> None:
        p = preset(key)
        source = LessonFile(p.text(), p.word_counts, p.settings, 0, p.held_out(), self.source.quiz)
        self._push(source, f"Load the preset “{p.title}”")

    def _kept_held_out(self) -> str:
        """The held-out text a corpus of the user's own keeps: theirs, never a preset's."""
        text = self.source.held_out
        return "" if preset_with_held_out(text) is not None else text

    @property
    def held_out_preset(self) -> str | None:
        """The title of the preset the held-out text comes with, or None when it is the user's own."""
        found = preset_with_held_out(self.lesson.held_out)
        return found.title if found is not None else None

    def current_file(self) -> LessonFile:
        """The lesson as it would be saved: the latest source, at the current step if it is the one shown."""
        lesson, source = self.lesson, self.source
        if self.state is None:
            return source  # nothing trained is shown: the source's step is the one it was opened at
        same = (lesson.text, lesson.word_counts, lesson.settings) == (source.text, source.word_counts, source.settings)
        return replace(source, step=self.step if same else 0)

    def _push(self, after: LessonFile, text: str) -> None:
        before = self.current_file()

        def key(f: LessonFile):
            return f.text, f.word_counts, f.settings, f.held_out

        if key(after) == key(before):
            return
        self.undo_stack.push(ChangeLesson(self._apply_source, before, after, text))

    def _apply_source(self, source: LessonFile) -> None:
        """Train a source and show it (undo and redo land here too)."""
        self.source = source
        self._loading = None
        self.source_changed.emit(source)
        # the worker colours the new lesson keeping this one's colours (not the GUI thread, later)
        self.runner.start(source, job=partial(lesson_training, earlier_colours=colours_shown(self.lesson)))

    # -- the held-out text: unsaved work, not an undo step -------------------------------------------

    @Slot(str)
    def request_held_out(self, text: str) -> None:
        text = without_lone_surrogates(text)[0]  # shown as � in the count; it only has to save
        if text == self.lesson.held_out:
            return
        # the lesson holds it (the charts count it from there); the source keeps it for saving
        self.lesson.held_out = text
        self.source = replace(self.source, held_out=text)
        self.held_out_changed.emit(text)
        self._held_out.count(self.lesson, self.state is not None)
        self.note_unsaved()

    # -- whole lessons: files, New, recovery -----------------------------------------------------------

    def load(self, source: LessonFile, clean: bool = True, background: bool | None = None) -> None:
        """Replace the lesson and its undo history (a file, New, a recovery); the current lesson
        stays until this one is trained. ``clean``: the lesson is saved as it is (not a recovery)."""
        self._loading = (source, clean)
        # coloured in the worker keeping the colours shown, as an edit is: the swap would otherwise
        # colour the new lesson again on the GUI thread (most of a second for a large text)
        self.runner.start(source, background, job=partial(lesson_training, earlier_colours=colours_shown(self.lesson)))

    def load_tokenizer(self, path, recognised=None) -> None:
        """A tokenizer file as a read-only lesson: its merges step by step, no corpus. It is read in
        the background (a file of 100,000 merges takes a while); the current lesson stays until then.
        ``recognised``: what ``engine.formats.load.recognise`` found it to be, so it is parsed once."""
        request = TokenizerFile(path, recognised=recognised)
        self._loading = (request, True)
        self.runner.start(request, background=True, job=tokenizer_reading)

    def open_text(self, text: str) -> None:
        """A text of the user's own as a new, unsaved lesson with the current settings."""
        text = without_lone_surrogates(text)[0]  # a file's text has none: decoding refuses them
        self.load(LessonFile(text, False, self.source.settings, 0, self._kept_held_out()), clean=False)

    def _adopt(self, clean: bool) -> None:
        """The lesson swapped in (``loaded`` said so) starts a new undo history."""
        self.undo_stack.clear()
        self._side_changes = False
        if clean:
            self.undo_stack.setClean()
        else:
            # a recovered or imported lesson is saved nowhere yet, so closing must ask
            self.undo_stack.resetClean()
        self._announce_dirty()

    # -- training runs ----------------------------------------------------------------------------------

    @Slot()
    def request_cancel(self) -> None:
        self.runner.cancel()

    def close(self) -> None:
        """Stop any training or jump quietly and wait for its thread (the window is closing)."""
        mover = self._mover
        self._stop_moving()
        if mover is not None:
            mover.wait()
        self.runner.cancel(quietly=True)
        self.runner.wait()

    @Slot()
    def _on_runner_started(self) -> None:
        self.training = True
        self.training_started.emit()
        if self._loading is not None and isinstance(self._loading[0], TokenizerFile):
            self.tokenizer_reading_started.emit()

    @Slot(object, object, object)
    def _on_runner_done(self, lesson, state, source) -> None:
        self._end_training()
        loading, self._loading = self._loading, None
        if loading is not None and loading[0] is not source:
            loading = None
        if isinstance(source, TokenizerFile):
            source = lesson_to_file(lesson)  # what the corpus panel shows and undo starts from: no text
        error = self._swap_in(lesson, source.step, state, source if loading is not None else None)
        if error is not None:
            log.error("a view could not show the new lesson", exc_info=error)
            if loading is not None:
                self.load_failed.emit(load_problem(error))
            else:
                self.problem_reported.emit(edit_problem(error))
        elif loading is not None:
            self._adopt(loading[1])

    def _swap_in(self, lesson: Lesson, step: int, state: LessonState | None,
                 source: LessonFile | None) -> BaseException | None:
        """Show a trained lesson (and, for a whole new lesson, its source) in every view, all or
        nothing: when a view fails to take it, every view goes back to the lesson before, and the
        first failure is returned."""
        before = self.lesson, self.state, self.source
        with slot_errors() as errors:
            if source is not None:
                self.source = source  # first: a view that follows the lesson reads its source too
            # a token keeps its colour from the lesson before while it exists (not when going back to it)
            carry_colours(before[0], lesson)
            self.set_lesson(lesson, step, state)
            if source is not None:
                self.source_changed.emit(source)
                # inside the swap: what the subscribers restore from the file (quiz answers) is
                # part of opening it, and a failure there puts the lesson before back too
                self.loaded.emit(source)
        if not errors:
            return None
        old_lesson, old_state, old_source = before
        with slot_errors() as again:
            if source is not None:
                self.source = old_source
            self.set_lesson(old_lesson, old_state.step if old_state is not None else 0, old_state)
            if source is not None:
                self.source_changed.emit(old_source)
        for error in again:
            log.error("a view could not show the previous lesson again", exc_info=error)
        return errors[0]

    @Slot(object, object)
    def _on_runner_errored(self, error: BaseException, _source) -> None:
        self._end_training()
        if not is_bad_input(error):
            log.error("training failed", exc_info=error)  # the traceback, for the report asked for
        loading, self._loading = self._loading, None
        if loading is not None and isinstance(loading[0], LessonFile) and is_bad_input(error):
            self._adopt_untrained(loading[0], loading[1], error)
        elif loading is not None:
            self.load_failed.emit(load_problem(error))
        else:
            self.problem_reported.emit(edit_problem(error))

    def _adopt_untrained(self, source: LessonFile, clean: bool, error: BaseException) -> None:
        """A lesson whose text does not train (word-count lines still being written) opens all the
        same: its text, settings and answers are the user's work. No lesson is shown until the text
        trains, and the problem says which lines to fix."""
        empty = Lesson("", False, source.settings, source.held_out)
        failed = self._swap_in(empty, 0, None, source)
        if failed is not None:
            log.error("a view could not show the new lesson", exc_info=failed)
            self.load_failed.emit(load_problem(failed))
            return
        self._adopt(clean)
        self.problem_reported.emit(opened_problem(error))

    @Slot()
    def _on_runner_cancelled(self) -> None:
        self._end_training()
        self._loading = None
        self.problem_reported.emit("Training stopped: the panels still show the lesson before this change. "
                                   "Edit again, or press Ctrl+Z.")

    def _end_training(self) -> None:
        if self.training:
            self.training = False
            self.training_ended.emit()

    # -- unsaved work -----------------------------------------------------------------------------------

    @property
    def dirty(self) -> bool:
        return not self.undo_stack.isClean() or self._side_changes

    @Slot()
    def note_unsaved(self) -> None:
        """A change that is no undo step (held-out text, quiz answers) is still unsaved work."""
        self._side_changes = True
        self._announce_dirty()

    def mark_saved(self) -> None:
        self.undo_stack.setClean()
        self._side_changes = False
        self._announce_dirty()

    @Slot()
    def _announce_dirty(self) -> None:
        dirty = self.dirty
        if dirty != self._was_dirty:
            self._was_dirty = dirty
            self.dirty_changed.emit(dirty)

    # -- a jump in a large lesson, built off the GUI thread ---------------------------------------------


    @property
    def moving(self) -> bool:
        """Whether a jump is being built in the background (the step shown is still the one before)."""
        return self._mover is not None

    @Slot()
    def request_move_cancel(self) -> None:
        self._stop_moving()

    def _move_in_background(self, k: int) -> None:
        state = self.state
        assert state is not None  # only request_step starts a jump, and only in a trained lesson
        worker = Worker(state.rebuilding, k)
        worker.yielded.connect(lambda done: self.step_move_progressed.emit(*done))
        worker.returned.connect(partial(self._on_moved, worker, state))
        worker.errored.connect(partial(self._on_move_failed, worker))
        self._mover = worker
        self.step_move_started.emit(k)
        worker.start()

    def _stop_moving(self) -> None:
        worker, self._mover = self._mover, None
        if worker is not None:
            worker.quit()
            self.step_move_ended.emit()

    def _on_moved(self, worker, state, built) -> None:
        if worker is not self._mover:
            return  # cancelled or replaced: what it built is not wanted
        self._mover = None
        self.step_move_ended.emit()
        if state is not self.state or state is None:
            return  # another lesson came in meanwhile
        change = state.adopt(built)
        if change.step != change.previous:
            self.step_changed.emit(change)

    def _on_move_failed(self, worker, error: BaseException) -> None:
        if worker is not self._mover:
            return
        self._mover = None
        self.step_move_ended.emit()
        log.error("a jump could not be built", exc_info=error)
        self.problem_reported.emit(f"The step could not be shown: {_internal(error)}. Please report the error.")
