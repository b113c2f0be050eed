"""The board in the browser: ``cpsolver serve``."""

from __future__ import annotations

import click

from cpsolver.cli.base import BadInput, cli


@cli.command("serve")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Listen here: localhost only by default; 0.0.0.0 opens the board to the network.",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Listen here (0: any free port; the address is printed).",
)
@click.option("--open", "open_browser", is_flag=True, help="Open the board in a browser.")
def serve_command(host: str, port: int, open_browser: bool) -> None:
    """Serve the board: set up a deal or position, see it solved, play it, walk a proof.

    A local web app (needs the serve extra: pip install 'cpsolver[serve]').
    The page draws the hands as 'cpsolver show' does, asks the spring, the
    open-hand winner with every winning move and the spring odds, plays
    either side against the solver, walks a strategy proof and steps
    through an analysed game record. The position is in the URL
    (/?hands=KK3,QQ4&turn=0, table=CARDS&by=N mid-trick, or
    /?landlord=...&peasant1=...&peasant2=... for a deal), so a link shares
    it. The JSON API answers what the CLI's --json prints for the same
    input (GET /api/endgame, POST /api/solve, POST /api/verify; the
    OpenAPI description at /openapi.json). Every solve runs in a worker
    process with the request's time limit. Ctrl-C stops the server.

    \b
    Examples:
      cpsolver serve --open
      cpsolver serve --port 8080
      curl 'http://127.0.0.1:8000/api/endgame?hands=KK3,QQ4&turn=0'
    """
    try:
        from cpsolver.serve.server import run
    except ImportError as missing:
        raise BadInput(
            f"the board needs the serve extra ({missing.name} is missing): "
            "pip install 'cpsolver[serve]'"
        ) from None
    try:
        run(host, port, open_browser)
    except OSError as error:
        raise BadInput(f"cannot listen on {host}:{port}: {error.strerror}") from None
