"""A profile name or a fact key in another script is refused with words that say which letters
are meant: "use letters" told someone who typed 日本語 or 도시 to use what they had used."""

from __future__ import annotations

from agenttui.cli import main


def test_a_profile_name_in_another_script_is_refused_naming_the_letters_meant(paths, capsys):
    assert main(["profile", "create", "日本語"]) == 1
    err = capsys.readouterr().err
    assert "invalid profile name '日本語'" in err and "Latin letters A-Z and a-z" in err


def test_a_fact_key_in_another_script_is_refused_naming_the_letters_meant(paths, capsys):
    assert main(["memory", "set", "도시", "서울"]) == 1
    err = capsys.readouterr().err
    assert "Invalid fact key '도시'" in err and "Latin letters a-z" in err
    assert main(["memory", "add", "도시 = 서울"]) == 0  # a note says it as well
