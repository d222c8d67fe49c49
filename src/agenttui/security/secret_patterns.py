"""Provider credential formats: literal prefix + bounded/possessive body.

Linear time by construction, and fast (each rule costs one C scan for its
literal, ~0.3 ms/MB, so ordinary text pays ~30 such scans):
- every pattern starts with a literal (so `re` skips ahead with its prefix
  scan), or is gated by a literal-led `hint` regex. Characters that belong
  to the secret but come before the literal (Stripe's `sk_`/`rk_`) are
  checked by a lookbehind and added back with `lead`. A class-led pattern
  (`[sr]k_…`) would instead try a match at every `s` and `r` of the text;
  a `str.__contains__` gate costs ~2x a regex literal scan;
- the "not preceded by a token character" guard is a lookbehind placed
  *after* the literal, so it does not defeat the prefix scan;
- bodies are single character classes with possessive quantifiers (`{n,}+`,
  Python 3.11), so a failed match never backtracks into them; nothing is
  nested.
Validators then reject low-entropy look-alikes (`sk-xxxxxxxx…`, docs keys).
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .values import char_classes, is_placeholder, shannon_entropy

# Priorities when spans overlap: a provider format names the secret better
# than the assignment it sits in (OPENAI_API_KEY=sk-… → openai_key).
PROVIDER = 30
CONTEXT = 20
GENERIC = 10


@dataclass(frozen=True)
class Rule:
    kind: str
    regex: re.Pattern[str]
    group: int = 0  # which group is the secret; 0 = whole match
    priority: int = PROVIDER
    validate: Callable[[str], bool] | None = None
    hint: re.Pattern[str] | None = None  # cheaper literal-led regex that must match first
    lead: int = 0  # characters before the match that belong to the secret
    # Every match holds an occurrence of `hint` that starts at most `reach`
    # characters after the match's start: the regex is then tried only there
    # (`hinted_matches`), not at every character of its first-character set.
    reach: int | None = None
    # Lower-case literals one of which every match holds, for rules whose own
    # literals are too short to gate them (`literals.gate_needles`): the
    # keyword pass then skips the rule, and its hint scan, on text without them.
    needles: tuple[str, ...] | None = None


def _random_body(min_entropy: float = 3.0) -> Callable[[str], bool]:
    def check(value: str) -> bool:
        return (
            not is_placeholder(value)
            and char_classes(value) >= 2
            and shannon_entropy(value) >= min_entropy
        )

    return check


def _tok(prefix: str, body: str) -> str:
    """`prefix` not glued to a preceding letter/digit, then `body`."""
    p = re.escape(prefix)
    return rf"{p}(?<![A-Za-z0-9]{p}){body}"


_T = "[A-Za-z0-9_-]"  # url-safe token alphabet
_B64 = "[A-Za-z0-9+/]"


def _rule(kind: str, pattern: str, validate: Callable[[str], bool] | None = None, group: int = 0,
          hint: str | None = None, lead: int = 0, reach: int | None = None,
          needles: tuple[str, ...] | None = None) -> Rule:
    hint_rx = re.compile(hint) if hint else None
    return Rule(kind, re.compile(pattern), group, PROVIDER, validate, hint_rx, lead, reach, needles)


def hinted_matches(rule: Rule, text: str) -> Iterator[re.Match[str]]:
    """What `rule.regex.finditer(text)` yields, for a rule with a `reach`.

    A match starting at `s` (at or after the scan position) holds a hint that
    starts in [s, s + reach]; so the first hint at or after the position, at
    `h`, leaves no match starting before `h - reach`, and the regex is tried
    (`match`, which sees the text before its position, as lookbehinds need)
    only at the starts from there to `h`. A class-led rule (`[0-9]…:AA…`)
    otherwise costs a match attempt at every digit of the text.
    """
    assert rule.hint is not None and rule.reach is not None
    hint, regex, reach = rule.hint, rule.regex, rule.reach
    pos = 0
    while (h := hint.search(text, pos)) is not None:
        at = h.start()
        for start in range(max(pos, at - reach), at + 1):
            m = regex.match(text, start)
            if m is not None:
                yield m
                pos = m.end() if m.end() > start else start + 1
                break
        else:
            pos = at + 1


def _openai_ok(value: str) -> bool:
    body = value[3:]
    return not body.startswith("ant-") and _random_body()(body)


_BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def github_checksum_ok(token: str) -> bool:
    """GitHub's (and npm's) token checksum: the last 6 characters are the base62
    CRC32 of the 30 random ones after the 4-character prefix (github.blog,
    2021-04-05, "Behind GitHub's new authentication token formats"; the same
    reading as CredSweeper's ValueGitHubCheck). 1 random string in 2**32 passes."""
    body = token[4:]
    if len(body) != 36 or not body.isascii() or not body.isalnum():
        return False
    n = 0
    for c in body[30:]:
        n = n * 62 + _BASE62.index(c)
    return n == zlib.crc32(body[:30].encode("ascii"))


def _github_ok(value: str) -> bool:
    """A valid checksum makes it a token whatever it looks like; without one (a
    typo, a test fixture, an older format) it must still look random."""
    return github_checksum_ok(value) or _random_body()(value)


def _hex_ok(value: str) -> bool:
    return len(set(value.lower())) >= 6


# Family hints: rules whose literals share a first character share one
# literal-led hint, so text without any of them pays one scan per family
# instead of one per rule. Each hint is implied by every member's pattern.
_SK = "sk-"
_A = r"A(?:Iza|KIA|SIA|BIA|CCA|GPA|IDA|ROA|IPA|NPA|NVA|PKA|C[0-9a-f])"
_G = r"G(?:OCSPX-|R1348941)"
_GH_GL = r"g(?:h[pousr]_|ithub_pat_|l(?:pat|dt|rt|ptt|cbt|oas|soat|ffct|imt|agent|ft)-)"
_X = r"x(?:ox[baprseo]-|app-)"
_S = r"S(?:K[0-9a-f]|G\.)"
_HOOKS = r"https://(?:hooks\.slack\.com/|(?:ptb\.|canary\.)?discord)"

PROVIDER_RULES: tuple[Rule, ...] = (
    _rule("anthropic_key", _tok("sk-ant-", _T + "{20,}+"), _random_body(), hint=_SK),
    _rule("openai_key", _tok("sk-", _T + "{20,}+"), _openai_ok, hint=_SK),
    _rule("google_api_key", _tok("AIza", _T + "{35}"), _random_body(), hint=_A),
    _rule("google_oauth_secret", _tok("GOCSPX-", _T + "{24,}+"), _random_body(), hint=_G),
    _rule(
        "aws_access_key_id",
        r"(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)"
        r"(?<![A-Za-z0-9]....)[A-Z2-7]{16}(?![A-Za-z0-9])",
        lambda v: not is_placeholder(v) and len(set(v[4:])) >= 6,
        hint=_A,
        reach=0,  # the hint starts with the match
    ),
    _rule(
        "azure_storage_key",  # AccountKey=, AccessKey=, SharedAccessKey=
        r"Key=(?:(?<=AccountKey=)|(?<=AccessKey=))(" + _B64 + r"{30,}+={0,2})",
        _random_body(),
        group=1,
    ),
    _rule(
        "azure_sas_signature",
        r"sig=(?<=[?&;]sig=)([A-Za-z0-9%+/=]{20,}+)",
        _random_body(),
        group=1,
    ),
    _rule("github_token", _tok("gh", "[pousr]_[A-Za-z0-9]{36,}+"), _github_ok, hint=_GH_GL,
          needles=tuple(f"gh{c}_" for c in "pousr")),
    _rule("github_token", _tok("github_pat_", "[A-Za-z0-9_]{40,}+"), _random_body(), hint=_GH_GL),
    _rule(
        "gitlab_token",
        _tok("gl", "(?:pat|dt|rt|ptt|cbt|oas|soat|ffct|imt|agent|ft)-" + _T + "{20,}+"),
        _random_body(),
        hint=_GH_GL,
        needles=tuple(f"gl{k}-" for k in "pat dt rt ptt cbt oas soat ffct imt agent ft".split()),
    ),
    _rule("gitlab_token", _tok("GR1348941", _T + "{20,}+"), _random_body(), hint=_G),
    _rule("slack_token", _tok("xox", "[baprseo]-[A-Za-z0-9-]{10,}+"), _random_body(2.5), hint=_X),
    _rule("slack_token", _tok("xapp-", "[A-Za-z0-9-]{20,}+"), _random_body(2.5), hint=_X),
    _rule(
        "slack_webhook",
        r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{20,}+",
        hint=_HOOKS,
        needles=("hooks.slack.com/",),
    ),
    _rule(
        "stripe_key",  # sk_live_/rk_test_…: scanned from "k_", the s/r is the lead
        r"k_(?:live|test)_(?<=[sr]k_...._)(?<![A-Za-z0-9].k_...._)[A-Za-z0-9]{16,}+",
        _random_body(),
        lead=1,
    ),
    _rule("stripe_key", _tok("whsec_", "[A-Za-z0-9]{24,}+"), _random_body()),
    _rule("twilio_api_key", _tok("SK", "[0-9a-f]{32}(?![0-9A-Za-z])"), _hex_ok, hint=_S,
          needles=tuple(f"sk{c}" for c in "0123456789abcdef")),
    _rule(
        "twilio_auth_token",
        r"AC(?<![A-Za-z0-9]AC)[0-9a-f]{32}:([0-9a-f]{32})(?![0-9A-Za-z])",
        _hex_ok,
        group=1,
        hint=_A,
        needles=tuple(f"ac{c}" for c in "0123456789abcdef"),
    ),
    _rule("sendgrid_key", _tok("SG.", _T + r"{16,32}+\." + _T + "{30,60}+"), _random_body(), hint=_S),
    _rule(
        "discord_webhook",
        r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]{5,30}+/" + _T + "{20,}+",
        hint=_HOOKS,
        needles=(".com/api/webhooks/",),
    ),
    _rule(
        "discord_token",
        r"[MNO](?<![A-Za-z0-9_-][MNO])[A-Za-z0-9_-]{23,27}+\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}+",
        _random_body(),
        hint=r"\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27}",  # literal-led, unlike the rule
        reach=28,  # [MNO] and 23-27 characters
    ),
    _rule(
        "telegram_bot_token",
        r"[0-9](?<![0-9][0-9])[0-9]{7,9}+:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])",
        hint=r":AA[A-Za-z0-9_-]{33}",
        reach=10,  # 8-10 digits
        needles=(":aa",),
    ),
    _rule("huggingface_token", _tok("hf_", "[A-Za-z0-9]{30,}+"), _random_body()),
    _rule("huggingface_token", _tok("api_org_", "[A-Za-z0-9]{30,}+"), _random_body()),
    _rule("npm_token", _tok("npm_", "[A-Za-z0-9]{36,}+"), _github_ok),
    _rule("pypi_token", _tok("pypi-AgE", _T + "{50,}+")),
    _rule("dockerhub_token", _tok("dckr_pat_", _T + "{20,}+"), _random_body()),
    _rule("digitalocean_token", _tok("do", "[opr]_v1_[a-f0-9]{64}"), _hex_ok,
          needles=("doo_v1_", "dop_v1_", "dor_v1_")),
    # Salesforce session/access token: the org id (00D + 12 or 15) then `!` and the session part.
    _rule("salesforce_token", _tok("00D", r"[A-Za-z0-9]{12,15}+![A-Za-z0-9._]{80,}+"), _random_body()),
    # Vault service token in its long (protobuf, "CAES…") form without the hvs. prefix.
    _rule("vault_token", _tok("s.CAES", _T + "{60,}+"), _random_body()),
    _rule(
        "jwt",
        _tok("eyJ", r"[A-Za-z0-9_-]{8,}+\.eyJ[A-Za-z0-9_-]{8,}+\.[A-Za-z0-9_-]*+"),
    ),
)
