"""PINs and login lines are secrets, in English and Indonesian.

Formats: Indonesian bank PINs are 6 digits (BCA, BRI, Mandiri ATM and mobile
banking help pages: "PIN ATM terdiri dari 6 digit angka"); card PINs in English
4-6 digits (EMV). Key names as in .env files (``BANK_PIN=``). "login: user /
password" is how credentials are pasted into notes and chats.
"""

from __future__ import annotations

import pytest

from agenttui.security import contains_secret, find_secrets, redact_secrets

SECRET = [
    ("PIN ATM saya 936465", "936465"),
    ("bank_pin = 4821", "4821"),
    ("BANK_PIN=774102", "774102"),
    ("PIN kartu kredit: 123456", "123456"),
    ("my debit card PIN is 4567", "4567"),
    ("PIN-nya 482193 ya, jangan bilang siapa-siapa", "482193"),
    ("PIN BCA mobile saya 551928", "551928"),
    ("login: nadia@gmail.com / Sup3rS3cret!", "Sup3rS3cret!"),
    ("login gmail: raka_p / b3ruang!!", "b3ruang!!"),
    ("akun bank saya: nadia88, Melati#2020", "Melati#2020"),
    ("account: ops-bot | Zx9!kLm2q", "Zx9!kLm2q"),
]
INNOCENT = [
    "pinned 1400 notes last year",
    "pin the tweet from 2024",
    "the PIN must be 6 digits",
    "PIN pad model 2000 is out of stock",
    "login / logout buttons broken on mobile",
    "login: admin / admin is the default on the test router",
    "Pin lokasi rumah: Jl. Melati 12",
    "pin 3 photos to the board",
    "Remind me to change my PIN next week",
    "akun bank saya di BCA cabang Depok",
    "spin class 1800 on Tuesday",
]


@pytest.mark.parametrize(("text", "value"), SECRET)
def test_pins_and_login_passwords_are_found_and_redacted(text, value):
    kinds = {s.kind for s in find_secrets(text)}
    assert kinds & {"pin", "password"}, text
    redacted = redact_secrets(text)
    assert value not in redacted and "[REDACTED:" in redacted
    assert redact_secrets(redacted) == redacted  # fixed point


def test_the_user_name_of_a_login_line_is_kept():
    assert redact_secrets("login: nadia@gmail.com / Sup3rS3cret!") == "login: nadia@gmail.com / [REDACTED:password]"


@pytest.mark.parametrize("text", INNOCENT)
def test_innocent_mentions_stay(text):
    assert not contains_secret(text), find_secrets(text)
