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
) -> None:
    """Start the web calculator (and its JSON API at /docs) on http://HOST:PORT."""
    import uvicorn

    from chessrate.web import WebSettings, create_app
    from chessrate.web.assets import INSTALL_HINT, missing_assets

    number = parse_count(port, field="--port", minimum=1)
    settings = WebSettings(list_db=list_db, list_admin_password=admin_password)
    missing = missing_assets(settings.static)
    if missing:
        sys.stderr.write(
            f"chessrate: web assets missing ({', '.join(missing)}): the page works by pressing "
            f"Calculate but will not update as you type; {INSTALL_HINT}\n"
        )
    sys.stderr.write(f"chessrate: web calculator on http://{host}:{number}/ (Ctrl+C to stop)\n")
    if list_db is not None:
        sys.stderr.write(f"chessrate: rating list {list_db} on http://{host}:{number}/list\n")
    uvicorn.run(create_app(settings), host=host, port=number, log_level="warning")
