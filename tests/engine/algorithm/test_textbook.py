import doctest

import engine.algorithm.textbook
from engine.algorithm.textbook import merge


def test_the_worked_example_in_the_docstring_holds():
    result = doctest.testmod(engine.algorithm.textbook)
    assert result.attempted >= 2 and result.failed == 0


def test_merge_is_left_to_right_without_overlap():
    assert merge(list("aaaa"), ("a", "a")) == ["aa", "aa"]
    assert merge(list("aaa"), ("a", "a")) == ["aa", "a"]
    assert merge(["a", "b", "a", "b"], ("a", "b")) == ["ab", "ab"]
