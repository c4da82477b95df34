"""BPE Lab's application: the entry point, the main window, the session and the command line."""
