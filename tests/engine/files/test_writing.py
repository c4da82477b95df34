"""Writing files: whole or not at all, keeping an existing file's mode (never its setuid bits),
refusing a read-only file unless asked, never replacing a device, cleaning up after a killed save."""

import errno
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.files import writing
from engine.errors import BpeLabError, ReadOnlyFileError
from engine.files.writing import (
    STALE_AFTER_S, TEMP_SUFFIX, clean_stale, clean_stale_folders, current_umask, write_atomic, write_files,
)


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


def test_only_temporaries_of_ours_that_no_run_holds_are_removed(tmp_path):
    recent = tmp_path / f".a.json.abcd1234{TEMP_SUFFIX}"  # unlocked: its save is over, however recent
    recent.write_text("x")
    theirs = tmp_path / ".notes.txt.abcd1234.tmp"  # another program's, in our old naming's shape
    theirs.write_text("x")
    age(theirs, STALE_AFTER_S + 60)
    ours_old = tmp_path / ".a.json.zz99yy88.tmp"  # an earlier version's temporary of the file saved
    ours_old.write_text("x")
    age(ours_old, STALE_AFTER_S + 60)
    ours_recent = tmp_path / ".a.json.yy88xx77.tmp"  # earlier versions took no lock: only age tells
    ours_recent.write_text("x")
    plain = tmp_path / "data.tmp"
    plain.write_text("x")
    age(plain, STALE_AFTER_S + 60)
    removed = clean_stale(tmp_path, names={"a.json"})
    assert sorted(removed) == sorted([str(recent), str(ours_old)])
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([theirs.name, ours_recent.name, "data.tmp"])


def test_a_link_named_like_a_temporary_is_not_followed_or_removed(tmp_path):
    target = tmp_path / "keep.txt"
    target.write_text("x")
    link = tmp_path / f".a.json.abcd1234{TEMP_SUFFIX}"
    link.symlink_to(target)
    os.utime(link, (0, 0), follow_symlinks=False)
    assert clean_stale(tmp_path) == []
    assert link.is_symlink() and target.exists()


def test_the_longest_name_allowed_is_written_and_one_byte_more_is_refused_by_name(tmp_path):
    from engine.files.writing import MAX_NAME_BYTES

    longest = tmp_path / ("n" * MAX_NAME_BYTES)
    write_atomic(longest, "{}")
    assert longest.read_text() == "{}"
    with pytest.raises(BpeLabError, match="the file name is too long"):
        write_atomic(tmp_path / ("n" * (MAX_NAME_BYTES + 1)), "{}")
    assert sorted(p.name for p in tmp_path.iterdir()) == [longest.name]


# a save in another process that stops inside the writer, once its temporary is full, until killed
SAVING = """
import os, sys, time
sys.path.insert(0, {root!r})
from engine.files.writing import write_atomic

def stop(fd):
    print("written", flush=True)
    time.sleep(120)

os.fsync = stop
write_atomic({path!r}, b"x" * 100_000)
"""


def start_save(path):
    root = str(Path(__file__).resolve().parents[3])
    child = subprocess.Popen([sys.executable, "-c", SAVING.format(root=root, path=str(path))],
                             stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "written\n"
    return child


def temporaries(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(TEMP_SUFFIX))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="advisory locks: POSIX")
def test_a_running_saves_temporary_survives_and_a_killed_saves_goes_whatever_its_age(tmp_path):
    running = start_save(tmp_path / "running.json")
    try:
        killed = start_save(tmp_path / "killed.json")
        killed.kill()
        killed.wait()
        [held_name] = [n for n in temporaries(tmp_path) if n.startswith(".running.json.")]
        [left_name] = [n for n in temporaries(tmp_path) if n.startswith(".killed.json.")]
        assert (tmp_path / left_name).stat().st_size == 100_000
        write_atomic(tmp_path / "lesson.bpelab", "{}")  # a save moments later, no 15 minutes on
        assert temporaries(tmp_path) == [held_name]
        assert clean_stale(tmp_path) == []
    finally:
        running.kill()
        running.wait()
    assert clean_stale(tmp_path) == [str(tmp_path / held_name)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lesson.bpelab"]


def test_at_start_the_window_cleans_every_folder_it_knows(tmp_path):
    folders = [tmp_path / "autosave", tmp_path / "lessons"]
    for folder in folders:
        folder.mkdir()
        (folder / f".x.bpelab.abcd1234{TEMP_SUFFIX}").write_bytes(b"x" * 1000)
        (folder / "x.bpelab").write_text("{}")
    removed = clean_stale_folders([*folders, str(folders[1]) + os.sep, tmp_path / "gone"])
    assert len(removed) == 2
    assert [sorted(p.name for p in f.iterdir()) for f in folders] == [["x.bpelab"], ["x.bpelab"]]


class NoLocks:
    """fcntl where the file system refuses advisory locks (some network file systems)."""

    LOCK_EX, LOCK_NB = 2, 4

    @staticmethod
    def flock(fd, how):
        raise OSError(errno.ENOLCK, "No locks available")


@pytest.mark.parametrize("locks", [None, NoLocks], ids=["no flock", "file system without locks"])
def test_without_locks_a_temporary_goes_only_once_old(tmp_path, monkeypatch, locks):
    monkeypatch.setattr(writing, "fcntl", locks)
    recent = tmp_path / f".a.json.abcd1234{TEMP_SUFFIX}"
    recent.write_text("x")
    old = tmp_path / f".b.json.abcd1234{TEMP_SUFFIX}"
    old.write_text("x")
    age(old, STALE_AFTER_S + 60)
    write_atomic(tmp_path / "c.json", "{}")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["c.json", recent.name])
    assert (tmp_path / "c.json").read_text() == "{}"


def test_a_private_file_is_0600_whatever_the_umask_and_the_old_mode(tmp_path):
    shared = tmp_path / "shared.bpelab"
    shared.write_text("old")
    shared.chmod(0o664)
    old = os.umask(0)
    try:
        write_atomic(tmp_path / "new.bpelab", "{}", private=True)
        write_files({shared: "new"}, private=True)
    finally:
        os.umask(old)
    assert mode(tmp_path / "new.bpelab") == 0o600
    assert mode(shared) == 0o600 and shared.read_text() == "new"


@pytest.mark.parametrize("before, after", [(0o4755, 0o755), (0o2775, 0o775), (0o1644, 0o644), (0o6750, 0o750)],
                         ids=["setuid", "setgid", "sticky", "setuid and setgid"])
def test_a_replaced_file_never_keeps_setuid_setgid_or_sticky_bits(tmp_path, before, after):
    path = tmp_path / "tool"
    path.write_text("old")
    path.chmod(before)
    assert mode(path) == before
    write_atomic(path, "new")
    assert mode(path) == after


def test_a_read_only_file_is_refused_and_kept_even_for_root(tmp_path):
    path = tmp_path / "handout.pdf"
    path.write_text("old")
    path.chmod(0o444)
    with pytest.raises(ReadOnlyFileError, match="is read-only.*make it writable, or save under another name") as caught:
        write_atomic(path, "new")
    assert caught.value.path == str(path)
    assert path.read_text() == "old" and mode(path) == 0o444
    assert sorted(p.name for p in tmp_path.iterdir()) == ["handout.pdf"]


def test_one_read_only_file_stops_them_all_and_a_link_to_one_is_refused(tmp_path):
    free = tmp_path / "vocab.json"
    free.write_text("old")
    locked = tmp_path / "merges.txt"
    locked.write_text("old")
    locked.chmod(0o440)
    with pytest.raises(ReadOnlyFileError):
        write_files({free: "new", locked: "new"})
    assert free.read_text() == "old"
    link = tmp_path / "link.txt"
    link.symlink_to(locked)
    with pytest.raises(ReadOnlyFileError) as caught:
        write_atomic(link, "new")
    assert caught.value.path == str(locked)


def test_a_caller_that_asked_the_user_replaces_a_read_only_file_which_stays_read_only(tmp_path):
    path = tmp_path / "lesson.bpelab"
    path.write_text("old")
    path.chmod(0o444)
    write_atomic(path, "new", overwrite_read_only=True)
    assert path.read_text() == "new" and mode(path) == 0o444


def test_a_temporary_another_runs_cleaning_removed_before_it_was_locked_is_made_again(tmp_path, monkeypatch):
    real = writing._try_lock
    cleaned = []

    def cleaning_first(fd):
        if not cleaned:  # another run listed the new temporary before its lock was taken, and removed it
            [temp] = [p for p in tmp_path.iterdir() if p.name.endswith(TEMP_SUFFIX)]
            temp.unlink()
            cleaned.append(temp.name)
        return real(fd)

    monkeypatch.setattr(writing, "_try_lock", cleaning_first)
    write_atomic(tmp_path / "lesson.bpelab", "{}")
    assert cleaned and (tmp_path / "lesson.bpelab").read_text() == "{}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lesson.bpelab"]


def test_this_processs_cleaning_leaves_the_temporary_another_of_its_threads_is_writing(tmp_path, monkeypatch):
    # where locks belong to the process (flock emulated on NFS) asking one from here would be granted
    monkeypatch.setattr(writing, "_try_lock", lambda fd: None if writing.fcntl is None else True)
    found, keys = [], []
    real_fsync = os.fsync

    def clean_meanwhile(fd):
        keys.extend((p.stat().st_dev, p.stat().st_ino) for p in tmp_path.iterdir())
        found.extend(clean_stale(tmp_path))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", clean_meanwhile)
    write_atomic(tmp_path / "lesson.bpelab", "{}")
    assert found == [] and (tmp_path / "lesson.bpelab").read_text() == "{}"
    # once renamed it is no temporary: a later file on the same inode is cleaned as any other
    assert len(keys) == 1 and keys[0] not in writing._WRITING
