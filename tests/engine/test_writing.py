"""Writing files: whole or not at all, keeping an existing file's mode, never replacing a device,
cleaning up after a killed save."""

import os
import stat
import time

import pytest

from engine.errors import BpeLabError
from engine.writing import STALE_AFTER_S, TEMP_SUFFIX, clean_stale, current_umask, write_atomic, write_files


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_new_file_follows_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        write_atomic(tmp_path / "a.json", "{}")
        os.umask(0o027)
        write_atomic(tmp_path / "b.json", "{}")
    finally:
        os.umask(old)
    assert mode(tmp_path / "a.json") == 0o644
    assert mode(tmp_path / "b.json") == 0o640


def test_the_umask_is_read_without_being_changed():
    old = os.umask(0o037)
    try:
        assert current_umask() == 0o037
        assert current_umask() == 0o037
    finally:
        os.umask(old)


def test_saving_over_a_file_keeps_its_mode(tmp_path):
    path = tmp_path / "shared.json"
    path.write_text("old")
    path.chmod(0o664)
    write_atomic(path, "new")
    assert path.read_text() == "new"
    assert mode(path) == 0o664


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="changing an owner needs root")
def test_as_root_saving_over_another_users_file_keeps_its_owner(tmp_path):
    path = tmp_path / "theirs.json"
    path.write_text("old")
    os.chown(path, 12345, 23456)
    path.chmod(0o664)
    write_atomic(path, "new")
    info = os.stat(path)
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (12345, 23456, 0o664)


def test_a_device_is_refused_never_replaced(tmp_path):
    with pytest.raises(BpeLabError, match="/dev/null is a device, not a regular file"):
        write_atomic("/dev/null", "x")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_named_pipe_is_refused_and_left_in_place(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(BpeLabError, match=r"named pipe \(FIFO\), not a regular file"):
        write_atomic(fifo, "x")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_a_symbolic_link_stays_a_link_and_its_file_is_written(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    write_atomic(link, "new")
    assert link.is_symlink()
    assert real.read_text() == "new"


def test_when_one_file_cannot_be_written_none_is(tmp_path):
    first = tmp_path / "tokenizer.json"
    first.write_text("old")
    with pytest.raises(BpeLabError, match="does not exist"):
        write_files({first: "new", tmp_path / "missing" / "history.json": "h"})
    assert first.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tokenizer.json"]


def test_a_folder_made_for_the_files_is_removed_when_they_fail(tmp_path):
    folder = tmp_path / "gpt2"
    with pytest.raises(BpeLabError):
        write_files({folder / "vocab.json": "{}", tmp_path / "no" / "x": "x"}, make_folder=folder)
    assert not folder.exists()


def age(path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


def test_stale_temporaries_of_a_killed_save_are_removed_by_the_next_save(tmp_path):
    stale = tmp_path / f".other.json.abcd1234{TEMP_SUFFIX}"
    stale.write_bytes(b"x" * 1000)
    age(stale, STALE_AFTER_S + 60)
    write_atomic(tmp_path / "lesson.bpelab", "{}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lesson.bpelab"]


def test_only_old_temporaries_of_ours_are_removed(tmp_path):
    recent = tmp_path / f".a.json.abcd1234{TEMP_SUFFIX}"  # a save that may still be running
    recent.write_text("x")
    theirs = tmp_path / ".notes.txt.abcd1234.tmp"  # another program's, in our old naming's shape
    theirs.write_text("x")
    age(theirs, STALE_AFTER_S + 60)
    ours_old = tmp_path / ".a.json.zz99yy88.tmp"  # an earlier version's temporary of the file saved
    ours_old.write_text("x")
    age(ours_old, STALE_AFTER_S + 60)
    plain = tmp_path / "data.tmp"
    plain.write_text("x")
    age(plain, STALE_AFTER_S + 60)
    removed = clean_stale(tmp_path, names={"a.json"})
    assert removed == [str(ours_old)]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([recent.name, theirs.name, "data.tmp"])


def test_a_link_named_like_a_temporary_is_not_followed_or_removed(tmp_path):
    target = tmp_path / "keep.txt"
    target.write_text("x")
    link = tmp_path / f".a.json.abcd1234{TEMP_SUFFIX}"
    link.symlink_to(target)
    os.utime(link, (0, 0), follow_symlinks=False)
    assert clean_stale(tmp_path) == []
    assert link.is_symlink() and target.exists()


def test_the_longest_name_allowed_is_written_and_one_byte_more_is_refused_by_name(tmp_path):
    from engine.writing import MAX_NAME_BYTES

    longest = tmp_path / ("n" * MAX_NAME_BYTES)
    write_atomic(longest, "{}")
    assert longest.read_text() == "{}"
    with pytest.raises(BpeLabError, match="the file name is too long"):
        write_atomic(tmp_path / ("n" * (MAX_NAME_BYTES + 1)), "{}")
    assert sorted(p.name for p in tmp_path.iterdir()) == [longest.name]
