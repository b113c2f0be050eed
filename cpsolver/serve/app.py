"""The web app: the page, its static files, and the JSON API (FastAPI; OpenAPI at ``/openapi.json``).

Every answer of the API is what the CLI's ``--json`` prints for the same
input (see :mod:`cpsolver.serve.questions`); a request the library refuses is
a 4xx whose body is ``{"error": LINE}``, LINE being the CLI's one-line
message; a solve that runs out of time is a 504, a full board a 503. Bodies
are read no further than the reading layer's cap for their kind; no file is
read but the page's own.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.staticfiles import StaticFiles

from cpsolver import __version__
from cpsolver.io.positionformat import position_as_dict
from cpsolver.io.reading import describe_size, limit
from cpsolver.pictures import svg
from cpsolver.rules.errors import CpsolverError
from cpsolver.serve.jobs import Busy, Supervisor
from cpsolver.serve.questions import (
    BODY_KINDS,
    TooBig,
    job_for,
    position_view,
    read_body,
    read_landlord,
    read_position,
    read_seconds,
    read_text_position,
    rules,
    too_big,
)

STATIC = resources.files("cpsolver.serve") / "static"
POSITION_PARAMETERS = [
    ("hands", "CARDS,CARDS(,CARDS): the hands in turn order (or landlord, peasant1, peasant2)"),
    ("landlord", "CARDS: the landlord's hand, for a deal"),
    ("peasant1", "CARDS"),
    ("peasant2", "CARDS"),
    ("turn", "N: the hand to move (0 by default)"),
    ("table", "CARDS: the play to beat, mid-trick"),
    ("by", "N: the hand that made the table play"),
    ("moves", "M,M,...: moves played from there (pass for a pass)"),
]
TIMEOUT = ("timeout", "seconds for the question (60 by default, at most 300)")


def _parameters(*names: tuple[str, str]) -> dict[str, Any]:
    """The OpenAPI description of query parameters (all strings: read by the board itself)."""
    return {
        "parameters": [
            {
                "name": name,
                "in": "query",
                "required": False,
                "description": text,
                "schema": {"type": "string"},
            }
            for name, text in names
        ]
    }


def _body(kind: str) -> dict[str, Any]:
    """The OpenAPI description of a text body of ``kind``."""
    return {
        "requestBody": {
            "required": True,
            "description": f"the {kind}, as the CLI reads it from a file "
            f"(at most {describe_size(limit(kind))})",
            "content": {"text/plain": {"schema": {"type": "string"}}},
        }
    }


def error(status: int, line: str) -> JSONResponse:
    """A refusal: ``{"error": line}`` with ``status``."""
    return JSONResponse({"error": line}, status_code=status)


async def _read_capped(request: Request, kind: str) -> str:
    """The request's body as text, read no further than the cap of ``kind`` (+1 byte)."""
    cap = limit(kind)
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > cap:
        raise too_big(kind)
    data = bytearray()
    async for chunk in request.stream():
        data.extend(chunk)
        if len(data) > cap:
            break
    return read_body(bytes(data), kind)


def create_app(max_jobs: int = 2, hosts: Sequence[str] | None = None) -> FastAPI:
    """The board's app; ``max_jobs`` solves may run at once.

    ``hosts`` are the only Host headers it answers (None: any), so that a web
    page elsewhere cannot reach a board on localhost through a name of its own.
    No page of it loads anything from the network (FastAPI's /docs would: it is off).
    """
    app = FastAPI(
        title="cpsolver board",
        version=__version__,
        description="Dou Dizhu deals and positions solved exactly: the JSON the CLI's --json "
        "prints, for the same input.",
        docs_url=None,
        redoc_url=None,
    )
    if hosts is not None:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(hosts))
    supervisor = Supervisor(max_jobs)
    app.state.supervisor = supervisor
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    @app.exception_handler(CpsolverError)
    async def refused(request: Request, problem: CpsolverError) -> JSONResponse:
        return error(413 if isinstance(problem, TooBig) else 400, str(problem))

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, problem: RequestValidationError) -> JSONResponse:
        return error(400, "malformed request")

    async def solve(request: Request, job: dict[str, Any]) -> Response:
        try:
            outcome = await supervisor.run(job, job["seconds"], request.is_disconnected)
        except Busy as busy:
            return error(503, str(busy))
        if outcome.status == "answer":
            return JSONResponse(outcome.value)
        if outcome.status == "error":
            return error(400, outcome.value)
        if outcome.status == "timeout":
            return error(504, outcome.value)
        return error(499, "cancelled: the client went away")

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(str(STATIC / "index.html"))

    @app.get("/api/position", openapi_extra=_parameters(*POSITION_PARAMETERS))
    async def position(request: Request) -> JSONResponse:
        """A position read: its JSON, URL parameters, hand names and legal moves."""
        rule_set = rules()
        return JSONResponse(position_view(read_position(request.query_params, rule_set), rule_set))

    @app.get("/api/picture", openapi_extra=_parameters(*POSITION_PARAMETERS))
    async def picture(request: Request) -> Response:
        """The position drawn as ``cpsolver show`` draws it (SVG)."""
        found = read_position(request.query_params, rules())
        return Response(svg.position(found), media_type="image/svg+xml")

    @app.get("/api/endgame", openapi_extra=_parameters(*POSITION_PARAMETERS, TIMEOUT))
    async def endgame(request: Request) -> Response:
        """Who wins with best play, every winning move, a line: ``cpsolver endgame --json --all``."""
        found = read_position(request.query_params, rules())
        seconds = read_seconds(request.query_params.get("timeout"))
        job = job_for("endgame", seconds, position=position_as_dict(found, rules()))
        return await solve(request, job)

    @app.get(
        "/api/odds", openapi_extra=_parameters(("landlord", "CARDS: the landlord's hand"), TIMEOUT)
    )
    async def odds(request: Request) -> Response:
        """The spring odds from the landlord's hand: ``cpsolver odds CARDS --samples 2000 --json``."""
        landlord = read_landlord(request.query_params.get("landlord"))
        seconds = read_seconds(request.query_params.get("timeout"))
        return await solve(request, job_for("odds", seconds, landlord=landlord))

    @app.post("/api/read", openapi_extra=_body("deal"))
    async def read(request: Request) -> JSONResponse:
        """A deal or position file read (as ``cpsolver show`` reads it), as ``/api/position``."""
        rule_set = rules()
        found = read_text_position(await _read_capped(request, "deal"), rule_set)
        return JSONResponse(position_view(found, rule_set))

    for name, summary in (
        ("solve", "Is it a spring? The deal in the body: ``cpsolver solve --json``."),
        ("verify", "Check a proof, certificate or strategy: ``cpsolver verify --json``."),
        ("analyse", "A recorded game, move by move: ``cpsolver analyse --json``, one a record."),
    ):
        app.add_api_route(
            f"/api/{name}",
            _body_route(name, solve),
            methods=["POST"],
            summary=summary,
            openapi_extra={**_body(BODY_KINDS[name]), **_parameters(TIMEOUT)},
        )
    return app


def _body_route(name: str, solve: Any) -> Any:
    """The endpoint of a question asked with a body (``solve``, ``verify``, ``analyse``)."""

    async def route(request: Request) -> Response:
        seconds = read_seconds(request.query_params.get("timeout"))
        text = await _read_capped(request, BODY_KINDS[name])
        return await solve(request, job_for(name, seconds, text=text))  # type: ignore[no-any-return]

    route.__name__ = name
    return route
