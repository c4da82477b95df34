"""Tests of lessons to and from files."""
