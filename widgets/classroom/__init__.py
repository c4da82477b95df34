"""What the classroom mode lays over the window: the key list, the "predict first" prompt, a blank screen."""

from widgets.classroom.cover import BlankCover, Cover
from widgets.classroom.keys_overlay import KeysOverlay
from widgets.classroom.predict import ASKING, HIDDEN, REVEALED, Choice, PredictPrompt

__all__ = ["ASKING", "HIDDEN", "REVEALED", "BlankCover", "Choice", "Cover", "KeysOverlay", "PredictPrompt"]
