"""Tests of what people read."""
