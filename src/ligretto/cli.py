"""The ``ligretto`` command: serve the web app, simulate bot games, replay a round, tune a bot."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(
    help="Ligretto: the Tafel score board, online play and a strategy simulator.",
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def main() -> None:
    """Ligretto: the Tafel score board, online play and a strategy simulator."""


@app.command()
def version() -> None:
    """Print the installed version and which build of the core runs."""
    from ligretto import __version__
    from ligretto._build import loaded

    typer.echo(__version__)
    typer.echo(f"core: {loaded().describe()}")


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    data_dir: Annotated[
        Path | None,
        typer.Option(
            help="Folder of the SQLite database (default: LIGRETTO_DATA_DIR or the "
            "per-user data folder). LIGRETTO_DATABASE_URL selects PostgreSQL instead.",
        ),
    ] = None,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            help="Address or network (e.g. 127.0.0.1, 10.0.0.0/24) of a reverse proxy "
            "whose X-Forwarded-For and X-Forwarded-Proto are believed; repeat for several "
            "(default: LIGRETTO_TRUSTED_PROXIES, else none).",
        ),
    ] = None,
    process_id: Annotated[
        str | None,
        typer.Option(
            help="This process's name among several behind a proxy "
            "(default: LIGRETTO_PROCESS_ID, else hostname:port).",
        ),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            help="The server's address as people reach it (e.g. https://ligretto.example.org), "
            "for shared links and QR codes (default: LIGRETTO_PUBLIC_URL, else the address "
            "each request reached; never its Host header).",
        ),
    ] = None,
    metrics_address: Annotated[
        str | None,
        typer.Option(
            help="HOST:PORT where /metrics is served for Prometheus, beside the app's own "
            "address (default: LIGRETTO_METRICS_ADDRESS, else not served; docs/deploy.md).",
        ),
    ] = None,
) -> None:
    """Start the web app: the Tafel (score board) and its JSON API."""
    import socket

    import uvicorn

    from ligretto.web.api.description import prepare as prepare_api_description
    from ligretto.web.app import create_app
    from ligretto.web.settings import Settings

    overrides: dict[str, object] = {}
    if data_dir is not None:
        overrides["data_dir"] = data_dir
    if trusted_proxy:
        overrides["trusted_proxies"] = trusted_proxy
    if process_id is not None:
        overrides["process_id"] = process_id
    if public_url is not None:
        overrides["public_url"] = public_url
    if metrics_address is not None:
        overrides["metrics_address"] = metrics_address
    settings = Settings(**overrides)  # type: ignore[arg-type]
    if "process_id" not in settings.model_fields_set:
        # Stable across restarts: the same process slot keeps its name.
        settings.process_id = f"{socket.gethostname()}:{port}"
    if settings.database_url is None:
        typer.echo(f"Tafel database: {settings.resolved_database_url()}")
    application = create_app(settings)  # migrates the database before listening
    # The API's description (/openapi.json) takes a second of pure Python to
    # build and encode; done here, before the event loop runs, its requests
    # do not hold every other request of the process for that long.
    prepare_api_description(application)
    # A short graceful-shutdown limit: live-update streams must not keep the
    # server from stopping on Ctrl-C.
    # Idle connections are closed and the access log redacts old edit links'
    # tokens (ligretto.web.server_options).
    uvicorn.run(
        application,
        host=host,
        port=port,
        timeout_graceful_shutdown=3,
        **settings.server_options(),
    )


def _register_simulate() -> None:
    # The simulator's command lives in its own package (ligretto.simulate.command).
    from ligretto.simulate.command import simulate_command

    app.command("simulate")(simulate_command)


def _register_replay() -> None:
    # A kept online round as text, and bots playing it on (ligretto.simulate),
    # in the words of the table (ligretto.web.replay_words: the catalogues
    # live in the web's part, which the simulator's may not import).
    from ligretto.simulate.replay_command import replay_command
    from ligretto.web.i18n import LANGUAGES
    from ligretto.web.replay_words import replay_words

    app.command("replay")(replay_command(replay_words, LANGUAGES))


def _register_tune() -> None:
    # The tuned strategy's weights, found by CMA-ES in the simulator.
    from ligretto.simulate.tune import tune_command

    app.command("tune")(tune_command)


def _register_calibrate() -> None:
    # The bot levels rated against each other with the groups' OpenSkill rating.
    from ligretto.simulate.calibrate import calibrate_command

    app.command("calibrate")(calibrate_command)


_register_simulate()
_register_replay()
_register_tune()
_register_calibrate()


if __name__ == "__main__":  # pragma: no cover
    app()
