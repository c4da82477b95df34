"""The lessons a teacher can start from, each with a held-out text to test the vocabulary on.

The small texts live beside this file. The large one, the Python documentation topics, ships
with Python itself (``pydoc_data``), so it is read at run time and never copied here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from engine.algorithm.settings import Settings

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Preset:
    key: str
    title: str
    # one sentence for the tooltip: why a teacher would pick it
    about: str
    word_counts: bool = False
    settings: Settings = field(default_factory=Settings)
    # the file stem beside this module; None for a text built at run time
    stem: str | None = None

    def text(self) -> str:
        if self.stem is None:
            return python_docs_text()[0]
        return (HERE / f"{self.stem}.txt").read_text(encoding="utf-8")

    def held_out(self) -> str:
        if self.stem is None:
            return python_docs_text()[1]
        return (HERE / f"{self.stem}.heldout.txt").read_text(encoding="utf-8")


PRESETS: tuple[Preset, ...] = (
    Preset("classic", "Four words with counts (low, lower, newest, widest)",
           "The classic lesson: watch 'est' and 'low' form.", word_counts=True, stem="classic"),
    Preset("tea", "Six tea words (no end-of-word marker)",
           "24 letters become 10 tokens in three merges.",
           settings=Settings(end_of_word=None), stem="tea"),
    Preset("paragraph", "A short paragraph",
           "Ordinary English prose: endings and short words merge first.", stem="paragraph"),
    Preset("code", "Python code",
           "Code has its own common pieces: indentation, names, brackets.",
           settings=Settings(split="gpt2", units="bytes"), stem="code"),
    Preset("languages", "One sentence in many languages",
           "The same sentence costs more tokens in some scripts than in others.", stem="languages"),
    Preset("python-docs", "The Python documentation (large)",
           "About half a megabyte of real text; trains in the background.",
           settings=Settings(merges=1000), stem=None),
)


def preset(key: str) -> Preset:
    for p in PRESETS:
        if p.key == key:
            return p
    raise KeyError(key)


# the small presets' held-out texts are all far shorter than this, the documentation's far longer:
# a shorter text never costs reading the documentation
LONG_HELD_OUT = 5_000


def preset_with_held_out(text: str) -> Preset | None:
    """The preset whose held-out text ``text`` is, or None (an empty text, or the user's own)."""
    if not text:
        return None
    for p in PRESETS:
        if (p.stem is None) == (len(text) > LONG_HELD_OUT) and p.held_out() == text:
            return p
    return None


_docs_cache: tuple[str, str] | None = None


def python_docs_text() -> tuple[str, str]:
    """(training text, held-out text): every tenth documentation topic is kept out of training."""
    global _docs_cache
    if _docs_cache is None:
        from pydoc_data.topics import topics

        names = sorted(topics)
        train = [topics[n] for i, n in enumerate(names) if i % 10 != 9]
        held = [topics[n] for i, n in enumerate(names) if i % 10 == 9]
        _docs_cache = ("\n".join(train), "\n".join(held))
    return _docs_cache
