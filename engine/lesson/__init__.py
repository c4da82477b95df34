"""A lesson and its history: the corpus at any step, its long words, held-out counts."""
