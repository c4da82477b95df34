"""Training and test texts for the format tests, and a helper that trains a tokenizer."""

from engine.algorithm.corpus import Corpus
from engine.algorithm.settings import Settings
from engine.algorithm.tokenizer import Tokenizer
from engine.algorithm.trainer import train

SPECIALS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")

TRAINING = (
    "low " * 5 + "lower " * 2 + "newest " * 6 + "widest " * 3
    + "def area(r):\n    return 3.14159 * r ** 2  # circle\n\n\nfor i in range(10):\n\tprint(area(i))\n" * 3
    + "snake_case_name = other_name_ " * 2
    + "1234 345 2024-11-29 1000000 34 34 34 " * 4
    + "Größe straße café naïve ÉTÉ été " * 3
    + "日本語のテキストです。日本 " * 2
    + "Привет, мир! мир " * 2
    + "مرحبا بالعالم " * 2
    + "🙂🙂 rock 🎸 flag 🇫🇷 " * 2
    + "<|endoftext|> the end <|im_start|>user hi<|im_end|>"
)

# languages, emoji, code, long whitespace runs of several kinds, special tokens, unseen characters
TEXTS = [
    "lowest newer wider 1234567 12345 dollars, 3.14159 x=42 I'll they've WE'RE",
    "Größe, straße! ÉTÉ été naïveté — Ωμέγα ΟΔΟΣ",
    "日本語のテキストは読みにくい。中文也是。",
    "Привет, мир! مرحبا بالعالم שלום עולם",
    "🙂🎸🦜 👩\u200d👩\u200d👧 🇫🇷🇯🇵 ✨",
    "def g(y):\n\t\treturn  y   \n\n   x = [1, 2, 3]  # list\r\n",
    "a" + " " * 40 + "b\t\t\t\tc\n\n\n\n\nd" + "\u3000" * 5 + "e\x1cf\x85g\u2028h\xa0i\u2009j",
    "<|endoftext|>tail<|im_start|>user\nhello<|im_end|><|endoftext|><|endoftext|>",
    "literal </w> and <unk> and \ue000\ue001 private use, snake_case_ _ __",
    "   leading and trailing spaces   ",
    "",
    " ",
    "ǅǈ ß ŉ ﬃ İstanbul",
    "x" * 300,
]
TEXT = " ".join(TEXTS)

# every mode BPE Lab trains, by name
MODES = {
    "chars-marker": dict(),
    "chars-marker-underscore": dict(end_of_word="_"),
    "chars-marker-space": dict(end_of_word=" "),
    "chars-no-marker": dict(end_of_word=None),
    "chars-none-split": dict(split="none", end_of_word=None),
    "chars-none-split-marker": dict(split="none", end_of_word="</w>"),
    "chars-gpt2-split": dict(split="gpt2"),
    "chars-gpt4-split": dict(split="gpt4"),
    "bytes-gpt2": dict(units="bytes", split="gpt2"),
    "bytes-gpt4": dict(units="bytes", split="gpt4"),
    "bytes-whitespace": dict(units="bytes", split="whitespace"),
    "bytes-none": dict(units="bytes", split="none"),
}
BYTE_MODES = [name for name, kw in MODES.items() if kw.get("units") == "bytes"]


def trained(text: str = TRAINING, merges: int = 250, specials=SPECIALS, **settings):
    """(tokenizer, steps) trained on ``text``."""
    s = Settings(special_tokens=specials, min_frequency=1, merges=merges, **settings)
    trainer, steps = train(Corpus.from_text(text, s))
    return Tokenizer.from_trainer(trainer), steps
