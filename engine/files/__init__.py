"""Reading the user's files with clear messages, and writing files whole or not at all."""
