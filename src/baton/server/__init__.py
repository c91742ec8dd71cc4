"""`baton serve`: the REST API, sign-in, progress events and the web page, on FastAPI + uvicorn.

A thin face on the library (DESIGN §2, §9): every endpoint calls what the CLI calls — Session
runs on the one driver, the same ownership rules, the same export checks. Optional: needs the
``server`` extra (fastapi, uvicorn). The app is built by :func:`baton.server.app.create_app`.
"""
