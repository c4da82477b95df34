import pytest

from engine.errors import BpeLabError, NotPlainTextError
from engine.files import read_text


@pytest.mark.parametrize("data, words", [
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
    ("café crème".encode("latin-1"), "not UTF-8"),
])
def test_a_file_that_is_not_plain_utf8_text_is_its_own_kind_of_error(tmp_path, data, words):
    path = tmp_path / "file.txt"
    path.write_bytes(data)
    with pytest.raises(NotPlainTextError, match=words):
        read_text(path)


def test_a_missing_file_is_another_kind(tmp_path):
    with pytest.raises(BpeLabError) as caught:
        read_text(tmp_path / "missing.txt")
    assert not isinstance(caught.value, NotPlainTextError)
