"""Password hashes: the crypt family, bcrypt, argon2, scrypt, PBKDF2 and Kerberos.

A hash in /etc/shadow, a database dump or a Hashcat line is as good as the
password to anyone with a GPU (and a Kerberos AS-REP/TGS hash is what
"roasting" attacks crack), so it is redacted whole. Formats (the modular
crypt format, `$id$[params$]salt$hash`):
- `$1$` MD5-crypt, `$apr1$` Apache MD5, `$5$`/`$6$` SHA-256/512-crypt (with
  optional `rounds=N$`), `$y$`/`$gy$` yescrypt, `$7$` scrypt, `$sha1$`;
- `$2a$`/`$2b$`/`$2x$`/`$2y$` bcrypt: cost, then 53 characters;
- `$argon2i$`/`$argon2d$`/`$argon2id$`: `v=19$m=…,t=…,p=…$salt$hash`;
- `$pbkdf2-sha256$…` (passlib) and `pbkdf2_sha256$rounds$salt$hash` (Django);
- `$krb5tgs$`, `$krb5asrep$`, `$krb5pa$` (Hashcat's Kerberos formats).
Every pattern is literal-led (`$`, or `pbkdf2_`), bounded and possessive.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Set

from .anchor_positions import scan
from .secret_patterns import CONTEXT

Candidate = tuple[int, int, str, int]

_B64 = r"[A-Za-z0-9./+=]"
_HASHES = re.compile(
    rf"""
    \$(?:
        (?:1|5|6|apr1|sha1|md5)\$(?:rounds=\d{{1,9}}\$)?{_B64}{{1,64}}+\$(?P<h1>{_B64}{{16,128}}+)
      | (?:y|gy|7)\$[A-Za-z0-9./]{{1,64}}+\$[A-Za-z0-9./]{{1,64}}+\$(?P<h2>{_B64}{{16,128}}+)
      | 2[abxy]\$\d\d\$(?P<h3>[A-Za-z0-9./]{{53}})
      | argon2(?:id|i|d)\$(?:v=\d{{1,3}}\$)?m=\d{{1,9}},t=\d{{1,9}},p=\d{{1,9}}
        \${_B64}{{4,128}}+\$(?P<h4>{_B64}{{16,256}}+)
      | pbkdf2-sha(?:1|256|512)\$\d{{1,9}}\${_B64}{{4,128}}+\$(?P<h5>{_B64}{{16,256}}+)
      | krb5(?:tgs|asrep|pa)\$[^\s]{{16,20000}}+
    )
    """,
    re.VERBOSE,
)
_DJANGO = re.compile(r"pbkdf2_sha(?:1|256)\$\d{1,9}\$[A-Za-z0-9./+=]{4,128}+\$[A-Za-z0-9./+=]{16,256}+")

NEEDLES = ("$1$", "$5$", "$6$", "$y$", "$gy$", "$7$", "$apr1$", "$sha1$", "$md5$", "$2a$", "$2b$", "$2x$",
           "$2y$", "$argon2", "$pbkdf2-", "pbkdf2_", "$krb5")


_DJANGO_NEEDLES = ("pbkdf2_",)


def find_password_hashes(text: str, lowered: str, present: Set[str] | None = None) -> Iterator[Candidate]:
    """`present`: the needles the keyword pass found (with their starts, if located).
    Every match of `_HASHES` starts with one of `NEEDLES` but "pbkdf2_", and every
    match of `_DJANGO` with "pbkdf2_"."""
    for m in scan(_HASHES, text, [n for n in NEEDLES if n != "pbkdf2_"], present):
        yield m.start(), m.end(), "password_hash", CONTEXT
    for m in scan(_DJANGO, text, _DJANGO_NEEDLES, present):
        yield m.start(), m.end(), "password_hash", CONTEXT
