"""Secret formats from public scanners' rule sources that the other families missed.

Written from the rule sources only (regexes and their comments), never from
those projects' tests or fixtures, and measured on examples generated here
(tests/unit/security/data/source_derived_examples.json,
`bench/eval_source_derived.py`):
- detect-secrets 1.5.0 (Yelp, Apache-2.0), `detect_secrets/plugins/`:
  telegram_token.py (digits, `:`, 35 token characters; no `AA` required),
  twilio.py (account SIDs `AC` + 32 letters or digits),
  artifactory.py (`AKC…` keys and `AP…` passwords, alone), softlayer.py (the SOAP API URL and
  `softlayer`/`sl` keys with 64 characters), cloudant.py (`cloudant`/`cl`/
  `clou` keys with 24 lower-case letters), private_key.py (`BEGIN SSH2
  ENCRYPTED PRIVATE KEY`), high_entropy_strings.py (quoted base64 at >= 4.5
  bits per character);
- secretlint (MIT), commit 18346ba31b8173d52060b971221ab38c1943def0,
  `packages/@secretlint/secretlint-rule-*/src/index.ts`: aws (an account id
  next to its key), azure (tenant and client ids next to theirs), npm (a
  token as the user of `:x-oauth-basic@github.com`), github (`ghs_` with an
  installation id and three dot-separated parts), secp256k1-privatekey (64
  hex digits, here only assigned to a name with `priv` in it).
The patterns are ours (MIT); only the formats come from those sources.

Each finder yields `(start, end, kind, priority)`; `FINDERS` maps it to the
lower-case needles the keyword pass must find first (None: always run).
Every regex is led by a literal or a two-character class and its bodies are
bounded, so a scan is linear.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable, Iterator, Mapping, Set

from . import documented_formats
from .anchor_positions import scan
from .secret_patterns import CONTEXT, GENERIC, PROVIDER
from .values import char_classes, is_placeholder, shannon_entropy

Candidate = tuple[int, int, str, int]
# Each takes (text, lowered, found=None); `...` so the registry's two-argument type accepts it.
Finder = Callable[..., Iterator[Candidate]]


def _random(value: str, min_entropy: float) -> bool:
    return not is_placeholder(value) and char_classes(value) >= 2 and shannon_entropy(value) >= min_entropy


# Telegram bot token: the bot id (8-10 digits), `:`, 35 token characters. Led
# by the colon: a digit-led pattern would be tried at every digit of the text.
# The same scan finds Asana personal access tokens (`1/` or `2/`, digits, `/`,
# digits, `:`, 32 hex; Asana's documented shape).
_COLON_TOKEN = re.compile(r":(?<=[0-9]:)([A-Za-z0-9_-]{32,35}+)(?![A-Za-z0-9_-])")
_BOT_ID = re.compile(r"(?<![0-9])[0-9]{8,10}\Z")
_ASANA_HEAD = re.compile(r"(?<![0-9A-Za-z/])[12]/[0-9]{10,20}+/[0-9]{10,20}\Z")


def find_telegram_tokens(text: str, lowered: str, found: Set[str] | None = None) -> Iterator[Candidate]:
    for m in _COLON_TOKEN.finditer(text):
        value = m.group(1)
        if len(value) == 35:
            bot = _BOT_ID.search(text, max(0, m.start() - 11), m.start())
            if bot is not None and _random(value, 3.5) and not value.isdigit():
                yield bot.start(), m.end(), "telegram_bot_token", PROVIDER
        elif len(value) == 32 and all(c in "0123456789abcdef" for c in value):
            head = _ASANA_HEAD.search(text, max(0, m.start() - 45), m.start())
            if head is not None and len(set(value)) >= 6:
                yield head.start(), m.end(), "asana_token", PROVIDER


# Twilio account SIDs (`AC` + 32 lower-case letters or digits; twilio.py's
# alphabet, hex in practice) and Artifactory keys (artifactory.py: `AKC` + 10 or
# more letters and digits, 73 in practice) and encrypted passwords (`AP`, a hex
# digit, 8 or more), each alone (Artifactory's: at the start or after a space,
# quote, `=` or `:`; the lookbehind is a negated class, so it holds at the
# start too). One scan for the `A` they all start with: as needles, `ac`/`ap` +
# a letter are everywhere in lower-cased text (`access`, `escape`), so none
# would be located, and each scan costs ~2% of redacting code or prose. Twilio's
# `SK` keys are hex (secret_patterns' rule).
_A_FAMILY = re.compile(
    r"A(?:(?P<sid>C(?<![A-Za-z0-9]AC)[a-z0-9]{32}(?![0-9A-Za-z]))"
    r"|(?P<art>(?:KC|P[0-9A-F])(?<![^\s=:\"'`]A..)[A-Za-z0-9]{8,200}+(?![A-Za-z0-9_./+-])))"
)


def find_twilio_and_artifactory(text: str, lowered: str, found: Set[str] | None = None) -> Iterator[Candidate]:
    for m in _A_FAMILY.finditer(text):
        value = m.group()
        if m.group("sid") is not None:
            body = value[2:]
            if len(set(body)) >= 6 and any(c.isdigit() for c in body) and shannon_entropy(body) >= 3.0:
                yield m.start(), m.end(), "twilio_account_sid", PROVIDER
            continue
        key = value.startswith("AKC")
        if len(value) < (13 if key else 14) or char_classes(value) < 3 or shannon_entropy(value) < 3.3:
            continue
        if not is_placeholder(value):
            yield m.start(), m.end(), "artifactory_key" if key else "artifactory_password", PROVIDER


_SOFTLAYER_URL = re.compile(r"api\.softlayer\.com/soap/v3(?:\.1)?/([a-z0-9]{64})(?![a-z0-9])")
# `softlayer_api_key = "…"`, `sl-key: …`: detect-secrets' assignment shape.
_SECRET_WORD = r"(?:key|pwd|pw|password|pass|token)"
_ASSIGNED = r"[\"']?[ \t]{0,8}+(?:=>|:=|::|=|:)[ \t]{0,8}+[\"']?"
_SOFTLAYER_NEEDLES = ("softlayer", "sl_", "sl-", "slapi", "slkey", "slpw", "slpass", "sltoken")
_SOFTLAYER_KEY = re.compile(
    r"(?<![a-z0-9])(?:softlayer|sl)[_-]?(?:api)?[_-]?" + _SECRET_WORD + _ASSIGNED + r"([a-z0-9]{64})(?![a-z0-9])"
)


def find_softlayer_keys(text: str, lowered: str, found: Set[str] | None = None) -> Iterator[Candidate]:
    for rx, needles in ((_SOFTLAYER_URL, ("api.softlayer.com/soap/v3",)), (_SOFTLAYER_KEY, _SOFTLAYER_NEEDLES)):
        for m in scan(rx, lowered, needles, found):
            if _random(text[m.start(1) : m.end(1)], 3.5):
                yield m.start(1), m.end(1), "softlayer_api_key", PROVIDER


# Cloudant: `cloudant_api_key`/`cl_key`/`clou_password` = 24 lower-case letters or 64 hex.
_CLOUDANT_NEEDLES = ("clou", "cl_", "cl-", "clapi", "clkey", "clpw", "clpass", "cltoken")
_CLOUDANT = re.compile(
    r"(?<![a-z0-9])cl(?:oudant|ou)?[_-]?(?:api)?[_-]?" + _SECRET_WORD + _ASSIGNED
    + r"([a-z]{24}|[0-9a-f]{64})(?![a-z0-9])"
)


def find_cloudant_keys(text: str, lowered: str, found: Set[str] | None = None) -> Iterator[Candidate]:
    for m in scan(_CLOUDANT, lowered, _CLOUDANT_NEEDLES, found):
        value = text[m.start(1) : m.end(1)]
        if value.islower() and shannon_entropy(value) >= 3.5 and not is_placeholder(value):
            yield m.start(1), m.end(1), "cloudant_key", PROVIDER


_SSH2_BEGIN = "---- begin ssh2 encrypted private key ----"
_SSH2_END = "---- end ssh2 encrypted private key ----"


def find_ssh2_private_keys(text: str, lowered: str, found: Set[str] | None = None) -> Iterator[Candidate]:
    """Each begin line to the next end line (`str.find`s that move on: linear)."""
    pos = 0
    while (begin := lowered.find(_SSH2_BEGIN, pos)) >= 0:
        end = lowered.find(_SSH2_END, begin + len(_SSH2_BEGIN))
        if end < 0:
            return
        pos = end + len(_SSH2_END)
        yield begin, pos, "private_key", PROVIDER


# A GitHub token given as the user of an `x-oauth-basic` URL.
_X_OAUTH = re.compile(r"://([A-Za-z0-9_]{20,255}):x-oauth-basic@")


def find_x_oauth_tokens(text: str, lowered: str, found: Set[str] | None = None) -> Iterator[Candidate]:
    for m in _X_OAUTH.finditer(text):
        if _random(m.group(1), 3.0) or (len(m.group(1)) >= 40 and shannon_entropy(m.group(1)) >= 3.0):
            yield m.start(1), m.end(1), "github_token", PROVIDER


# AWS account id next to its key (`AWS_ACCOUNT_ID=…`, `"AccountId": "…"`): 12 digits, maybe 4-4-4.
_AWS_ACCOUNT = re.compile(
    r"account(?P<id>[_-]?id)?" + _ASSIGNED + r"(?P<v>[0-9]{4}-?[0-9]{4}-?[0-9]{4})(?![0-9A-Za-z-])"
)


def find_aws_account_ids(text: str, lowered: str, found: Set[str] | None = None) -> Iterator[Candidate]:
    for m in scan(_AWS_ACCOUNT, lowered, ("account",), found):
        if m.group("id") or lowered[max(0, m.start() - 4) : m.start()].rstrip("_-").endswith("aws"):
            value = m.group("v")
            if len(set(value.replace("-", ""))) >= 4:
                yield m.start("v"), m.end("v"), "aws_account_id", CONTEXT


# Azure tenant and client ids next to their keys: GUIDs (a GUID alone is left).
_AZURE_ID = re.compile(
    r"(?P<k>tenant|client)[_-]?id" + _ASSIGNED
    + r"(?P<v>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?![0-9a-z-])"
)


def find_azure_ids(text: str, lowered: str, found: Set[str] | None = None) -> Iterator[Candidate]:
    for m in scan(_AZURE_ID, lowered, ("tenant", "client"), found):
        if m.group("k") == "tenant" and not lowered[max(0, m.start() - 6) : m.start()].rstrip("_-").endswith(
                ("azure", "ad")):
            continue
        yield m.start("v"), m.end("v"), "azure_id", CONTEXT


# secretlint's secp256k1 rule reports any 64-hex value that is a valid key (nearly
# all are, so a hash too); here only one assigned to a name with `priv` in it
# (`PRIV`, `privHex`, `wallet_priv`): names with `key` in them are the
# assignment rule's already.
_PRIV_HEX = re.compile(
    r"(?P<n>priv[a-z0-9_]{0,30}+)[\"'\]]{0,2}+[ \t]{0,8}+(?:=>|:=|=|:)[ \t]{0,8}+[\"'`]?(?:0x)?"
    r"(?P<v>[0-9a-f]{64})(?![0-9a-z])"
)


def find_priv_hex_keys(text: str, lowered: str, found: Set[str] | None = None) -> Iterator[Candidate]:
    for m in scan(_PRIV_HEX, lowered, ("priv",), found):
        name = m.group("n")
        if name.startswith(("privilege", "privacy")) or name.rstrip("_").endswith(("hash", "digest", "sha", "id")):
            continue
        if len(set(m.group("v"))) >= 10:
            yield m.start("v"), m.end("v"), "crypto_private_key", PROVIDER


# GitHub App installation token in its newer form: `ghs_`, the installation id,
# `_`, then three dot-separated url-safe parts (secretlint's github rule).
# Parts bounded at 300/3000/300 characters, so a failed attempt costs at most that.
_GHS_JWT = re.compile(r"ghs_(?<![A-Za-z0-9]ghs_)[0-9]{1,20}+_[A-Za-z0-9_-]{1,300}+\.[A-Za-z0-9_-]{1,3000}+"
                      r"\.[A-Za-z0-9_-]{1,300}+")


def find_github_app_tokens(text: str, lowered: str, found: Set[str] | None = None) -> Iterator[Candidate]:
    for m in scan(_GHS_JWT, text, ("ghs_",), found):
        if _random(m.group()[4:], 3.5):
            yield m.start(), m.end(), "github_token", PROVIDER


# detect-secrets' Base64HighEntropyString: a quoted run of the base64 alphabet
# at >= 4.5 bits per character (so at least 23 distinct characters). Letters
# of both cases and a digit are required, and integrity hashes and data URLs
# (`"sha512-…"`, `base64,…`) are not quoted runs of their own.
_QUOTED_B64 = tuple(re.compile(q + r"([A-Za-z0-9+/]{20,500}+={0,2})" + q) for q in ("\"", "'"))


def _sequential(value: str | bytes, run: int = 8) -> bool:
    """A run of `run` characters each one after the last (`abcdefgh`, `ABCDEFGH`, `12345678`):
    an alphabet or a test vector, as detect-secrets' sequential-string filter says."""
    codes = value.encode("latin-1", "replace") if isinstance(value, str) else value
    count = 1
    for a, b in zip(codes, codes[1:], strict=False):
        count = count + 1 if b == a + 1 else 1
        if count >= run:
            return True
    return False


def _decoded(value: str) -> bytes:
    try:
        return base64.b64decode(value + "=" * (-len(value) % 4))
    except ValueError:
        return b""


def find_quoted_base64(
    text: str, lowered: str, found: Set[str] | None = None, outranked: Mapping[int, int] | None = None,
) -> Iterator[Candidate]:
    """`outranked`: `outranked.outranking_ends` of the candidates found so far above GENERIC,
    if known: a value there is not judged (it would change nothing redacted)."""
    ends = outranked or {}
    for m in (*_QUOTED_B64[0].finditer(text), *_QUOTED_B64[1].finditer(text)):
        if ends and ends.get(m.start(1), -1) >= m.end(1):
            continue
        value = m.group(1)
        if shannon_entropy(value) < 4.5 or char_classes(value) < 3 or is_placeholder(value):
            continue
        if value.startswith("/") or "//" in value:
            continue  # a path
        if _sequential(value) or _sequential(_decoded(value)):
            continue
        yield m.start(1), m.end(1), "high_entropy", GENERIC


# Each finder's needles: the keyword pass gates it on them (None: it always runs),
# and the sparse pass locates those in `LOCATED`, where its regexes are tried.
FINDERS: dict[Finder, tuple[tuple[str, ...], ...] | None] = {
    find_telegram_tokens: None,
    find_twilio_and_artifactory: None,
    find_softlayer_keys: (("api.softlayer.com/soap/v3", *_SOFTLAYER_NEEDLES),),
    find_cloudant_keys: (_CLOUDANT_NEEDLES,),
    find_ssh2_private_keys: (("begin ssh2 encrypted private key",),),
    find_x_oauth_tokens: ((":x-oauth-basic@",),),
    find_aws_account_ids: (("account",),),
    find_azure_ids: (("tenant", "client"),),
    find_github_app_tokens: (("ghs_",),),
    find_priv_hex_keys: (("priv",),),
    find_quoted_base64: None,
    **documented_formats.FINDERS,  # provider-documented prefixes (its docstring)
}
LOCATED = frozenset(("api.softlayer.com/soap/v3", *_SOFTLAYER_NEEDLES,
                     *_CLOUDANT_NEEDLES, "account", "tenant", "client", "ghs_", "priv",
                     *documented_formats.LOCATED))
