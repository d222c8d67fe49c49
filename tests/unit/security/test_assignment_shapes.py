"""Assignments: code that names a value is kept, credentials in config shapes are redacted."""

import pytest

from agenttui.security import redact_secrets


@pytest.mark.parametrize("text", [
    "        cache_token = current_token\n",
    "    self.token = nextchar\n",
    '    print("shlex: token=EOF")\n',
    "    userid = passwd = acct = ''\n",
    "        self.user, self.password = user, password\n",
    "    if key == '_generate_next_value_':\n",
    '    if token == "EOF":\n',
])
def test_code_that_names_a_value_is_kept(text):
    assert redact_secrets(text) == text


@pytest.mark.parametrize("text, secret", [
    ("postgresql://user:secret@localhost/db", "secret@"),
    ("Server=host;User Id=username;Password=secret;Database=db;", "secret;"),
    ("[Site]\nPassword=thisismypassword\n", "thisismypassword"),
    ("user = Aladdin\npassword = open_sesame\n", "open_sesame"),
    ("if username == 'jo' and password == 'logmein':\n", "logmein"),
    (":password       => '4ian1234',\n", "4ian1234"),
])
def test_credentials_in_config_shapes_are_redacted(text, secret):
    assert secret not in redact_secrets(text)
