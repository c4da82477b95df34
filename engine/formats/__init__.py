"""File formats: BPE Lab's own tokenizer file, and what real tokenizer libraries load.

Each format has one reader that checks the whole file where it is read: the bytes through
``engine.files.reading`` (regular files under a size limit, UTF-8 text, JSON within its limits), the values
through ``engine.formats.schema`` (the settings through ``engine.formats.settings_data``), and
what they mean together (a marker in the base vocabulary, ids without clashes) before a tokenizer
is built. Nothing after the reader checks again.
"""
