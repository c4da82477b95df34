"""The class vote's rules: questions as phones get them, ballots checked and counted in rounds, the
results for the export, the address to serve on. No server and no Qt here: ``app.vote_server``
serves this over HTTP and the projector drives it."""
