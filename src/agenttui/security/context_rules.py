"""Secrets recognised by their surroundings rather than their format.

Assignments (`KEY=value` in env/YAML/JSON/INI/TOML/code), CLI flags, URLs with
credentials, Authorization/Cookie headers, "my password is …" in chat, and
private-key blocks.

Case-insensitive rules run on `lowered` — the text with only A–Z mapped to
a–z, so offsets are identical to the original — because `re` cannot use its
literal-prefix scan under IGNORECASE. Values are always read back from the
original text. All bodies are possessive or bounded; no nesting.

Every finder yields `(start, end, kind, priority)`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Set
from functools import lru_cache

from .anchor_positions import Present, scan
from .anchored import AnchoredPattern
from .secret_patterns import CONTEXT, GENERIC
from .values import (
    ascii_classes,
    is_code_reference,
    is_dial_in_code,
    is_placeholder,
    is_template,
    looks_like_password,
    looks_random,
    shannon_entropy,
    strip_quotes,
)

Candidate = tuple[int, int, str, int]

# --- assignments -------------------------------------------------------------

# The anchor is a secret-ish word; the key is completed in Python (backwards
# scan). One literal-led regex per anchor (see `anchored`): an alternation
# here would cost a match attempt at every p/s/t/k/a/c/m of the text.
_ASSIGN = AnchoredPattern(
    dict.fromkeys("pass pwd sandi secret token key auth session cookie sig seed mnemonic cred".split(), ""),
    r"""
    [a-z0-9_.-]{0,40}+            # rest of the key
    ["']?\]?                      # closing quote of a JSON/dict key
    [ \t]{0,24}+                  # keys aligned in a column (`:password   => '…'`)
    (?P<sep>=(?![=~>])|:=|=>|:(?![:/])|[=!]==?+)   # ==, !=: a credential checked in code
    [ \t]{0,24}+
    (?P<value>"[^"\r\n]{0,500}+"|'[^'\r\n]{0,500}+'|[^\s"',;{}()\[\]]{1,500}+(?![(\[]))
    """,  # an unquoted value before `(` or `[` is an expression (`os.environ.get(…)`): no match, no Python work
    re.VERBOSE,
)
_KEY_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789_.-"
# Every anchor's regex has REST's groups at the same numbers (no anchor has groups of its own).
_ASSIGN_SEP, _ASSIGN_VALUE = 1, 2
assert all(
    rx.groupindex["sep"] == _ASSIGN_SEP and rx.groupindex["value"] == _ASSIGN_VALUE for _, rx in _ASSIGN._by_anchor
)

_STRONG = (
    "pass",
    "pwd",
    "sandi",
    "secret",
    "token",
    "apikey",
    "api_key",
    "api-key",
    "accesskey",
    "access_key",
    "access-key",
    "privatekey",
    "private_key",
    "private-key",
    "privkey",
    "priv_key",
    "credential",
    "signing_key",
    "encryption_key",
    "master_key",
    "auth_key",
    "authkey",
    "mnemonic",
    "seed_phrase",
    "seedphrase",
    "client_secret",
    "sessionkey",
    "session_key",
)
# Words that contain an anchor but are not secrets.
_NOT_SECRET_WORDS = (
    "bypass",
    "compass",
    "passenger",
    "passage",
    "passive",
    "passthrough",
    "passport",
    "author",
    "keyboard",
    "keyword",
    "monkey",
    "turkey",
    "hockey",
    "donkey",
    "jockey",
    "keynote",
    "tokenizer",
    "signal",
    "signature_algorithm",
    "design",
    "assign",
    "sigma",
    "sight",
    "session_timeout",
)
# Last key component that makes the value metadata, not the secret itself.
_METADATA_SUFFIXES = frozenset(
    """
    type types count url uri urls endpoint name names id ids path file files dir
    length len limit limits size expiry expires expiration ttl timeout usage
    header prefix field policy version enabled required rotation method mode
    format env var variable hint label min max hash_algorithm algorithm algo
    tokens index provider location store source backend helper cmd command
    """.split()
)
_SPLIT_KEY = re.compile(r"[_.\-]+|(?<=[a-z0-9])(?=[A-Z])")


def _key_start(lowered: str, anchor: int) -> int:
    """Start of the key around `anchor`: at most 60 key characters back."""
    before = lowered[max(0, anchor - 60) : anchor]
    return anchor - (len(before) - len(before.rstrip(_KEY_CHARS)))


@lru_cache(maxsize=4096)
def _classify_key(key: str, original_key: str) -> tuple[str, bool] | None:
    """(kind, strong) for a key name, or None when it is not secret-bearing."""
    if any(w in key for w in _NOT_SECRET_WORDS) and "authorization" not in key:
        return None
    parts = [p for p in _SPLIT_KEY.split(original_key) if p]
    if parts and parts[-1].lower() in _METADATA_SUFFIXES:
        return None
    strong = any(s in key for s in _STRONG)
    if "pass" in key or "pwd" in key or "sandi" in key:
        return "password", True
    if "aws" in key and "secret" in key:
        return "aws_secret_key", True
    if "twilio" in key or "auth_token" in key or "authtoken" in key:
        return ("twilio_auth_token" if "twilio" in key else "token"), True
    if "priv" in key:
        return "private_key", True
    if "mnemonic" in key or "seed" in key:
        return "seed_phrase", strong
    if "api" in key and "key" in key:
        return "api_key", True
    if "secret" in key:
        return "secret", True
    if "token" in key:
        return "token", True
    return "secret", strong


@lru_cache(maxsize=4096)
def _key_verdict(raw_key: str) -> tuple[str, bool] | None:
    """`_classify_key` of a key as written: one cached look-up per assignment, where
    the key's lower-casing and a two-argument cache key cost as much again."""
    return _classify_key(raw_key.lower(), raw_key)


_HEX64 = re.compile(r"(?:0x)?[0-9a-fA-F]{64}")
_DOTTED_NAME = re.compile(r"[A-Za-z_][\w$]{0,100}(?:\.[A-Za-z_][\w$]{0,100}){1,20}(?:[@/#][\w.]{0,100})?:?")
_NAME = re.compile(r"[A-Za-z_]{1,100}")  # an identifier without digits (`hunter2` is a password)
_TOKEN_VALUE = re.compile(r"[A-Za-z0-9+/=_.~-]{1,500}")


def find_assignments(
    text: str,
    lowered: str,
    present: Set[str] | None = None,
    outranked: Mapping[int, int] | None = None,
) -> Iterator[Candidate]:
    """`present`: the anchors that occur in `lowered`, if known (`AnchoredPattern.finditer`);
    `outranked`: `outranked.outranking_ends` of the candidates found so far above CONTEXT,
    if known: a value there is not judged (it would change nothing redacted)."""
    # Group numbers, not names (a look-up each, ~10 per match on secret-dense text).
    sep_group, value_group = _ASSIGN_SEP, _ASSIGN_VALUE
    for m in _ASSIGN.finditer(lowered, present):
        if outranked:
            # The span yielded below: the value less its quotes, if quoted (never empty:
            # a quoted value has both quotes).
            vstart, vend = m.span(value_group)
            quoted = text[vstart] in "\"'"
            if outranked.get(vstart + quoted, -1) >= vend - quoted:
                continue
        else:
            vstart = -1  # read below, past the key's checks (most matches in code stop there)
        # The filters below each `continue`: the cheapest and most selective run
        # first (on code, most matches are `max_tokens=…` or `key == "…"`).
        anchor = m.start()
        before = lowered[max(0, anchor - 60) : anchor]  # `_key_start`, inline
        kstart = anchor - (len(before) - len(before.rstrip(_KEY_CHARS)))
        key_end = m.start(sep_group)
        raw_key = text[kstart:key_end].strip(" \t\"'[]")
        if not raw_key:
            continue
        verdict = _key_verdict(raw_key)
        if verdict is None:
            continue
        kind, strong = verdict
        sep = m.group(sep_group)
        comparison = sep in ("==", "===", "!=", "!==")
        if comparison and not (strong and kind in ("password", "secret")):
            continue  # only a strong password or secret compared to a literal counts (below)
        # `https://oauth2:TOKEN@host/…`: URL credentials, found below; `[REDACTED:password_hash]:19000:…`:
        # a marker's kind, not a key.
        if lowered.endswith(("://", "[redacted:"), 0, kstart):
            continue
        if vstart < 0:
            vstart, vend = m.span(value_group)
            quoted = text[vstart] in "\"'"
        raw = text[vstart:vend]
        if quoted:
            value = strip_quotes(raw)
            vstart, vend = vstart + 1, vend - 1
        elif "`" in raw:  # `hashed_password=hashed_password`: inline code in prose
            value = strip_quotes(raw).split("`", 1)[0]
        else:
            # An unquoted value holds no space, quote, ',' or ';' (the regex's class: on
            # `lowered` every space of `text` is one too): `strip_quotes` would return it.
            value = raw
        if comparison:
            # `if password == "logmein"`: a hard-coded credential, if it is a quoted
            # literal of one word (not `token == "EOF"`, `secret != ""`, a message).
            if (
                quoted
                and strong
                and kind in ("password", "secret")
                and len(value) >= 4
                and not is_placeholder(value)
                and not any(c.isspace() for c in value)
            ):
                yield vstart, vend, kind, CONTEXT
            continue
        if kind == "token" and value.isdigit():
            continue  # max_tokens=4096, token_count: 12 (first: the checks below only `continue` too)
        # A connection string's `;Password=secret;` is a slot for the password as typed.
        slot = sep == "=" and text[vend : vend + 1] == ";" and lowered[max(0, kstart - 1) : kstart] == ";"
        if is_template(value) if slot else is_placeholder(value):
            continue
        if (
            not quoted
            and not slot
            and (
                text[vend : vend + 1] in ("[", "(", ".") or is_code_reference(value, raw_key[raw_key.rfind(".") + 1 :])
            )
            and not _ini_line(text, kstart, key_end, vstart, vend)
        ):
            continue  # an expression: user_dict["password"], get(…), obj.attr (tested first: most values are none)
        if (
            not quoted
            and not slot
            and sep in ("=", ":=")
            and _NAME.fullmatch(value)
            and (
                value.isupper()
                or (
                    text[key_end - 1 : key_end].isspace()
                    and text[vstart - 1 : vstart].isspace()
                    and not _unindented_line(text, kstart, vend)
                )
            )
        ):
            continue  # code: `self.token = nextchar` (a name), `token=EOF` (a constant)
        if raw_key.lower().endswith("passcode") and is_dial_in_code(text, kstart, value):
            continue  # a conference call's access code, given to every caller with the number
        if kind == "private_key" and _HEX64.fullmatch(value):
            kind = "crypto_private_key"
        if not strong:
            # A weak key (key=, session:, cookie=) holds a secret only if the value is a
            # generated token: token characters, letters and digits. Not a name
            # (`key="ClearTextPassword"`), a URL, a number, a list or a sentence.
            # (A token value is ASCII: its classes in one C pass, not a generator per class.)
            if not _TOKEN_VALUE.fullmatch(value) or value[:2] in ("0x", "0X"):
                continue  # (0x14ed93…: a number, e.g. a ZooKeeper session id)
            classes = ascii_classes(value)
            if b"d" not in classes or (b"l" not in classes and b"u" not in classes):
                continue
            # `looks_random(value)`, read for what is known here: such a value is its own
            # `strip_quotes` and has at least two classes (a digit, a letter).
            if len(value) >= 16 and not is_placeholder(value) and shannon_entropy(value) >= 3.0:
                yield vstart, vend, "high_entropy", GENERIC
            continue
        # "Reset password: click the link" — prose, unless it looks chosen;
        # "activity token: android.os.BinderProxy@2bd79ce" — a dotted name.
        if (
            sep == ":"
            and not quoted
            and not _value_ends_line(text, kstart, vend)
            and (not looks_like_password(value) or _DOTTED_NAME.fullmatch(value))
        ):
            continue
        if len(value) < 3:
            continue
        yield vstart, vend, kind, CONTEXT


def _ini_line(text: str, key_start: int, key_end: int, vstart: int, vend: int) -> bool:
    """`Password=thisismypassword` alone on its line (INI, .env): a value, not code
    (code spaces its `=`, and a name there is a variable: `token = current_token`)."""
    return (
        key_end == vstart - 1
        and text[key_end] == "="
        and text[key_end - 1 : key_end].isalnum()
        and _value_ends_line(text, key_start, vend)
    )


def _unindented_line(text: str, key_start: int, vend: int) -> bool:
    """`password = open_sesame` as a whole line from column 0: INI, not a statement
    of a function body (indented)."""
    return (key_start == 0 or text[key_start - 1] == "\n") and _value_ends_line(text, key_start, vend)


def _value_ends_line(text: str, key_start: int, vend: int) -> bool:
    """YAML/INI shape: the key opens its line and the value closes it."""
    lo = max(0, key_start - 200)  # bounded look-back keeps this O(1)
    nl = text.rfind("\n", lo, key_start)
    if nl < 0 and lo > 0:
        return False  # a long run of text precedes the key on its line
    prefix = text[nl + 1 : key_start].strip(" \t-\"'#")
    if prefix and not prefix.startswith("export"):
        return False
    rest = text[vend : vend + 200]
    nl = rest.find("\n")
    tail = rest if nl < 0 else rest[:nl]
    return tail.strip() == "" or tail.lstrip().startswith("#")


# --- prose: "my password is X", "passwordnya: X", "private key: 0x…" ----------

_PROSE = AnchoredPattern(
    {
        "pass": "word|wd|code|phrase",
        "sandi": "",
        "private key": "",
        "secret key": "",
        "api key": "",
        "access token": "",
        "auth token": "",
        "token": "",
    },
    r"""
    (?P<kw_end>)                      # the keyword is text[start:kw_end]
    (?:nya|ku)?
    (?:[ \t]{1,3}+[a-z][a-z-]{1,11}+){0,3}    # "password wi-fi kantor:", "password for the router is"
    # "kata sandi email kantor saya X": a possessive ends the subject, no verb needed.
    # One lookbehind per width, not one per word: each is tried after every word the
    # group above gives back (~15% of this pattern's cost on prose that says
    # "password" every few hundred characters); 'saya' is alone, as it need not start a word.
    (?:[ \t]{0,3}+(?:is|was|adalah|itu|:)|(?<=saya)|(?<=\bkami|\bkita)|(?<=\baku|\bgue))
    [ \t]{1,3}+
    (?P<value>[^\s]{4,200}+)
    """,
    re.VERBOSE,
)


# "password <word> is X" where <word> makes the subject something else than the password.
_NOT_THE_PASSWORD = frozenset(
    "manager managers policy policies length strength requirements rules generator app field hint".split()
)


def find_prose(text: str, lowered: str, present: Set[str] | None = None) -> Iterator[Candidate]:
    for m in _PROSE.finditer(lowered, present):
        if m.start() and lowered[m.start() - 1].isalpha():
            continue  # "spin: …", "keypin …" — word boundary checked here, not
            # in the regex, so `re` keeps its first-character scan
        vstart, vend = m.span("value")
        raw = text[vstart:vend]
        value = raw.rstrip(".,;:!?)\"'")
        value = value.lstrip("\"'(`")
        vstart += len(raw) - len(raw.lstrip("\"'(`"))
        vend = vstart + len(value)
        kw = lowered[m.start() : m.start("kw_end")]
        if is_code_reference(value) or _DOTTED_NAME.fullmatch(value):
            continue  # token: android.os.BinderProxy@2bd79ce
        if kw in ("password", "passwd", "passcode", "passphrase", "sandi"):
            after = lowered[m.start("kw_end") : vstart].split()
            if after and after[0] in _NOT_THE_PASSWORD:
                continue  # "password manager is 1Password": the subject is another thing
            if kw == "passcode" and is_dial_in_code(text, m.start(), value):
                continue  # a conference call's access code under its number
            if looks_like_password(value):
                yield vstart, vend, "password", CONTEXT
        elif kw == "private key" and _HEX64.fullmatch(value):
            yield vstart, vend, "crypto_private_key", CONTEXT
        elif looks_random(value):
            yield vstart, vend, kw.replace(" ", "_"), CONTEXT


# --- command-line flags --------------------------------------------------------

_FLAG = re.compile(
    r"""
    --(?P<key>password|passwd|pass|token|api-key|apikey|api_key|secret|client-secret
      |auth-token|access-token|private-key)
    (?:=|[ \t]{1,4}+)
    (?P<value>"[^"\r\n]{1,500}+"|'[^'\r\n]{1,500}+'|[^\s"']{1,500}+)
    """,
    re.VERBOSE,
)
# What every match of `_FLAG` starts with (it is tried at their located starts).
FLAG_NEEDLES = (
    "--pass",
    "--token",
    "--api",
    "--secret",
    "--client-secret",
    "--auth-token",
    "--access-token",
    "--private-key",
)
# Anchored on "-u"/"--user" rather than led by "-": logs are full of hyphens.
_CURL_USER = AnchoredPattern(
    {"-u": "", "--user": ""},
    r"""[ \t]{1,4}+["']?[^\s:"']{1,128}+:(?P<value>[^\s"']{1,256}+)""",
)


def find_flags(text: str, lowered: str, present: Set[str] | None = None) -> Iterator[Candidate]:
    """`present`: whether "--", "-u" and "--user" occur in `lowered`, if known ("--user"
    holds "-u"; "-u" in `text` is "-u" in `lowered`): "--" or "-u" opens the gate, and
    the other's scan is then skipped, as is that of an anchor of `_CURL_USER` that is
    absent (or located: tried at its starts)."""
    for m in scan(_FLAG, lowered, FLAG_NEEDLES, present) if present is None or "--" in present else ():
        vstart, vend = m.span("value")
        raw = text[vstart:vend]
        if raw[:1] in "\"'":
            vstart, vend = vstart + 1, vend - 1
        value = text[vstart:vend]
        if is_placeholder(value) or value.startswith("-"):
            continue
        kind = "password" if "pass" in m.group("key") else "token"
        yield vstart, vend, kind, CONTEXT
    for m in _CURL_USER.finditer(text, present) if present is None or "-u" in present else ():
        value = m.group("value")
        if not is_placeholder(value):
            yield *m.span("value"), "basic_auth", CONTEXT


# --- URLs with credentials --------------------------------------------------

# The password may contain '?' or '#' (people paste unencoded URLs); it ends
# at the first '@', and never spans a '/', so host:port/path is not a match.
_URL_CREDS = re.compile(r"://(?P<user>[^\s:/@?#\[\]\"'<>]{0,256}+):(?P<pw>[^\s/@\"'<>]{1,256}+)@")


def find_url_passwords(text: str, lowered: str, present: Set[str] | None = None) -> Iterator[Candidate]:
    # In a URL's password slot a word is the password as typed
    # (`postgres://app:secret@db`): only templates (`${PW}`, `<password>`, `***`) stay.
    for m in scan(_URL_CREDS, text, ("://",), present):
        if not is_template(m.group("pw")):
            yield *m.span("pw"), "url_password", CONTEXT


# --- HTTP headers --------------------------------------------------------------

_AUTH_HEADER = re.compile(
    r"""
    authorization["']?[ \t]{0,4}+[:=][ \t]{0,4}+["']?
    (?:(?P<scheme>bearer|basic|token|bot|apikey|sso-key|key|digest|negotiate|ntlm)[ \t]{1,4}+)?
    (?P<value>[^\s"',;]{4,4000}+)
    """,
    re.VERBOSE,
)
# snake_case name. Starts only where a word starts and takes its runs whole: searched
# over a long run of letters it would otherwise rescan the run from every letter.
_VARIABLE = re.compile(r"(?<![a-z0-9_])[a-z]++(?:_[a-z0-9]++)+")
_BEARER = re.compile(r"bearer[ \t]{1,4}+(?P<value>[a-z0-9._~+/=-]{16,4000}+)")
# "cookie" also covers "set-cookie" (same value), and keeps a literal lead.
_COOKIE = re.compile(r"cookie[ \t]{0,4}+:[ \t]{0,4}+(?P<value>[^\r\n\"']{1,8000}+)")
_COOKIE_FLAG = AnchoredPattern({"--cookie": "", "-b": ""}, r"[ \t]{1,4}+[\"'](?P<value>[^\"'\r\n]{1,8000}+)")
_API_KEY_HEADER = re.compile(
    r"x-(?:api-key|auth-token|access-token|apikey|goog-api-key)[ \t]{0,4}+:[ \t]{0,4}+(?P<value>[^\s\"',;]{8,4000}+)"
)


# The needle (in `lowered`) that each header regex's matches start with.
HEADER_NEEDLES = ("authorization", "bearer", "cookie", "-b", "x-")


def find_headers(text: str, lowered: str, present: Set[str] | None = None) -> Iterator[Candidate]:
    """`present`: the `HEADER_NEEDLES` that occur in `lowered`, if known: one of them
    opens the gate ("x-" is in most code), and each regex whose literal is absent is
    not scanned for (~1 ms/MB a scan)."""

    def has(needle: str) -> bool:
        return present is None or needle in present

    # Each regex is led by its needle: tried at its located starts, if the sparse pass has them.
    auth = scan(_AUTH_HEADER, lowered, ("authorization",), present) if has("authorization") else ()
    for m in auth:
        vstart, vend = m.span("value")
        if _VARIABLE.fullmatch(text[vstart:vend].rstrip(")}]")):
            continue  # {"Proxy-Authorization": proxy_auth_value}: code
        if m.group("scheme") == "digest":
            nl = text.find("\n", vstart, vstart + 4000)
            vend = nl if nl >= 0 else min(len(text), vstart + 4000)
        if not is_placeholder(text[vstart:vend]):
            yield vstart, vend, "auth_header", CONTEXT
    for m in scan(_BEARER, lowered, ("bearer",), present) if has("bearer") else ():
        vstart, vend = m.span("value")
        if looks_random(text[vstart:vend]):
            yield vstart, vend, "bearer_token", CONTEXT
    cookies = scan(_COOKIE, lowered, ("cookie",), present) if has("cookie") else ()
    # "--cookie" holds "cookie"; the flag's anchors are scanned for only where present,
    # and tried at the starts the keyword pass located ("-b" is rare in code and docs).
    flags = _COOKIE_FLAG.finditer(
        lowered,
        None
        if present is None
        else Present(
            {a for a, n in (("--cookie", "cookie"), ("-b", "-b")) if n in present},
            {a: s for a, s in getattr(present, "positions", {}).items() if a in ("--cookie", "-b")},
        ),
    )
    for found in (cookies, flags):
        for m in found:
            vstart, vend = m.span("value")
            value = text[vstart:vend].rstrip()
            if "=" in value and not is_placeholder(value.split("=", 1)[1]):
                yield vstart, vstart + len(value), "cookie", CONTEXT
    for m in scan(_API_KEY_HEADER, lowered, ("x-",), present) if has("x-") else ():
        if lowered[max(0, m.start() - 3) : m.start()] == "://":
            continue  # `https://x-access-token:TOKEN@host`: URL credentials
        vstart, vend = m.span("value")
        if not is_placeholder(text[vstart:vend]):
            yield vstart, vend, "api_key", CONTEXT


# --- private key blocks ----------------------------------------------------

_PEM_BEGIN = re.compile(r"-----BEGIN (?P<label>[A-Z0-9 ]{0,40}+)-----")
# Body of a block whose END is missing (truncated paste): the rest of the
# BEGIN line, then base64 lines or PEM headers (`Proc-Type: …`), blank lines
# allowed, newlines real or JSON-escaped. Every loop turn eats a newline, so
# the possessive nesting cannot backtrack.
_PEM_BODY = re.compile(
    r"[A-Za-z0-9+/= \t]{0,100000}+"
    r"(?:(?:\r?\n|\\n)(?:[A-Za-z0-9+/=]{1,200}+|[A-Za-z-]{1,40}+: [^\r\n\\]{0,200}+)?){0,100000}+"
)


def _pem_body_end(text: str, start: int) -> int:
    """Where the key body from ``start`` ends (the pattern also matches nothing: never None)."""
    body = _PEM_BODY.match(text, start)
    return body.end() if body else start


def find_private_key_blocks(text: str, lowered: str, present: Set[str] | None = None) -> Iterator[Candidate]:
    no_end_after = len(text) + 1  # cache: no "-----END" at or after here
    for m in scan(_PEM_BEGIN, text, ("-----begin",), present):
        label = m.group("label")
        if "PRIVATE" not in label:
            continue  # PUBLIC KEY, CERTIFICATE, PGP PUBLIC KEY BLOCK stay
        start = m.start()
        end = -1
        if m.end() < no_end_after:
            end = text.find("-----END", m.end())
            if end < 0:
                no_end_after = m.end()
        if end >= 0:
            close = text.find("-----", end + 8, end + 8 + 64)
            end = close + 5 if close >= 0 else end + 8
        else:
            end = _pem_body_end(text, m.end())
        yield start, end, "private_key", CONTEXT + 5
    # PuTTY keys keep the private part after "Private-Lines:" (a needle of the
    # keyword pass: where it knows the text has none, no scan).
    i = text.find("Private-Lines:") if present is None or "private-lines:" in present else -1
    while i >= 0:
        end = _pem_body_end(text, i + 14)
        yield i, end, "private_key", CONTEXT + 5
        i = text.find("Private-Lines:", end)


CONTEXT_FINDERS = (
    find_assignments,
    find_prose,
    find_flags,
    find_url_passwords,
    find_headers,
    find_private_key_blocks,
)
