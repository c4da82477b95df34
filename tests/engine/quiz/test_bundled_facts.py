"""The bundled pack's answers, recomputed with the engine (and GPT-4's real ranks where it cites them)."""

import pytest

from engine import Corpus, Settings, Tokenizer, train
from engine.quiz import grade
from engine.algorithm.textbook import get_stats
from resources.quiz import bundled_pack

CLASSIC = "low 5\nlower 2\nnewest 6\nwidest 3\n"


@pytest.fixture(scope="module")
def questions():
    return {q.id: q for q in bundled_pack().questions}


def classic(**kw):
    return Corpus.from_word_counts(CLASSIC, Settings(**kw))


def correct_options(q):
    return [o.text for o in q.options if o.correct]


def test_pair_counts(questions):
    corpus = classic()
    stats = get_stats([corpus.symbols(i) for i in range(len(corpus))], corpus.counts)
    assert questions["count-we"].answer == stats[("w", "e")]
    assert questions["count-st"].answer == stats[("s", "t")]
    # the "each word counts once" wrong answers are the number of words holding the pair
    assert questions["count-we"].wrong[0].answer == sum(1 for w in corpus.words if "we" in w)
    assert questions["total-symbols"].answer == corpus.total_symbols()


def test_first_merge_and_tie(questions):
    _, steps = train(classic(merges=5))
    assert correct_options(questions["tie-first"]) == [" + ".join(steps[0].pair)]
    assert set(steps[0].tied) == {("e", "s"), ("s", "t"), ("t", "</w>")}
    assert list(questions["classic-order"].items) == [s.token for s in steps]


def test_tea_corpus(questions):
    corpus = Corpus.from_text("tea tea team teams steam seat", Settings(end_of_word=None))
    _, steps = train(corpus)
    assert correct_options(questions["tea-next"]) == [" + ".join(steps[0].pair)]
    assert corpus.total_symbols() == 24
    assert questions["tea-tokens"].answer == steps[2].tokens_after


def test_unseen_words(questions):
    trainer, _ = train(classic(merges=5))
    tokenizer = Tokenizer.from_trainer(trainer)
    assert questions["lowest"].answer == len(tokenizer.encode("lowest"))
    assert questions["slowest"].answer == len(tokenizer.encode("slowest"))


def test_bytes(questions):
    assert questions["emoji-bytes"].answer == len("😀".encode("utf-8"))
    corpus = Corpus.from_text("x", Settings(units="bytes"))
    assert len(corpus.base_vocab()) == 256
    assert grade(questions["unknown-fill"], ["<unk>", "256"]).correct


@pytest.fixture(scope="module")
def cl100k():
    from engine.algorithm.cl100k import load_cl100k

    return load_cl100k()


def test_gpt4_facts(questions, cl100k):
    assert questions["token-or-word"].answer == len(cl100k.encode("tokenization"))
    assert questions["strawberry-tokens"].answer == len(cl100k.encode("strawberry"))
    items = questions["languages-order"].items
    counts = [len(cl100k.encode(item.split(": ", 1)[1])) for item in items]
    assert counts == sorted(counts) and len(set(counts)) == len(counts)
    assert f"English {counts[0]}" in questions["languages-order"].explanation
    assert "8 tokens in English but 25 in Greek" in questions["languages-why"].prompt
    assert (counts[0], counts[2]) == (8, 25)


@pytest.fixture(scope="module")
def pack():
    return bundled_pack()


def misconception(pack, id):
    return pack.misconceptions[id]


def test_languages_premium_is_the_charts_own(pack, cl100k):
    from engine.readable.explorer import load_languages, token_counts

    samples = load_languages()
    counts = dict(zip((s.code for s in samples), token_counts(cl100k, samples)))
    ratio = counts["ta"] / counts["en"]
    text = misconception(pack, "same-tokens-every-language").text
    assert f"Tamil costs ×{ratio:.1f}" in text
    # the chart alone shows more than "two or three times": the text must not say less
    assert ratio > 3 and "two or three times" not in text
    assert "Petrov et al." in text and "NeurIPS 2023" in text and "FLORES-200" in text and "cl100k" in text
    assert "more than ten times" in text


def test_special_tokens_spelled_out_is_counted(pack, cl100k):
    text = misconception(pack, "specials-are-text").text
    spelled = len(cl100k.encode_ids("<|endoftext|>"))
    assert spelled > 1 and f"{spelled} tokens in cl100k_base" in text
    assert "never spelt out" not in text and "injection" in text
    questions = {q.id: q for q in pack.questions}
    assert "never spelt out" not in questions["chat-markers"].text
    assert "allowed_special" in questions["special-whole"].prompt


def test_strawberry_with_its_leading_space(questions, cl100k):
    assert len(cl100k.encode_ids(" strawberry")) == 1 != questions["strawberry-tokens"].answer
    assert "` strawberry` (space included) is a single cl100k token" in questions["strawberry-tokens"].explanation
    assert "at the very start of a text" in questions["strawberry-tokens"].prompt


def test_languages_order_keeps_counts_a_student_can_reason_apart(questions, cl100k):
    items = questions["languages-order"].items
    counts = [len(cl100k.encode_ids(item.split(": ", 1)[1])) for item in items]
    # neighbours differ by more than a token or two: no ranking hinges on a near tie
    assert all(b - a >= 3 for a, b in zip(counts, counts[1:]))
    assert ", ".join(f"{item.split(':')[0]} {n}" for item, n in zip(items, counts)) in questions["languages-order"].explanation


def test_vocab_size_questions_give_cl100ks_real_size(questions, cl100k):
    assert f"{len(cl100k.ranks):,} regular tokens" in questions["vocab-tradeoff"].explanation
    assert grade(questions["vocab-tradeoff"], [0, 1]).correct
    assert grade(questions["vocab-gain"], [0, 1]).correct
    assert grade(questions["tokenizers-differ"], [0]).correct


def test_worked_example_shows_every_tie(pack):
    _, steps = train(classic(merges=3))
    example = next(e for e in pack.examples if e.id == "first-merges")
    for step in steps:
        # the sentence that first names the winner names each pair tied with it
        said = next(s for s in example.steps if f"`{step.pair[0]} {step.pair[1]}`" in s)
        for x, y in step.tied:
            assert f"`{x} {y}`" in said, (step.pair, (x, y))


NUMBER_WORDS = {2: "two", 3: "three", 7: "seven", 9: "nine", 10: "ten", 12: "twelve", 13: "thirteen"}


def test_counts_of_characters_and_letters_are_the_texts_own(pack, questions):
    typed = "<|im_end|>"
    said = misconception(pack, "typed-markers-are-controls").text
    assert f"types {typed} has typed {NUMBER_WORDS[len(typed)]} characters" in said
    assert f"not {NUMBER_WORDS[len('strawberry')]} letters" in questions["strawberry"].explanation
    assert f"the {NUMBER_WORDS[len('strawberry')]} letters are inside them" in questions["strawberry-tokens"].explanation
    # the "a token is a letter" wrong answers are the letters (and marker) the word starts as
    assert questions["token-or-word"].wrong[1].answer == len("tokenization")
    assert questions["lowest"].wrong[1].answer == len("lowest") + 1
    assert questions["slowest"].wrong[1].answer == len("slowest") + 1
    greek = questions["languages-order"].items[2].split(": ", 1)[1]
    assert all(len(c.encode("utf-8")) == 2 for c in greek if c.isalpha())
    assert "Greek letters also take two bytes each" in questions["languages-why"].explanation


def test_each_wrong_option_carries_the_misconception_it_shows(pack, questions):
    tags = {o.text: o.misconception for q in pack.questions for o in getattr(q, "options", ()) if o.misconception}
    # believing texts get longer is not believing a bigger vocabulary is better: nearly the opposite
    longer = tags["Texts would become longer"]
    assert longer != "bigger-vocab-is-free" and "longer" in misconception(pack, longer).title
    assert "bigger is always better" in next(o.text for o in questions["vocab-tradeoff"].options
                                             if o.misconception == "bigger-vocab-is-free")
    # a control token that becomes <unk> is not a character being dropped
    for q in ("special-whole", "typed-marker"):
        assert all(o.misconception != "unknown-is-dropped" for o in questions[q].options), q
    for text, tag in tags.items():
        assert tag in pack.misconceptions, text


def test_more_merges_never_make_a_text_longer(pack):
    # what the "bigger vocabulary makes texts longer" feedback says, on the classic run and a held-out word
    said = misconception(pack, "bigger-vocab-lengthens").text
    assert "or as many" in said and "never more" in said
    _, steps = train(classic())
    totals = [s.tokens_after for s in steps]
    assert all(b <= a for a, b in zip([steps[0].tokens_before] + totals, totals))


def test_the_chat_marker_ids_are_the_ones_the_explorer_uses(questions):
    from engine.algorithm.cl100k import CHAT_TOKENS
    from engine.readable.explorer import QWEN_CHAT_IDS

    said = questions["chat-markers"].explanation
    for ids in (QWEN_CHAT_IDS, CHAT_TOKENS):
        assert f"{ids['<|im_start|>']} and {ids['<|im_end|>']}" in said


def test_the_worked_counts_in_explanations_are_the_engines(pack, questions):
    tea = Corpus.from_text("tea tea team teams steam seat", Settings(end_of_word=None))
    stats = get_stats([tea.symbols(i) for i in range(len(tea))], tea.counts)
    said = questions["tea-next"].explanation
    # the six words are six occurrences (tea twice): a pair's count is the number of words holding it
    words = {6: "all six", 5: "five", 3: "three"}
    assert f"e a occurs in {words[stats[('e', 'a')]]} words: {stats[('e', 'a')]} times" in said
    assert f"t e occurs in {words[stats[('t', 'e')]]} of them" in said and f"a m in {words[stats[('a', 'm')]]}" in said
    _, steps = train(tea)
    def shrinks(s, verb=""):
        return f"{' '.join(s.pair)} {verb}{s.tokens_before - s.tokens_after} times ({s.tokens_before} → {s.tokens_after})"

    said = ", ".join([shrinks(steps[0], "applies "), *(shrinks(s) for s in steps[1:])])
    assert said in questions["tea-tokens"].explanation
    corpus = classic()
    per_word = ", ".join(f"{w}: {len(corpus.symbols(i))} × {c} = {len(corpus.symbols(i)) * c}"
                         for i, (w, c) in enumerate(zip(corpus.words, corpus.counts)))
    assert per_word in questions["total-symbols"].explanation
    _, first = train(classic(merges=5))
    order = f"{first[0].token} ({first[0].count}), {first[1].token} ({first[1].count}), {first[2].token} ({first[2].count}), " \
            f"then {first[3].token} ({first[3].count}) and {first[4].token} ({first[4].count})"
    assert order in questions["classic-order"].explanation
    stats = get_stats([corpus.symbols(i) for i in range(len(corpus))], corpus.counts)
    said = next(s for s in next(e for e in pack.examples if e.id == "first-merges").steps if "**9**" in s)
    assert f"`w e` {stats[('w', 'e')]}; `l o` and `o w` {stats[('l', 'o')]}" in said and stats[("l", "o")] == stats[("o", "w")]


def test_fewer_tokens_is_not_a_better_tokenizer_and_the_pack_says_why():
    pack = bundled_pack()
    q = next(q for q in pack.questions if q.id == "fewer-tokens-not-better")
    shorter = next(i for i, o in enumerate(q.options) if o.misconception == "fewer-tokens-better")
    result = grade(q, [shorter], pack.misconceptions)
    assert not result.correct and result.misconception.title == "The tokenizer with fewer tokens is the better one"
    assert "Zouhar et al. (ACL 2023)" in q.explanation and "0.78" in q.explanation
