"""File formats: BPE Lab's own tokenizer file, and what real tokenizer libraries load."""
