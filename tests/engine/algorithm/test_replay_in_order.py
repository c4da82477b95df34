"""Encoding replays the merges in their order, so the training words encode to exactly the tokens
training ended with: also where a merge rebuilds a token already there (a literal ``</w>`` in the
text, a marker that letters spell, ``ab + c`` after ``a + bc``)."""

import pytest
from hypothesis import HealthCheck, example, given, settings as hyp_settings, strategies as st

from engine import BpeLabError, Corpus, Settings, Tokenizer, train
from engine.algorithm.bytelevel import bytes_to_symbols, symbols_to_bytes
from engine.lesson.history import History
from engine.algorithm.tokenizer import UNKNOWN, rank_order_conflict


def replay(symbols: list[str], merges: list[tuple[str, str]]) -> list[str]:
    """The reference: each merge in turn, everywhere in the word, left to right without overlap."""
    for a, b in merges:
        out, i = [], 0
        while i < len(symbols):
            if i + 1 < len(symbols) and symbols[i] == a and symbols[i + 1] == b:
                out.append(a + b)
                i += 2
            else:
                out.append(symbols[i])
                i += 1
        symbols = out
    return symbols


def lowest_rank_first(symbols: list[str], merges: list[tuple[str, str]]) -> list[str]:
    """What the encoder did before: the present pair of lowest rank, again and again."""
    rank = {}
    for r, pair in enumerate(merges):
        rank.setdefault(pair, r)
    while True:
        present = [rank[p] for p in zip(symbols, symbols[1:]) if p in rank]
        if not present:
            return symbols
        symbols = replay(symbols, [merges[min(present)]])


def word_text(corpus: Corpus, w: int) -> str:
    word = corpus.words[w]
    return symbols_to_bytes(word).decode("utf-8") if corpus.settings.units == "bytes" else word


def test_a_literal_marker_in_the_text_encodes_as_training_left_it():
    # the example of issue 13: </w + > rebuilds the marker's string after w + </w> was merged
    corpus = Corpus.from_text("aw w</w></w>w\n", Settings())
    trainer, steps = train(corpus)
    tokenizer = Tokenizer.from_trainer(trainer)
    history = History(corpus, steps)
    assert tokenizer.merges == [("w", "</w>"), ("<", "/"), ("</", "w"), ("</w", ">")]
    encoding = tokenizer.encode("aw w</w></w>w")
    assert list(encoding.tokens) == history.word_tokens(0, 4) + history.word_tokens(1, 4)
    assert encoding.tokens[2:] == ("w", "</w>", "</w>", "w</w>")
    assert len(encoding) == history.total_tokens(history.last_step) == 6
    # lowest-rank-first would join w + </w> again, which training never did
    assert lowest_rank_first(list("w</w></w>w") + ["</w>"], tokenizer.merges) == ["w</w>", "</w>", "w</w>"]
    assert rank_order_conflict(tokenizer.merges) == (3, 0)
    # the trace shows the same tokens as the encoding, each merge once and in order
    base, trace = tokenizer.encode_steps("w</w></w>w")
    assert trace[-1].tokens == encoding.tokens[2:]
    assert [step.rank for step in trace] == [0, 1, 2, 3]


def test_a_token_made_twice_does_not_bring_back_an_earlier_merge():
    # abc is a + bc (rank 2) and ab + c (rank 4); abc + d (rank 3) came before abc existed in "abcd"
    merges = [("a", "b"), ("b", "c"), ("a", "bc"), ("abc", "d"), ("ab", "c")]
    tokenizer = Tokenizer(Settings(end_of_word=None), list("abcd"), merges)
    assert tokenizer.encode("abcd").tokens == ("abc", "d") == tuple(replay(list("abcd"), merges))
    assert lowest_rank_first(list("abcd"), merges) == ["abcd"]
    assert tokenizer.encode("bcd").tokens == ("bc", "d")
    assert rank_order_conflict(merges) == (4, 3)
    # the tokenizer cut before the rebuilding merge is plain lowest-rank-first
    assert rank_order_conflict(merges[:4]) is None
    assert tokenizer.truncated(4).encode("abcd").tokens == ("ab", "c", "d")


@st.composite
def merge_lists_and_words(draw):
    """A merge list over a b c, each merge joining two tokens already there and often spelling
    again a token an earlier merge used; and a word, often that token's new spelling beside the
    neighbour the earlier merge joined it with, where replaying in order matters."""
    tokens = ["a", "b", "c"]
    merges: list[tuple[str, str]] = []
    for _ in range(draw(st.integers(0, 10))):
        used = {part for pair in merges for part in pair}
        rebuilds = [(t[:i], t[i:]) for t in sorted(used) for i in range(1, len(t))
                    if t[:i] in tokens and t[i:] in tokens and (t[:i], t[i:]) not in merges]
        if rebuilds and draw(st.booleans()):
            pair = draw(st.sampled_from(rebuilds))
        else:
            pair = (draw(st.sampled_from(tokens)), draw(st.sampled_from(tokens)))
        merges.append(pair)
        if pair[0] + pair[1] not in tokens:
            tokens.append(pair[0] + pair[1])
    meetings = [(m, e) for r, m in enumerate(merges) for e in merges[:r] if m[0] + m[1] in e]
    if meetings and draw(st.booleans()):
        (u, v), (x, y) = draw(st.sampled_from(meetings))
        word = u + v + y if x == u + v else x + u + v
    else:
        word = "".join(draw(st.lists(st.sampled_from(tokens), max_size=4)))
    return merges, word


@hyp_settings(max_examples=300, deadline=None)
@given(merge_lists_and_words())
def test_any_merge_list_encodes_by_replaying_in_order(merges_and_word):
    merges, word = merges_and_word
    tokenizer = Tokenizer(Settings(end_of_word=None, split="none"), list("abc"), merges)
    assert list(tokenizer.encode(word).tokens) == replay(list(word), merges)
    for k in range(len(merges) + 1):
        assert list(tokenizer.truncated(k).encode(word).tokens) == replay(list(word), merges[:k])
    if rank_order_conflict(merges) is None:
        # no merge rebuilds a token an earlier one used: the lowest-rank rule gives the same
        assert list(tokenizer.encode(word).tokens) == lowest_rank_first(list(word), merges)


# -- every tokenizer: the training words encode to training's last tokens ------------------------

# fragments that spell the marker, the "_" marker, and strings two merges can make
FRAGMENTS = ["a", "b", "c", "w", "_", "<", "/", ">", "</w>", "ab", "bc", "w</w>"]
fragment_words = st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=5).map("".join)
corpora = st.lists(st.tuples(fragment_words, st.integers(1, 5)), min_size=1, max_size=10)
settings_strategy = st.one_of(
    st.builds(Settings, end_of_word=st.sampled_from(["auto", "_", "</w>", None, "w"]),
              min_frequency=st.integers(1, 2), tie_break=st.sampled_from(["first", "hf"])),
    st.builds(Settings, split=st.sampled_from(["gpt2", "none"]), units=st.sampled_from(["chars", "bytes"]),
              min_frequency=st.integers(1, 2)),
)


def _trained(pairs, settings):
    if settings.split == "whitespace":
        corpus = Corpus.from_word_counts("\n".join(f"{w} {c}" for w, c in pairs), settings)
    else:
        corpus = Corpus.from_text(" ".join(w for w, c in pairs for _ in range(c)), settings)
    trainer, steps = train(corpus)
    return corpus, Tokenizer.from_trainer(trainer), History(corpus, steps)


@hyp_settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora, settings_strategy)
# corpora where merging the lowest rank first would not give training's tokens (found by this test's search)
@example([("aw", 1), ("w</w></w>w", 1)], Settings())
@example([("w", 3), ("<w</w>b>/", 2), (">", 6), ("/_</w>a", 1)], Settings(min_frequency=1))
@example([("w</w>b/</w>b", 1), ("cab</w>>", 3), ("/", 3), ("_bbwb", 3), ("bc", 4)], Settings(min_frequency=1, tie_break="hf"))
# the "_" marker, which letters spell too
@example([("a_b", 3), ("_a_", 2), ("b__", 2)], Settings(end_of_word="_", min_frequency=1))
def test_training_words_encode_to_the_tokens_training_ended_with(pairs, settings):
    corpus, tokenizer, history = _trained(pairs, settings)
    last = history.last_step
    for w in range(len(corpus)):
        expected = history.word_tokens(w, last)
        assert replay(corpus.symbols(w), tokenizer.merges) == expected
        assert tokenizer.merge_symbols(corpus.symbols(w)) == expected
        assert list(tokenizer.encode(word_text(corpus, w)).tokens) == expected
        # and at every step on the way
        for k in range(0, last + 1, max(1, last // 6)):
            assert list(tokenizer.truncated(k).encode(word_text(corpus, w)).tokens) == history.word_tokens(w, k)
    if settings.split == "whitespace":
        text = " ".join(word_text(corpus, w) for w in range(len(corpus)) for _ in range(corpus.counts[w]))
        assert len(tokenizer.encode(text)) == history.total_tokens(last)


held_out = st.text(alphabet="abcw_</> xyé", max_size=30)


@hyp_settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora, settings_strategy, held_out)
def test_encoding_any_text_is_replaying_the_merges_in_order(pairs, settings, text):
    corpus, tokenizer, _ = _trained(pairs, settings)
    expected = []
    base = set(tokenizer.base)
    for word in tokenizer.pre_tokenize(text):
        if settings.units == "bytes":
            symbols = list(bytes_to_symbols(word.encode("utf-8")))
        else:
            symbols = [c if c in base else UNKNOWN for c in word]
            if settings.marker is not None:
                symbols.append(settings.marker)
        expected.extend(replay(symbols, tokenizer.merges))
    encoding = tokenizer.encode(text)
    assert list(encoding.tokens) == expected
    assert tokenizer.encode_ids(text) == list(encoding.ids)
    # each word's trace ends in its tokens, each merge once and in rising rank
    for word in tokenizer.pre_tokenize(text):
        start, trace = tokenizer.encode_steps(word)
        ranks = [step.rank for step in trace]
        assert ranks == sorted(set(ranks))


# -- formats whose libraries merge the lowest rank first refuse what they cannot express ----------

@pytest.mark.parametrize("fmt", ["hf", "gpt2"])
def test_an_export_refuses_a_merge_list_whose_replay_the_library_would_not_follow(tmp_path, fmt):
    from engine.formats.gpt2 import save_gpt2
    from engine.formats.hf import save_hf

    tokenizer = Tokenizer(Settings(end_of_word=None), list("abcd"),
                          [("a", "b"), ("b", "c"), ("a", "bc"), ("abc", "d"), ("ab", "c")])
    save = save_hf if fmt == "hf" else save_gpt2
    with pytest.raises(BpeLabError, match="merge 5 rebuilds 'abc', which merge 4 had already joined"):
        save(tokenizer, tmp_path / "out")
    assert not (tmp_path / "out").exists()
    # the same tokens without the rebuilding merge export as before
    save(tokenizer.truncated(4), tmp_path / "out")
