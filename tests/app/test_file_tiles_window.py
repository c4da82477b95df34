"""A tokenizer file opened in the window: the Tiles view cuts a text with its merges, step by step,
and a text the user types replaces it."""

from tests.app.test_imported_tokenizer import open_and_wait, tokenizer_json  # noqa: F401  (a fixture)


def test_an_opened_tokenizer_file_tiles_a_text_at_every_step(make_window, qtbot, tokenizer_json):  # noqa: F811
    window = make_window()
    open_and_wait(window, qtbot, tokenizer_json)
    tiles, session = window.views["Tiles"], window.session
    assert tiles.text_group.isVisibleTo(tiles)
    tiles.set_text("lowest newer lowest")
    for k in (0, 5, session.last_step):
        session.request_step(k)
        tiles.finish_animation()
        rows = [tokens for _, tokens in tiles.shown().rows]
        tokenizer = session.lesson.tokenizer_at(k)
        assert rows == [tuple(tokenizer.encode(w).tokens) for w in ("lowest", "newer")], k
        assert tiles.caption_text().startswith(f"No training text: the file's merges applied to this text, step {k} of")
    # a lesson trained here has its corpus again, and no text box
    window.session.request_preset("classic")
    qtbot.waitUntil(lambda: session.lesson.corpus is not None and not session.training)
    assert not tiles.text_group.isVisibleTo(tiles) and tiles.caption_text().startswith("Step 0 of")
