"""Tests of lessons, their history and their states."""
