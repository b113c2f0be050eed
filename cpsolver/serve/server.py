"""The board's server: the app on uvicorn, bound where it is told (localhost by default)."""

from __future__ import annotations

import socket
import sys
import threading
import webbrowser

import uvicorn

from cpsolver.serve.app import create_app

# One request's headers and a body up to the biggest cap are all uvicorn holds for it;
# more connections than this are refused rather than queued without end.
LIMIT_CONCURRENCY = 64
KEEP_ALIVE = 5  # seconds an idle connection is kept
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")  # a board bound here answers only these names


def url_of(host: str, port: int) -> str:
    """The board's address: ``http://127.0.0.1:8000/`` (IPv6 hosts in brackets)."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (an :class:`OSError` says why not)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def run(host: str, port: int, open_browser: bool = False) -> None:
    """Serve the board at ``host:port`` until interrupted; ``open_browser`` opens it once up.

    The socket is bound here, first, so an address in use is an :class:`OSError`.
    """
    sock = listen(host, port)
    config = uvicorn.Config(
        create_app(hosts=LOOPBACK if host in LOOPBACK else None),
        host=host,
        port=port,
        log_level="warning",
        limit_concurrency=LIMIT_CONCURRENCY,
        timeout_keep_alive=KEEP_ALIVE,
    )
    server = uvicorn.Server(config)
    url = url_of(host, sock.getsockname()[1])
    print(f"the board: {url} (Ctrl-C stops it)", file=sys.stderr, flush=True)
    if open_browser:
        threading.Timer(1.0, webbrowser.open, (url,)).start()
    server.run(sockets=[sock])
