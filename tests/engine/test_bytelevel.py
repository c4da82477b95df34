from engine.bytelevel import BASE_ORDER, BYTE_TO_CHAR, bytes_to_symbols, readable, symbols_to_bytes


def test_alphabet_is_gpt2s():
    assert BYTE_TO_CHAR[ord(" ")] == "Ġ" and BYTE_TO_CHAR[ord("\n")] == "Ċ" and BYTE_TO_CHAR[ord("a")] == "a"
    assert len(set(BYTE_TO_CHAR)) == 256
    # GPT-2's vocabulary starts with "!" and keeps the printable bytes first
    assert BASE_ORDER[0] == "!" and BASE_ORDER[93] == "~"


def test_round_trip_every_byte():
    data = bytes(range(256))
    assert symbols_to_bytes(bytes_to_symbols(data)) == data


def test_readable_shows_text_and_only_cut_bytes_as_hex():
    cut = " café".encode("utf-8")[:-1]  # the last byte of é goes to the next token
    assert readable(bytes_to_symbols(cut)) == "␣caf<C3>"
    assert readable(bytes_to_symbols("a\tb\n".encode())) == "a→b␊"
    assert readable(bytes_to_symbols("語".encode())) == "語"
