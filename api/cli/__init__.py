"""The command line (``adjudicator``, ``./dev COMMAND``; entry point ``api.cli.main:main``) and
the demos, which drive the real HTTP API with httpx."""
