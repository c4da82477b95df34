"""One module per ``bpe-lab`` subcommand, plus the helpers they share."""
