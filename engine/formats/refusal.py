"""A format's refusal that advises training with other settings, said in each front end's terms.

The command line names a setting by its option (``--units bytes``); the window names it as the
Settings of its Corpus panel do. So a refusal keeps its sentence in parts: plain text, and ``Retrain``
records naming the settings that would let the format hold the lesson. ``str()`` of the error is the
command line's wording; the window renders the same parts with its own names
(``widgets.export_dialog``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from engine.errors import BpeLabError


@dataclass(frozen=True)
class Retrain:
    """Train again with this setting of ``engine.algorithm.settings.Settings`` at ``value``; ``alternative``
    is another setting that would do as well (or None)."""

    setting: str
    value: object
    alternative: Retrain | None = None

    def choices(self) -> tuple[Retrain, ...]:
        return (self,) + (self.alternative.choices() if self.alternative else ())


class ExportRefused(BpeLabError):
    """A format cannot hold the lesson; ``parts`` is the reason, text and ``Retrain`` advice in turn."""

    def __init__(self, *parts: str | Retrain):
        self.parts = parts
        super().__init__(said(parts, on_command_line))


def parts_of(error: BpeLabError) -> tuple[str | Retrain, ...]:
    """Any refusal in parts: one naming no setting is one part, the same in every front end."""
    return error.parts if isinstance(error, ExportRefused) else (str(error),)


def said(parts: tuple[str | Retrain, ...], say: Callable[[Retrain], str]) -> str:
    """The reason with each piece of advice put in the words ``say`` gives it."""
    return "".join(part if isinstance(part, str) else say(part) for part in parts)


def on_command_line(advice: Retrain) -> str:
    """The advice as options of ``bpe-lab train``: "train with --units bytes"."""
    return "train " + " or ".join(_option(c) for c in advice.choices())


def _option(choice: Retrain) -> str:
    flag = "--" + choice.setting.replace("_", "-")
    if choice.value is None:
        return "with --no-" + flag[2:]
    if choice.value is True:
        return "with " + flag
    if choice.value is False:
        return "without " + flag
    return f"with {flag} {choice.value}"
