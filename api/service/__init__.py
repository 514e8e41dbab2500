"""The service layer: what the HTTP routes and the command line share, with no HTTP in it (it
never imports fastapi, starlette or httpx; ``tests/unit/api/test_layers.py`` checks)."""
