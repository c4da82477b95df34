"""The algorithm: text cut into words, the merge loop, the ranking of pairs, encoding and decoding."""
