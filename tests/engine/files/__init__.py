"""Tests of reading and writing the user's files."""
