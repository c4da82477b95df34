from engine.algorithm.bytelevel import BASE_ORDER, BYTE_TO_CHAR, bytes_to_symbols, symbols_to_bytes


def test_alphabet_is_gpt2s():
    assert BYTE_TO_CHAR[ord(" ")] == "Ġ" and BYTE_TO_CHAR[ord("\n")] == "Ċ" and BYTE_TO_CHAR[ord("a")] == "a"
    assert len(set(BYTE_TO_CHAR)) == 256
    # GPT-2's vocabulary starts with "!" and keeps the printable bytes first
    assert BASE_ORDER[0] == "!" and BASE_ORDER[93] == "~"


def test_round_trip_every_byte():
    data = bytes(range(256))
    assert symbols_to_bytes(bytes_to_symbols(data)) == data

