"""BPE Lab's tokenizer file: one merge a line, read back to the very tokenizer, whatever its tokens hold."""

import json

from engine.formats.bpelab import tokenizer_from_data, tokenizer_to_json
from engine.algorithm.settings import Settings
from engine.algorithm.tokenizer import Tokenizer

# tokens that spell what stands between two merges in the file ('"], ["'), JSON's escapes, a line end
MERGES = [('"', "]"), (",", " "), ('"]', ", "), ("[", '"'), ('"], ', '["'), ("\\", '"'), ("é", "\n")]
BASE = sorted({ch for pair in MERGES for token in pair for ch in token})


def test_awkward_tokens_write_one_merge_a_line_and_read_back():
    tokenizer = Tokenizer(Settings(split="none", end_of_word=None), BASE, MERGES)
    text = tokenizer_to_json(tokenizer)
    lines = text.split('"merges": [\n', 1)[1].splitlines()[:-2]
    assert [tuple(json.loads(line.strip().rstrip(","))) for line in lines] == MERGES
    again = tokenizer_from_data(json.loads(text), "test")
    assert again.merges == tokenizer.merges and again.vocab == tokenizer.vocab


def test_a_tokenizer_with_no_merges_writes_an_empty_list():
    text = tokenizer_to_json(Tokenizer(Settings(), ["a", "b", "</w>"], []))
    assert json.loads(text)["merges"] == [] and '"merges": []' in text
