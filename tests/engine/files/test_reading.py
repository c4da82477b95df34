"""Reading the user's files: only regular files under a size limit, text as UTF-8 (or UTF-16 with
its mark), JSON held to what the formats can use."""

import errno
import json
import os

import pytest

from engine.algorithm.word_counting import count_file
from engine.errors import BpeLabError, NotPlainTextError
from engine.files.reading import MAX_JSON_DEPTH, RegularFile, parse_json, read_bytes, read_text
from engine.algorithm.settings import Settings


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


# -- what may be read ------------------------------------------------------------------------------


def test_a_named_pipe_is_refused_at_once_rather_than_waited_on(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    # no writer ever opens the pipe: a blocking read would never return
    with pytest.raises(BpeLabError, match=r"named pipe \(FIFO\), not a regular file"):
        read_text(fifo)


@pytest.mark.parametrize("read", [read_bytes, lambda p: count_file(p, Settings(), workers=1)],
                         ids=["read_bytes", "count_file"])
def test_a_file_that_streams_says_it_has_nothing_to_read_rather_than_wait(tmp_path, monkeypatch, read):
    # what a read of /proc/kmsg, a regular file to fstat, gives when opened without blocking
    path = tmp_path / "log"
    path.write_text("low low\n")

    def waiting(fd, n):
        raise BlockingIOError(errno.EAGAIN, os.strerror(errno.EAGAIN))

    monkeypatch.setattr(os, "read", waiting)
    with pytest.raises(BpeLabError, match=f"^{path} has nothing to read yet: .* give a regular file"):
        read(path)


def test_a_file_is_read_no_further_than_the_limit_however_it_is_read(tmp_path):
    path = tmp_path / "f.txt"
    path.write_bytes(b"x" * 100)
    with RegularFile(path, limit=100) as f:
        assert f.read_at(90, 50) == b"x" * 10 and f.read(5) == b""
        assert f.read_all() == b"x" * 100  # a read from the start again has the whole limit
    with RegularFile(path, limit=100) as f:
        path.write_bytes(b"x" * 150)  # grown since it was checked
        with pytest.raises(BpeLabError, match="grew past"):
            f.read_all()


def test_a_device_is_refused_before_any_byte_is_read():
    with pytest.raises(BpeLabError, match="/dev/zero is a device, not a regular file"):
        read_bytes("/dev/zero")


def test_a_folder_is_said_to_be_a_folder(tmp_path):
    with pytest.raises(BpeLabError, match="is a folder, not a file"):
        read_text(tmp_path)


def test_a_file_over_the_limit_is_refused_naming_the_limit(tmp_path):
    path = tmp_path / "big.txt"
    path.write_bytes(b"a" * 5000)
    with pytest.raises(BpeLabError, match=r"is 5 KB; BPE Lab reads files up to 4 KB"):
        read_bytes(path, limit=4096)
    assert read_bytes(path, limit=5000) == b"a" * 5000


def test_a_symlink_loop_is_reported_as_a_loop(tmp_path):
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    with pytest.raises(BpeLabError, match="loop of symbolic links"):
        read_text(tmp_path / "a")


def test_a_name_longer_than_the_system_allows_is_said_so(tmp_path):
    with pytest.raises(BpeLabError, match=r"a name in the path is too long \(300 characters; at most 255\)"):
        read_text(tmp_path / ("a" * 300))


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_with_its_byte_order_mark_is_read(tmp_path, encoding):
    path = tmp_path / "u16.txt"
    data = "café 🙂 low".encode(encoding)
    if encoding != "utf-16":
        data = ("\ufeff").encode(encoding) + data
    path.write_bytes(data)
    assert read_text(path) == "café 🙂 low"


def test_utf16_without_its_byte_order_mark_is_named(tmp_path):
    path = tmp_path / "u16.txt"
    path.write_bytes("hello world".encode("utf-16-le"))
    with pytest.raises(NotPlainTextError, match="UTF-16 text without a byte order mark: save it as UTF-8"):
        read_text(path)


def test_a_nul_byte_anywhere_means_binary(tmp_path):
    path = tmp_path / "late.txt"
    path.write_bytes(b"a" * 20_000 + b"\x00" + b"b")
    with pytest.raises(NotPlainTextError, match="binary"):
        read_text(path)


@pytest.mark.parametrize("text, words", [
    ('{"a": ' + "9" * 4301 + "}", "a number of 4,301 digits"),
    ('{"a": NaN}', "NaN is not a number JSON allows"),
    ('{"a": -Infinity}', "-Infinity is not a number JSON allows"),
    ('{"a": 1e400}', "too large"),
    ("[" * 100_000 + "]" * 100_000, "nested too deep"),
    ("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1), "nested too deep"),
    ('{"a": 1, "a": 2}', 'the key "a" appears twice'),
    ('{"a": "\\ud800"}', "half of a surrogate pair"),
    ('{"\\udc00": 1}', "half of a surrogate pair"),
])
def test_json_that_no_format_can_use_is_refused(text, words):
    with pytest.raises(BpeLabError, match=words):
        parse_json(text, "f.json")


def test_json_within_the_limits_reads_as_json_does():
    text = json.dumps({"a": [[1, 2.5]] * 3, "b": "\ud83d\ude42", "c": 9 * 10**4000, "d": [{}] * 2})
    deepest = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    assert parse_json(deepest, "f.json") == json.loads(deepest)
    assert parse_json(text, "f.json") == json.loads(text)

