"""Both tokenizer models are an Encoder: code written against the protocol takes either."""

from engine import Corpus, Settings, Tokenizer, train
from engine.algorithm.cl100k import load_cl100k
from engine.algorithm.encoder import Encoder
from engine.algorithm.tokenizer import RankTokenizer


def members(protocol) -> set[str]:
    return {name for name in vars(protocol) if not name.startswith("_")} | set(protocol.__annotations__)


def test_both_models_offer_every_member_of_the_protocol():
    names = members(Encoder)
    assert {"encode", "encode_ids", "decode", "decode_bytes", "pre_tokenize", "settings"} <= names
    trained = Tokenizer.from_trainer(train(Corpus.from_text("low lower lowest", Settings()))[0])
    for tokenizer in (trained, trained.truncated(1), load_cl100k()):
        assert isinstance(tokenizer, Encoder)
        assert [n for n in sorted(names) if not hasattr(tokenizer, n)] == []
    # what the protocol reads (annotations and read-only properties) may be plain attributes; the rest are methods
    read = set(Encoder.__annotations__) | {n for n, v in vars(Encoder).items() if isinstance(v, property)}
    for model in (Tokenizer, RankTokenizer):
        assert [n for n in sorted(names - read) if not callable(getattr(model, n, None))] == []


def test_something_that_is_not_a_tokenizer_is_not_an_encoder():
    class EncodesOnly:
        def encode(self, text):
            return text.split()

    assert not isinstance(EncodesOnly(), Encoder)
