"""``chessrate serve``: the web calculator on this machine."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from chessrate.cli.app import app
from chessrate.cli.language import N_
from chessrate.cli.language import say as _
from chessrate.parse import parse_count


@app.command(help=N_("Start the web calculator (and its JSON API at /docs) on http://HOST:PORT."))
def serve(
    host: Annotated[str, typer.Option("--host", help=N_("Address to listen on."))] = "127.0.0.1",
    port: Annotated[str, typer.Option("--port", help=N_("Port to listen on."))] = "8000",
    list_db: Annotated[
        str | None,
        typer.Option(
            "--list-db", help=N_("Show this rating list (a SQLite path or a SQLAlchemy URL) at /list.")
        ),
    ] = None,
    admin_password: Annotated[
        str | None,
        typer.Option(
            "--admin-password",
            envvar="CHESSRATE_ADMIN_PASSWORD",
            help=N_(
                "Allow importing and running periods from the web (better set CHESSRATE_ADMIN_PASSWORD)."
            ),
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            help=N_(
                "Proxies whose X-Forwarded-Proto/-For are believed (comma-separated; default 127.0.0.1)."
            ),
        ),
    ] = None,
    secure_cookies: Annotated[
        bool, typer.Option("--secure-cookies", help=N_("Send cookies only over https, even if not seen so."))
    ] = False,
    no_fetch: Annotated[
        bool,
        typer.Option(
            "--no-fetch", help=N_("Never fetch games from Lichess or Chess.com by username (strength page).")
        ),
    ] = False,
) -> None:
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
        said = _(
            "chessrate: web assets missing (%(assets)s): the page works by pressing Calculate but will "
            "not update as you type; %(hint)s",
            assets=", ".join(missing),
            hint=INSTALL_HINT,
        )
        sys.stderr.write(said + "\n")
    address = f"http://{host}:{number}/"
    sys.stderr.write(_("chessrate: web calculator on %(address)s (Ctrl+C to stop)", address=address) + "\n")
    if list_db is not None:
        said = _("chessrate: rating list %(db)s on %(address)s", db=list_db, address=address + "list")
        sys.stderr.write(said + "\n")
    serve(web_app, host=host, port=number, forwarded_allow_ips=forwarded_allow_ips)
