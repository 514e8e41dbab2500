"""The service around the rules, in three layers (each imports only the ones below it):

- ``api.service``: the match service (store, clock and rules meet), audit, Ludii, transcripts,
  tokens, settings, live wake-ups. No HTTP: it never imports fastapi, starlette or httpx.
- ``api.http``: the FastAPI app, its routes, dependencies, schemas and the error table.
- ``api.cli``: the command line (``adjudicator``) and the demos, an HTTP client of the service.
"""
