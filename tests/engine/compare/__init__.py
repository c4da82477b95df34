"""Tests of comparing merge lists: reading every shape, the walk, the diagnosis, the report."""
