"""Qt item models: thin adapters from the session's lesson state to Qt's views.

Each model follows the session: a new lesson is a reset (everything changed), a step is
fine-grained (rows inserted or removed for the vocabulary, data changed for the words a merge
touched and the pair counts that moved).
"""

from widgets.models.pairs import PairsModel
from widgets.models.vocab import VocabModel
from widgets.models.words import WordsModel

__all__ = ["PairsModel", "VocabModel", "WordsModel"]
