"""BPE Lab's engine: byte pair encoding, with every step recorded for teaching.

Pure Python and free of Qt, so the command line, the tests and the window share it.
"""

from engine.corpus import Corpus
from engine.errors import BpeLabError
from engine.settings import Settings
from engine.tokenizer import Encoding, RankTokenizer, Tokenizer
from engine.trainer import MergeStep, Trainer, train

__all__ = [
    "BpeLabError",
    "Corpus",
    "Encoding",
    "MergeStep",
    "RankTokenizer",
    "Settings",
    "Tokenizer",
    "Trainer",
    "train",
]
