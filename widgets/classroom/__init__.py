"""What the classroom mode lays over the window: the key list, the "predict first" prompt, a blank
screen, and the band under the views that says why the last merge won."""

from widgets.classroom.cover import BlankCover, Cover
from widgets.classroom.keys_overlay import KeysOverlay
from widgets.classroom.predict import ASKING, HIDDEN, REVEALED, Choice, PredictPrompt
from widgets.classroom.why_band import WhyBand

__all__ = ["ASKING", "HIDDEN", "REVEALED", "BlankCover", "Choice", "Cover", "KeysOverlay", "PredictPrompt", "WhyBand"]
