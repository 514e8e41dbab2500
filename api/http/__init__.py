"""The HTTP layer: the FastAPI app factory, routes, dependencies, request and response schemas,
the error table. It calls the service layer (``api.service``) and never the command line."""
