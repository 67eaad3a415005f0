"""Every management command of the project explains itself: `manage.py NAME --help` renders
(argparse expands `%` in help texts, so a stray one breaks the help of the whole command)."""

import pytest
from django.core.management import get_commands, load_command_class

PROJECT_APPS = ("games", "accounts")
OURS = sorted((name, app) for name, app in get_commands().items() if app in PROJECT_APPS)


def test_the_project_has_commands():
    assert {"botmatch", "rulecheck"} <= {name for name, _ in OURS}


@pytest.mark.parametrize(("name", "app"), OURS)
def test_help_renders(name, app):
    parser = load_command_class(app, name).create_parser("manage.py", name)
    text = parser.format_help()
    assert f"manage.py {name}" in text
    for action in parser._actions:  # every option is listed
        assert all(flag in text for flag in action.option_strings)
