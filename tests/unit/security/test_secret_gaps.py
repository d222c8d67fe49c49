"""Formats no upstream rule set covers well, and families the rule sets bring.

Values below are made up for these tests (random-looking, right shape); the
shapes follow each format's documentation (crypt(5), Hashcat's example
hashes page, provider docs).
"""

from __future__ import annotations

import base64
import random

import pytest

from agenttui.security import redact_secrets


def _random(n: int, alphabet: str, seed: int) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(alphabet) for _ in range(n))


B62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
HEX = "0123456789abcdef"
CRYPT = B62 + "./"


def _gone(text: str, secret: str) -> None:
    out = redact_secrets(text)
    assert "[REDACTED:" in out, out
    assert secret not in out, out
    assert redact_secrets(out) == out  # a fixed point


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("postgres://admin:Kq7vR2pZ9x@db.example.com:5432/app", "Kq7vR2pZ9x"),
        ("mysql://root:Hu5nTer2xy@localhost/db", "Hu5nTer2xy"),
        ("mongodb+srv://user:Pa55w0rdXYZ@cluster0.abcde.mongodb.net/test", "Pa55w0rdXYZ"),
        ("redis://:myRedisPass123@redis:6379/0", "myRedisPass123"),
        ("amqp://guest:rabbitPw99@mq.local:5672/", "rabbitPw99"),
        ("ftp://bob:ftpPass2024@ftp.example.org/pub", "ftpPass2024"),
        ("smb://DOMAIN;alice:SmbPass!23@fileserver/share", "SmbPass!23"),
        ("Server=tcp:db.example.com;Database=app;User Id=sa;Password=Xy7#pQ2m;", "Xy7#pQ2m"),
        ("[database]\npassword = Tr0ub4dor&3\n", "Tr0ub4dor&3"),
        ("db.password=Tr0ub4dor3\n", "Tr0ub4dor3"),
        ("DB_PASS=Tr0ub4dor3xyz\n", "Tr0ub4dor3xyz"),
        ("database:\n  password: Tr0ub4dor3xyz\n", "Tr0ub4dor3xyz"),
    ],
)
def test_uri_connection_string_and_config_passwords(text, secret):
    _gone(text, secret)


HASHES = [
    "$1$" + _random(8, CRYPT, 1) + "$" + _random(22, CRYPT, 2),
    "$5$rounds=5000$" + _random(16, CRYPT, 3) + "$" + _random(43, CRYPT, 4),
    "$6$" + _random(16, CRYPT, 5) + "$" + _random(86, CRYPT, 6),
    "$y$j9T$" + _random(22, CRYPT, 7) + "$" + _random(43, CRYPT, 8),
    "$2b$12$" + _random(53, CRYPT, 9),
    "$argon2id$v=19$m=65536,t=3,p=4$" + _random(22, B62, 10) + "$" + _random(43, B62, 11),
    "$krb5tgs$23$*svc_sql$CORP.LOCAL$MSSQLSvc/db01*$" + _random(32, HEX, 12) + "$" + _random(300, HEX, 13),
    "$krb5asrep$23$jdoe@CORP.LOCAL:" + _random(32, HEX, 14) + "$" + _random(200, HEX, 15),
    "pbkdf2_sha256$600000$" + _random(22, B62, 16) + "$" + _random(43, B62 + "+/", 17) + "=",
]


@pytest.mark.parametrize("hashed", HASHES)
def test_password_hashes_are_redacted_whole(hashed):
    line = f"root:{hashed}:19000:0:99999:7:::"
    out = redact_secrets(line)
    assert out == "root:[REDACTED:password_hash]:19000:0:99999:7:::" or hashed not in out, out
    _gone(line, hashed[-12:])


def test_several_tokens_each_on_its_own_line():
    tokens = [_random(40, B62 + "-_", 20 + i) for i in range(4)]
    text = "keys for the staging box:\n" + "\n".join(tokens) + "\nthanks!"
    out = redact_secrets(text)
    assert all(t not in out for t in tokens), out
    assert out.startswith("keys for the staging box:\n") and out.endswith("\nthanks!")


def test_lines_that_are_not_tokens_stay():
    text = (
        "commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39\n"
        "SomeCamelCaseIdentifierName2\n"
        "123e4567-e89b-12d3-a456-426614174000\n"
        "HTTPServer2RequestHandlerV3\n"
        "xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8\n"
    )
    assert redact_secrets(text) == text


def test_base64_block_lines_are_not_tokens():
    body = base64.b64encode(bytes(random.Random(3).getrandbits(8) for _ in range(300))).decode()
    lines = "\n".join(body[i : i + 64] for i in range(0, len(body), 64))
    cert = f"-----BEGIN CERTIFICATE-----\n{lines}\n-----END CERTIFICATE-----\n"
    assert redact_secrets(cert) == cert


@pytest.mark.parametrize("n", [600, 5_000, 100_000])
def test_values_of_any_length_are_replaced_whole(n):
    value = base64.b64encode(random.Random(n).randbytes(n)).decode()
    for text in (f"key = {value}\n", f"password={value}", f"private_key: {value}\n"):
        out = redact_secrets(text)
        assert value[-40:] not in out and value[:40] not in out, out[-200:]
        assert out.count("[REDACTED:") == 1


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("kata sandi email kantor saya Melati2024!", "Melati2024"),
        ("Password Wi-Fi rumah: kucingoren99", "kucingoren99"),
        ("kata sandi akun bank aku Bunga#2023 ya", "Bunga#2023"),
        ("Password Wi-Fi kantor adalah Kopi_Susu77", "Kopi_Susu77"),
        ("my bank password is BlueHorse42", "BlueHorse42"),
        ("the office wi-fi password: Gr33nTea!", "Gr33nTea"),
    ],
)
def test_prose_passwords_in_english_and_indonesian(text, secret):
    _gone(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "kata sandi saya lupa, tolong reset",
        "Kata sandi email kantor saya sudah diganti kemarin",
        "password wi-fi rumah: ada di kulkas",
        "my password manager is great",
    ],
)
def test_prose_about_passwords_stays(text):
    assert redact_secrets(text) == text


FAMILIES = {
    "tailscale": "tskey-auth-k" + _random(10, B62, 30) + "CNTRL-" + _random(33, B62, 31),
    "vault_hvs": "hvs." + _random(90, B62 + "_-", 32),
    "vault_hvb": "hvb." + _random(130, B62 + "_-", 33),
    "doppler": "dp.st.dev." + _random(43, B62, 34),
    "mapbox": "pk.eyJ1Ijoi" + _random(40, B62, 35) + "." + _random(22, B62 + "_-", 36),
    "google_oauth": "ya29.a0" + _random(120, B62 + "_-", 37),
    "vercel": "vercel_token = " + _random(24, B62, 38),
    "teams": "https://contoso.webhook.office.com/webhookb2/7aa49aa6-7840-443d-806c-08ebe8f59966@c662313f-14fc-43a2-"
    "9a7a-d2e27f4f3478/IncomingWebhook/" + _random(32, HEX, 39) + "/eff4cd58-1bb8-4899-94de-795f656b4a18",
    "twilio": "TWILIO_ACCOUNT_SID=AC" + _random(32, HEX, 40) + "\nTWILIO_AUTH_TOKEN=" + _random(32, HEX, 41),
}


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_families_named_in_the_issue(name):
    text = FAMILIES[name]
    out = redact_secrets(text)
    assert "[REDACTED:" in out, out
    tail = text.rstrip()[-16:]
    assert tail not in out, out
