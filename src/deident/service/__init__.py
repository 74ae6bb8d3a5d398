"""The REST service (needs the ``service`` extra: fastapi and uvicorn); see :mod:`deident.service.app`."""
