"""The ``ligretto`` command: serve the web app, simulate bot games."""

from __future__ import annotations

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
    """Print the installed version."""
    from ligretto import __version__

    typer.echo(__version__)


if __name__ == "__main__":  # pragma: no cover
    app()
