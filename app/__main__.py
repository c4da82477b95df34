import sys

try:
    from app.cli import main
except ImportError as exc:  # a damaged installation: one line that says what to do, not a traceback
    from app.main import missing_part

    raise SystemExit(missing_part(exc)) from None

# guarded: the processes that count a large corpus import this module again, and must not run it
if __name__ == "__main__":
    if getattr(sys, "frozen", False):
        # in the bundle the child processes (counting, the library's training) start as this program:
        # PyInstaller's freeze_support runs them as children, not as another window
        import multiprocessing

        multiprocessing.freeze_support()
    raise SystemExit(main())
