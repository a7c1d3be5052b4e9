"""Writing a file whole or not at all (solver/common/atomic.py)."""

from pathlib import Path

import pytest

from solver.common.atomic import replace_file


def test_text_and_bytes_are_written_and_nothing_is_left_beside(tmp_path):
    replace_file(tmp_path / "a.json", "{}\n")
    replace_file(tmp_path / "b.gz", b"\x1f\x8b")
    assert (tmp_path / "a.json").read_text() == "{}\n"
    assert (tmp_path / "b.gz").read_bytes() == b"\x1f\x8b"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a.json", "b.gz"]


def test_an_existing_file_is_replaced_whole(tmp_path):
    path = tmp_path / "r.json"
    path.write_text("a long old text\n")
    replace_file(path, "new\n")
    assert path.read_text() == "new\n"


def test_a_write_that_fails_before_the_rename_leaves_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "r.json"
    path.write_text("old\n")

    def no_rename(self, target):
        raise OSError("disk gone")

    monkeypatch.setattr(Path, "replace", no_rename)
    with pytest.raises(OSError):
        replace_file(path, "new\n")
    assert path.read_text() == "old\n"
