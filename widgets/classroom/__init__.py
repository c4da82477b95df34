"""What the classroom mode lays over the window: the key list, the "predict first" prompt, a blank
screen, and the band under the views that says why the last merge won.

The overlays are imported when first asked for (``from widgets.classroom import KeysOverlay``): the
views read the classroom's colours and type from ``widgets.classroom.look`` when they are built, and
that alone must not bring in every overlay before the mode is first entered.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from widgets.classroom.cover import BlankCover, Cover
    from widgets.classroom.keys_overlay import KeysOverlay
    from widgets.classroom.predict import ASKING, HIDDEN, REVEALED, Choice, PredictPrompt
    from widgets.classroom.why_band import WhyBand

_HOMES = {
    "BlankCover": "cover", "Cover": "cover", "KeysOverlay": "keys_overlay", "WhyBand": "why_band",
    "ASKING": "predict", "HIDDEN": "predict", "REVEALED": "predict", "Choice": "predict", "PredictPrompt": "predict",
}
__all__ = ["ASKING", "HIDDEN", "REVEALED", "BlankCover", "Choice", "Cover", "KeysOverlay", "PredictPrompt", "WhyBand"]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{home}"), name)
