"""Passwords given as string literals to .NET credential constructors are redacted."""

from __future__ import annotations

from agenttui.security import redact_secrets


def test_network_credential_password_is_redacted_and_the_user_kept():
    out = redact_secrets('client.Credentials = new NetworkCredential("ops@example.com", "vzihlaquknriqlht");')
    assert out == 'client.Credentials = new NetworkCredential("ops@example.com", "[REDACTED:password]");'


def test_directory_entry_password_over_several_lines_is_redacted():
    text = 'new DirectoryEntry("LDAP://EXAMPLE.COM",\n    "ADMIN@EXAMPLE.COM",\n    "Rrhh1234");'
    out = redact_secrets(text)
    assert '"[REDACTED:password]"' in out and "ADMIN@EXAMPLE.COM" in out and "Rrhh1234" not in out


def test_variables_and_placeholders_stay():
    for text in (
        "new NetworkCredential(user, password)",
        'new NetworkCredential("u", "<password>")',
        'new DirectoryEntry("LDAP://x", "u")',
        "A NetworkCredential holds a user name and a password.",
    ):
        assert redact_secrets(text) == text
