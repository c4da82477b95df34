"""Comparing anyone's merge list with the lesson: where the two part, and which tie rule or common
mistake explains it (reading the lists, the mistakes, the walk, the report)."""
