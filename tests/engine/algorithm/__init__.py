"""Tests of the algorithm: splitting, training, ranking, encoding."""
