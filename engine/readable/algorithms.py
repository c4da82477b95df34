"""BPE beside WordPiece and Unigram: the three trained on one corpus to one vocabulary size and measured.

BPE is BPE Lab's own trainer; WordPiece and Unigram are trained by Hugging Face ``tokenizers`` (a
real, maintained implementation: nothing here re-implements them), imported only when a comparison
runs. All three cut words at whitespace and keep case, so they differ only in how they learn and
encode. Each is measured with ``engine.readable.metrics`` on the held-out text. WordPiece's trainer
breaks ties between equally frequent pairs in an order of its own that can change between runs.

Tokens are compared by their text, without the marks each algorithm puts on them (BPE's end-of-word
marker, WordPiece's ``##``): "only here" lists pieces of text one vocabulary has and the other two
lack, the ones the held-out text uses most first.

``comparing`` is the same comparison as a generator that yields each algorithm's name before it
trains it, so a worker can say where it is. The library trains in a child process (``engine.child``),
since its native code cannot be interrupted: ``check``, called while it trains, stops the comparison by
raising, and the child ends with it.

Left out: the window's view and its worker (they drive ``comparing``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass
from typing import Any

from engine.algorithm.corpus import Corpus
from engine.algorithm.settings import UNKNOWN, Settings
from engine.algorithm.tokenizer import Encoding, Tokenizer
from engine.algorithm.collector import collector_paused
from engine.algorithm.trainer import Trainer
from engine.child import run_in_child
from engine.errors import BpeLabError
from engine.readable.metrics import DEFAULT_ALPHA, Metrics, measure, measure_encoding

# how each learns, in words the tests check against the library
HOW_EACH_LEARNS = {
    "BPE": "BPE (BPE Lab) starts from the characters and merges the most frequent pair of neighbouring "
           "tokens, one merge a step, until the vocabulary has the size asked for; a text is encoded by "
           "replaying the merges in order.",
    "WordPiece": "WordPiece, as tokenizers trains it, learns with the same most-frequent-pair loop (not the "
                 "likelihood score of the original WordPiece), over pieces that mark every part after a "
                 "word's first with ##; it encodes a word by taking the longest piece of its vocabulary "
                 "from the left, and a word it cannot spell becomes one [UNK].",
    "Unigram": "Unigram works the other way round: it starts from a large set of frequent substrings and "
               "drops the pieces whose loss lowers the corpus's likelihood least until the size asked for "
               "remains, so it keeps pieces no merge could make; each piece has a log probability, and a "
               "word is encoded as its most probable split.",
}
ALGORITHMS = tuple(HOW_EACH_LEARNS)
# the measures shown side by side, by the CLI and the window: (label, Metrics attribute, format)
METRIC_ROWS = (
    ("vocabulary size", "vocab_size", "{:,}"),
    ("tokens", "tokens", "{:,}"),
    ("characters per token", "characters_per_token", "{:.3f}"),
    ("bytes per token", "bytes_per_token", "{:.3f}"),
    ("tokens per word", "tokens_per_word", "{:.3f}"),
    ("words kept in one token", "whole_share", "{:.1%}"),
    ("words split into pieces", "split_share", "{:.1%}"),
    ("unknown tokens", "unknown", "{:,}"),
    ("vocabulary used", "vocab_used_share", "{:.1%}"),
    ("Rényi efficiency", "renyi_efficiency", "{:.4f}"),
    ("Shannon efficiency", "shannon_efficiency", "{:.4f}"),
)
WORDPIECE_UNKNOWN = "[UNK]"
UNIGRAM_UNKNOWN = "<unk>"
# a pair must occur this often to be merged, in BPE Lab's default and in WordPiece's trainer
MIN_FREQUENCY = 2


class MissingLibraryError(BpeLabError):
    """The comparison needs Hugging Face ``tokenizers``, which is not installed."""


@dataclass(frozen=True, slots=True)
class Trained:
    """One algorithm's vocabulary on the corpus, and how it did on the held-out text."""

    name: str
    metrics: Metrics
    tokens: tuple[str, ...]  # the held-out text's tokens, as the algorithm spells them
    pieces: frozenset[str]  # the vocabulary's tokens as text, without the algorithm's marks
    only_here: tuple[str, ...] = ()


def _nothing() -> None:
    return None


def _library() -> Any:
    try:
        import tokenizers
    except ImportError:
        raise MissingLibraryError(
            "comparing algorithms needs the tokenizers library: install it with pip install 'tokenizers>=0.19'"
        ) from None
    return tokenizers


def train_bpe(corpus_text: str, vocab_size: int, check: Callable[[], None] = _nothing) -> Tokenizer:
    """BPE Lab's BPE, default settings, to ``vocab_size``, as ``trainer.train`` trains; ``check``, which
    stops the training by raising, is called after each merge."""
    corpus = Corpus.from_text(corpus_text, Settings(vocab_size=vocab_size, min_frequency=MIN_FREQUENCY))
    if corpus.is_empty:
        raise BpeLabError("the corpus is empty: give some training text")
    with collector_paused():
        trainer = Trainer(corpus)
        for _ in trainer.steps():
            check()
    return Tokenizer.from_trainer(trainer)


def train_wordpiece(corpus_text: str, vocab_size: int) -> Any:
    """A ``tokenizers`` WordPiece tokenizer trained on the corpus, cut at whitespace."""
    lib = _library()
    tok = lib.Tokenizer(lib.models.WordPiece(unk_token=WORDPIECE_UNKNOWN))
    tok.pre_tokenizer = lib.pre_tokenizers.WhitespaceSplit()
    trainer = lib.trainers.WordPieceTrainer(vocab_size=vocab_size, min_frequency=MIN_FREQUENCY,
                                            special_tokens=[WORDPIECE_UNKNOWN], show_progress=False)
    tok.train_from_iterator([corpus_text], trainer)
    return tok


def train_unigram(corpus_text: str, vocab_size: int) -> Any:
    """A ``tokenizers`` Unigram tokenizer trained on the corpus, cut at whitespace."""
    lib = _library()
    tok = lib.Tokenizer(lib.models.Unigram())
    tok.pre_tokenizer = lib.pre_tokenizers.WhitespaceSplit()
    trainer = lib.trainers.UnigramTrainer(vocab_size=vocab_size, special_tokens=[UNIGRAM_UNKNOWN],
                                          unk_token=UNIGRAM_UNKNOWN, show_progress=False)
    tok.train_from_iterator([corpus_text], trainer)
    return tok


LIBRARY_TRAINERS = {"WordPiece": train_wordpiece, "Unigram": train_unigram}


def _trained_json(name: str, corpus_text: str, vocab_size: int) -> str:
    """In the child: the library's tokenizer trained, as its JSON (a ``Tokenizer`` does not cross processes)."""
    json: str = LIBRARY_TRAINERS[name](corpus_text, vocab_size).to_str()
    return json


def train_in_child(name: str, corpus_text: str, vocab_size: int, check: Callable[[], None] = _nothing) -> Any:
    """``train_wordpiece`` or ``train_unigram`` (by ``name``) run in a child process, which ``check``
    raising ends at once."""
    lib = _library()  # here, so a missing library is said before any child starts
    json = run_in_child(_trained_json, name, corpus_text, vocab_size, check=check, what=f"the {name} training")
    return lib.Tokenizer.from_str(json)


def measure_library_tokenizer(tok: Any, text: str, unknown: str, alpha: float = DEFAULT_ALPHA) -> tuple[Metrics, tuple[str, ...]]:
    """The measures of ``text`` encoded by a ``tokenizers`` tokenizer, and its tokens."""
    found = tok.encode(text, add_special_tokens=False)
    encoding = Encoding(found.ids, tok.id_to_token, [s for s, _ in found.offsets], [e for _, e in found.offsets])
    pieces = [piece for piece, _ in tok.pre_tokenizer.pre_tokenize_str(text)]
    metrics = measure_encoding(text, encoding, pieces, tok.token_to_id(unknown),
                               tok.get_vocab_size(with_added_tokens=True), alpha)
    # the library's own strings: Unigram spells an unknown piece by the text it stands for
    return metrics, tuple(found.tokens)


def _bare(tokens: Iterable[str], marks: Iterable[str], drop: Iterable[str]) -> list[str]:
    """Tokens as text: without the algorithm's marks, without its unknown and special tokens."""
    out = []
    dropped = set(drop)
    for token in tokens:
        if token in dropped:
            continue
        for mark in marks:
            if mark.startswith("#"):
                token = token.removeprefix(mark)
            else:
                token = token.removesuffix(mark)
        if token:
            out.append(token)
    return out


def compare_algorithms(corpus_text: str, vocab_size: int, held_out: str | None = None,
                       alpha: float = DEFAULT_ALPHA, few: int = 6) -> list[Trained]:
    """BPE, WordPiece and Unigram trained on ``corpus_text`` to ``vocab_size``, measured on ``held_out``
    (the corpus itself by default), each with up to ``few`` pieces the other two lack. Ctrl+C stops it
    at once, the library's training included."""
    steps = comparing(corpus_text, vocab_size, held_out, alpha, few)
    while True:
        try:
            next(steps)
        except StopIteration as end:
            result: list[Trained] = end.value
            return result


def comparing(corpus_text: str, vocab_size: int, held_out: str | None = None, alpha: float = DEFAULT_ALPHA,
              few: int = 6, check: Callable[[], None] = _nothing) -> Generator[str, None, list[Trained]]:
    """``compare_algorithms`` step by step: yields the name of each algorithm (ALGORITHMS, in order)
    before training it, and returns what ``compare_algorithms`` returns. ``check`` is called often while
    the library trains; an exception it raises ends the training and goes on."""
    text = corpus_text if held_out is None else held_out
    yield ALGORITHMS[0]
    bpe = train_bpe(corpus_text, vocab_size, check)
    marker = bpe.settings.marker
    bpe_marks = [marker] if marker else []
    bpe_tokens = bpe.encode(text).tokens
    found = [(Trained("BPE", measure(bpe, text, alpha), bpe_tokens,
                      frozenset(_bare(bpe.vocab, bpe_marks, [UNKNOWN, *bpe.special_ids]))),
              _bare(bpe_tokens, bpe_marks, [UNKNOWN]))]
    for name, unknown, marks in (("WordPiece", WORDPIECE_UNKNOWN, ["##"]), ("Unigram", UNIGRAM_UNKNOWN, [])):
        yield name
        tok = train_in_child(name, corpus_text, vocab_size, check)
        metrics, tokens = measure_library_tokenizer(tok, text, unknown, alpha)
        pieces = frozenset(_bare(tok.get_vocab(with_added_tokens=True), marks, [unknown]))
        found.append((Trained(name, metrics, tokens, pieces), _bare(tokens, marks, [unknown])))
    result = []
    for trained, used in found:
        others = frozenset().union(*(t.pieces for t, _ in found if t is not trained))
        uses = Counter(used)
        lacking = sorted(trained.pieces - others, key=lambda p: (-uses[p], -len(p), p))
        result.append(Trained(trained.name, trained.metrics, trained.tokens, trained.pieces, tuple(lacking[:few])))
    return result
