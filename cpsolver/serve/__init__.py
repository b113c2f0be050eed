"""The board in the browser: ``cpsolver serve``, a local web app over the library.

The app (:mod:`~cpsolver.serve.app`, FastAPI on uvicorn: the ``serve`` extra)
serves the page (``static/``: plain HTML, CSS and JavaScript modules, no build
step) and the JSON API; what it asks, and how it reads a request, is
:mod:`~cpsolver.serve.questions` (no web framework there); every solve runs in
a worker process of its own (:mod:`~cpsolver.serve.worker`), supervised by
:mod:`~cpsolver.serve.jobs` under a watchdog, with the request's time limit,
and killed when the client goes away.
"""
