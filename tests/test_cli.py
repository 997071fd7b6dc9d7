from typer.testing import CliRunner

from ligretto import __version__
from ligretto.cli import app


def test_version_command_prints_the_package_version_and_the_build() -> None:
    import ligretto.rules.round

    result = CliRunner().invoke(app, ["version"])
    assert result.exit_code == 0
    version, build = result.output.strip().splitlines()
    assert version == __version__
    compiled = not (ligretto.rules.round.__file__ or "").endswith(".py")
    assert build.startswith("core: compiled with mypyc" if compiled else "core: pure Python (")
