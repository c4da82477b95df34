try:
    from app.cli import main
except ImportError as exc:  # a damaged installation: one line that says what to do, not a traceback
    from app.main import missing_part

    raise SystemExit(missing_part(exc)) from None

raise SystemExit(main())
