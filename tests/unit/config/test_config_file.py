"""config.toml load/save."""

from __future__ import annotations

import os
import stat
import tomllib

import pytest

from agenttui.core.config.file import ConfigError, load_settings, save_settings
from agenttui.core.config.settings import Settings


def write(paths, text: str) -> bytes:
    paths.config_dir.mkdir(parents=True, exist_ok=True)
    paths.config_file.write_text(text)
    return paths.config_file.read_bytes()


def test_missing_file_gives_defaults_and_no_warnings(paths):
    loaded = load_settings(paths)
    assert loaded.settings == Settings()
    assert loaded.warnings == [] and loaded.error is None
    assert not paths.config_dir.exists()  # loading creates nothing


def test_round_trip_of_every_section(paths):
    settings = Settings()
    settings.model = "llama3"
    settings.base_url = "http://localhost:11434/v1"
    settings.temperature = 0.3
    settings.memory.max_notes = 12
    settings.memory.corrections = "save"
    settings.history.window_messages = 10
    settings.history.window_tokens = 4000  # "token" in a name is not a secret
    settings.agent.memory_token_budget = 900
    settings.agent.tools = ["remember"]
    settings.redaction.extra_patterns = [r"ACME-\d{6}"]
    settings.keys = {"quit": "ctrl+q"}
    save_settings(paths, settings)
    assert load_settings(paths).settings == settings
    data = tomllib.loads(paths.config_file.read_text())
    assert data["memory"] == {"max_notes": 12, "corrections": "save"}
    assert data["keys"] == {"quit": "ctrl+q"}
    assert "history" in data and "agent" in data and "redaction" in data
    assert "soul" not in data  # only what differs from the defaults
    assert stat.S_IMODE(os.stat(paths.config_file).st_mode) == 0o600


def test_broken_toml_names_line_and_column_and_is_left_untouched(paths):
    original = write(paths, 'model = "ok"\n\n[memory\nmax_notes = 3\n')
    loaded = load_settings(paths)
    assert loaded.settings == Settings()
    assert isinstance(loaded.error, ConfigError)
    assert (loaded.error.line, loaded.error.column) == (3, 8)
    message = str(loaded.error)
    assert str(paths.config_file) in message and "line 3, column 8" in message
    with pytest.raises(ConfigError, match="not saving over"):
        save_settings(paths, Settings(model="other"))
    assert paths.config_file.read_bytes() == original


def test_error_at_end_of_document_still_has_a_line(paths):
    write(paths, 'model = "x"\ntheme = ')
    error = load_settings(paths).error
    assert error is not None and error.line == 2


def test_unknown_keys_and_wrong_types_warn_and_keep_defaults(paths):
    write(paths, 'modle = "typo"\nmodel = 3\ntemperature = 1\n'
                 '[memory]\nmax_notes = "many"\ncorrections = "sometimes"\nbogus = 1\n'
                 '[agent]\ntools = ["remember", 3]\n')
    loaded = load_settings(paths)
    assert loaded.error is None
    text = "\n".join(loaded.warnings)
    assert "'modle'" in text and "'memory.bogus'" in text
    assert "'model' must be a string" in text
    assert "'memory.max_notes' must be an integer" in text
    assert "'memory.corrections'" in text and "'agent.tools'" in text
    s = loaded.settings
    assert s.model == Settings().model and s.memory.max_notes == Settings().memory.max_notes
    assert s.temperature == 1.0  # an int is a fine float


def test_secret_like_unknown_key_warns_and_is_never_saved(paths):
    write(paths, 'api_key = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD"\ncustom = 1\n')
    loaded = load_settings(paths)
    assert any("keyring" in w for w in loaded.warnings)
    save_settings(paths, loaded.settings)
    data = tomllib.loads(paths.config_file.read_text())
    assert "api_key" not in data
    assert data["custom"] == 1  # a key we do not know is not destroyed


def test_secret_in_a_value_is_redacted_on_save(paths):
    settings = Settings(soul="use sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD for calls")
    save_settings(paths, settings)
    text = paths.config_file.read_text()
    assert "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD" not in text
    assert "REDACTED" in text


def test_explicit_default_stays_in_the_file(paths):
    write(paths, 'model = "gpt-4o-mini"\n')
    save_settings(paths, load_settings(paths).settings)
    assert tomllib.loads(paths.config_file.read_text()) == {"model": "gpt-4o-mini"}
