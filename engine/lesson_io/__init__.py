"""Lessons to and from files: a lesson file trained or written, a tokenizer file shown as a lesson, a run's history as JSON."""
