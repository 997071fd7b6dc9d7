from typer.testing import CliRunner

from ligretto import __version__
from ligretto.cli import app


def test_version_command_prints_the_package_version() -> None:
    result = CliRunner().invoke(app, ["version"])
    assert result.exit_code == 0
    assert result.output.strip() == __version__
