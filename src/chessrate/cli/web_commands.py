"""``chessrate serve``: the web calculator on this machine."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from chessrate.cli.app import app
from chessrate.parse import parse_count


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[str, typer.Option("--port", help="Port to listen on.")] = "8000",
    list_db: Annotated[
        str | None,
        typer.Option("--list-db", help="Show this rating list (a SQLite path or a SQLAlchemy URL) at /list."),
    ] = None,
    admin_password: Annotated[
        str | None,
        typer.Option(
            "--admin-password",
            envvar="CHESSRATE_ADMIN_PASSWORD",
            help="Allow importing and running periods from the web (better set CHESSRATE_ADMIN_PASSWORD).",
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            help="Proxies whose X-Forwarded-Proto/-For are believed (comma-separated; default 127.0.0.1).",
        ),
    ] = None,
    secure_cookies: Annotated[
        bool, typer.Option("--secure-cookies", help="Send cookies only over https, even if not seen so.")
    ] = False,
    no_fetch: Annotated[
        bool,
        typer.Option(
            "--no-fetch", help="Never fetch games from Lichess or Chess.com by username (strength page)."
        ),
    ] = False,
) -> None:
    """Start the web calculator (and its JSON API at /docs) on http://HOST:PORT."""
    from chessrate.web import WebSettings, create_app
    from chessrate.web.assets import INSTALL_HINT, missing_assets
    from chessrate.web.server import listening_socket, serve

    number = parse_count(port, field="--port", minimum=1, maximum=65535)
    settings = WebSettings(
        list_db=list_db,
        list_admin_password=admin_password,
        secure_cookies=secure_cookies,
        fetch_games=not no_fetch,
    )
    web_app = create_app(settings)  # a short admin password: one line
    listening_socket(host, number).close()  # a bad host, a port in use: one line, before uvicorn
    missing = missing_assets(settings.static)
    if missing:
        sys.stderr.write(
            f"chessrate: web assets missing ({', '.join(missing)}): the page works by pressing "
            f"Calculate but will not update as you type; {INSTALL_HINT}\n"
        )
    sys.stderr.write(f"chessrate: web calculator on http://{host}:{number}/ (Ctrl+C to stop)\n")
    if list_db is not None:
        sys.stderr.write(f"chessrate: rating list {list_db} on http://{host}:{number}/list\n")
    serve(web_app, host=host, port=number, forwarded_allow_ips=forwarded_allow_ips)
