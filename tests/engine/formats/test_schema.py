"""The schema every reader reads through: typed accessors that name the wrong value and its place."""

import pytest

from engine.formats.schema import MAX_COUNT, Fields, SchemaError, text_map
from engine.formats.settings_data import settings_from_data
from engine.algorithm.settings import Settings


def test_a_wrong_value_is_named_by_file_place_and_what_it_must_be():
    f = Fields.of({"merges": "5"}, "tok.json", "settings")
    with pytest.raises(SchemaError) as caught:
        f.whole("merges", None, optional=True)
    assert str(caught.value) == (
        f'tok.json: settings.merges must be a whole number from 0 to {MAX_COUNT:,} (it is "5")'
    )


@pytest.mark.parametrize("value", [True, 1.0, -1, MAX_COUNT + 1, 10**400, None, [3]])
def test_a_whole_number_is_an_int_in_range_and_nothing_else(value):
    with pytest.raises(SchemaError):
        Fields({"n": value}).whole("n")


def test_defaults_and_nulls():
    f = Fields({"a": None, "b": 3})
    assert f.whole("a", 7, optional=True) is None
    assert f.whole("missing", 7) == 7
    assert f.whole("b") == 3
    with pytest.raises(SchemaError, match='"c" is missing'):
        f.text("c")


def test_keys_no_accessor_read_are_refused():
    f = Fields({"split": "gpt2", "lowercasse": True}, "l.bpelab", "settings")
    f.text("split")
    with pytest.raises(SchemaError, match='unknown key\\(s\\) in settings: "lowercasse"'):
        f.done()


def test_a_map_of_ids_holds_whole_numbers():
    assert text_map({"<s>": 3}, "special_tokens") == {"<s>": 3}
    with pytest.raises(SchemaError, match=r'special_tokens\["<s>"\] must be a whole number'):
        text_map({"<s>": "3"}, "special_tokens")
    with pytest.raises(SchemaError, match="must be an object of token: id"):
        text_map(["<s>"], "special_tokens")


@pytest.mark.parametrize("settings", [
    Settings(),
    Settings(split="gpt4", units="bytes", lowercase=True, vocab_size=300, special_tokens=("<|endoftext|>",)),
    Settings(end_of_word="_", min_frequency=1, merges=0, tie_break="hf"),
    Settings(split="none", end_of_word=None),
])
def test_settings_read_back_as_written(settings):
    assert settings_from_data(settings.to_dict(), "f") == settings.resolved()


@pytest.mark.parametrize("change, words", [
    ({"special_tokens": 5}, "settings.special_tokens must be a list"),
    ({"lowercase": "yes"}, 'settings.lowercase must be true or false (it is "yes")'),
    ({"min_frequency": 1.5}, "settings.min_frequency must be a whole number from 1"),
    ({"special_tokens": [""]}, "settings.special_tokens must be a list"),
    ({"end_of_word": ""}, "settings.end_of_word must be a marker text"),
    ({"split": "words"}, "settings.split must be one of whitespace, gpt2, gpt4, none"),
    ({"min_frequency": 0}, "settings.min_frequency must be a whole number from 1"),
    ({"vocab_size": 3_000_000_000}, "settings.vocab_size must be a whole number from 1 to 2,147,483,647, or null"),
    ({"merges": 3, "vocab_size": 9}, "settings: give either a number of merges or a vocabulary size"),
    ({"units": "bytes", "end_of_word": "</w>"}, "settings: an end-of-word marker needs chars units"),
    ({"special_tokens": ["x" * 1001]}, "at most 1,000"),
])
def test_settings_with_a_wrong_value(change, words):
    with pytest.raises(SchemaError, match=words.replace("(", r"\(").replace(")", r"\)")):
        settings_from_data({**Settings().to_dict(), **change}, "f")
