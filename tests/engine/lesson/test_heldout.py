"""A held-out text's tokens after every step, from one pass, equal encoding it at each step."""

from hypothesis import given, settings as hyp_settings, strategies as st

from engine.lesson.heldout import corpus_characters, text_words, token_curve
from engine.lesson.lesson import Lesson
from engine.algorithm.settings import Settings
from engine.algorithm.tokenizer import Tokenizer

CLASSIC = "low 5\nlower 2\nnewest 6\nwidest 3\n"
PROSE = (
    "The cat sat on the mat. The other cat sat on the hat, and then the cats sat together on "
    "the mat that the other cat had sat on before. Nobody knew whose hat it was."
)
HELD_OUT = "The lowest hat sat on the newest mat; whose cats? Ünïcode and 猫 are new here."


def _encoded_lengths(lesson: Lesson, text: str) -> list[int]:
    return [len(lesson.tokenizer_at(k).encode(text)) for k in range(lesson.last_step + 1)]


def _check(lesson: Lesson, text: str, allow_special: bool = False) -> None:
    curve = token_curve(lesson.tokenizer, text, allow_special=allow_special)
    expected = [len(lesson.tokenizer_at(k).encode(text, allow_special)) for k in range(lesson.last_step + 1)]
    assert list(curve.tokens) == expected


def test_classic_lesson_on_words_it_never_saw():
    lesson = Lesson(CLASSIC, word_counts=True).train()
    curve = token_curve(lesson.tokenizer, "lowest lowest newer")
    # l o w e s t </w> twice and n e w e r </w>: 20 symbols before any merge
    assert curve.tokens[0] == 20
    # after the first five merges "lowest" is low + est</w>
    assert len(lesson.tokenizer_at(5).encode("lowest")) == 2
    _check(lesson, "lowest lowest newer")


def test_prose_with_default_settings():
    _check(Lesson(PROSE).train(), HELD_OUT)


def test_every_split_and_unit():
    for settings in (
        Settings(split="gpt2", units="bytes"),
        Settings(split="gpt4", units="bytes"),
        Settings(split="none"),
        Settings(end_of_word=None, lowercase=True),
        Settings(end_of_word="_", min_frequency=1),
    ):
        _check(Lesson(PROSE, settings=settings).train(), HELD_OUT)


def test_special_tokens_count_once_each():
    settings = Settings(split="gpt2", units="bytes", special_tokens=("<|endoftext|>",))
    lesson = Lesson(PROSE + "<|endoftext|>" + PROSE, settings=settings).train()
    text = "the cat<|endoftext|>sat<|endoftext|>"
    words, specials = text_words(lesson.tokenizer, text, allow_special=True)
    assert specials == ["<|endoftext|>", "<|endoftext|>"]
    _check(lesson, text, allow_special=True)
    # not allowed, the special token's text is ordinary text, as in encode's default
    words, specials = text_words(lesson.tokenizer, text)
    assert specials == [] and "<|" in words
    _check(lesson, text)


def test_the_words_counted_are_the_words_encoding_cuts():
    settings = Settings(lowercase=True, special_tokens=("<|endoftext|>",))
    lesson = Lesson(PROSE + "<|endoftext|>" + PROSE, settings=settings).train()
    text = "The CAT<|endoftext|>sat,  the cat<|endoftext|>"
    # allowed, the special tokens are met whole and left out of the words
    words, specials = text_words(lesson.tokenizer, text, allow_special=True)
    assert sorted(words.elements()) == sorted(lesson.tokenizer.pre_tokenize(text, allow_special=True))
    assert specials == ["<|endoftext|>", "<|endoftext|>"]
    # by default their text is ordinary text, cut into words as encoding cuts it
    words, specials = text_words(lesson.tokenizer, text)
    assert sorted(words.elements()) == sorted(lesson.tokenizer.pre_tokenize(text)) and specials == []
    assert any("endoftext" in w for w in words)
    _check(lesson, text)


def test_fewer_steps_than_the_history():
    lesson = Lesson(PROSE).train()
    curve = token_curve(lesson.tokenizer, HELD_OUT, steps=3)
    assert list(curve.tokens) == _encoded_lengths(lesson, HELD_OUT)[:4]


def test_a_token_made_twice_keeps_the_count_exact():
    # "abc" comes from a+bc (rank 2) and from ab+c (rank 4): replayed in order, "abcd" takes ranks
    # 0 and 4; abc+d (rank 3) came before abc existed in this word, so it never applies here
    tokenizer = Tokenizer(
        Settings(end_of_word=None),
        list("abcd"),
        [("a", "b"), ("b", "c"), ("a", "bc"), ("abc", "d"), ("ab", "c")],
    )
    _, trace = tokenizer.encode_steps("abcd")
    assert [entry.rank for entry in trace] == [0, 4]
    text = "abcd abcd bcd dabc"
    curve = token_curve(tokenizer, text)
    assert list(curve.tokens) == [len(tokenizer.truncated(k).encode(text)) for k in range(6)]


def test_characters_count_the_words_not_the_marker():
    lesson = Lesson(CLASSIC, word_counts=True).train()
    assert corpus_characters(lesson.corpus) == 3 * 5 + 5 * 2 + 6 * 6 + 6 * 3
    assert token_curve(lesson.tokenizer, "low  lower").characters == 8
    byte_lesson = Lesson("naïve café", settings=Settings(units="bytes")).train()
    assert corpus_characters(byte_lesson.corpus) == 10 - 1


def test_empty_text_takes_no_tokens():
    lesson = Lesson(PROSE).train()
    curve = token_curve(lesson.tokenizer, "")
    assert set(curve.tokens) == {0}
    assert curve.characters_per_token(0) == 0.0


@hyp_settings(max_examples=60, deadline=None)
@given(
    st.text(alphabet="abcab ", min_size=2, max_size=40),
    st.text(alphabet="abcdab ", max_size=30),
    st.sampled_from(["whitespace", "none", "gpt2"]),
    st.sampled_from(["chars", "bytes"]),
)
def test_random_texts(train_text, held_out, split, units):
    lesson = Lesson(train_text, settings=Settings(split=split, units=units, min_frequency=1))
    if lesson.is_empty:
        return
    lesson.train()
    _check(lesson, held_out)
