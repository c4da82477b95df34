"""Running the command line in the test's own process, as the CLI tests all do."""

from app.cli import main


def run(capsys, *argv):
    """(exit status, standard output, standard error) of ``bpe-lab ARGV...``."""
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err
