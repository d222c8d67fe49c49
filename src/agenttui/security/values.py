"""Judging a candidate value: placeholder, code reference, or random-looking.

Detection rules find *where* a secret could be; these helpers decide whether
the thing found is a real credential. Keeping them separate lets every rule
share one definition of "placeholder" (so `YOUR_API_KEY`, `${TOKEN}`, `<token>`,
`***`, `changeme` and already-redacted `[REDACTED:x]` are left alone
everywhere, which also makes redaction idempotent).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

_QUOTES = "\"'`"
_QUOTES_AND_SEPARATORS = _QUOTES + ",;"

# Whole-value placeholders (compared case-insensitively after stripping quotes).
_PLACEHOLDER_WORDS = frozenset(
    """
    changeme change_me change-me changeit password passwd pass secret token
    apikey api_key api-key key placeholder example sample dummy redacted
    none null nil undefined true false yes no str string int bool bytes any
    required optional todo tbd fixme n/a na empty blank default value
    foo bar baz foobar test xxx xxxx tbd hidden masked omitted removed
    your_password yourpassword mypassword my_password secret123 password123
    """.split()
    # the dummy keys local servers' docs tell clients to send (Ollama "ollama", LM Studio
    # "lm-studio", llama.cpp "sk-no-key-required", vLLM "EMPTY" or any word)
    + "ollama vllm lm-studio lmstudio sk-no-key-required no-key not-needed".split()
    # English function words: "--api-key you gave vllm", "token: the one ..." are prose
    + """
    you your yours the a an it its this that these those here there is are was be to of
    in on at by for from with and or as if then than when where which who what
    """.split()
)

# Substrings that mark documentation / templated values.
_PLACEHOLDER_MARKERS = (
    "...",
    "\u2026",
    "your_",
    "your-",
    "yourapi",
    "example",
    "placeholder",
    "changeme",
    "change_me",
    "replace_me",
    "replace-me",
    "insert_",
    "redacted",
    "{{",
    "${",
    "$(",
)

# One search instead of a Python loop of `in` tests: this runs on every
# candidate value, thousands of times per MB of code.
_MARKER_RX = re.compile("|".join(map(re.escape, _PLACEHOLDER_MARKERS)))
_SYMBOLS = "-_. :/"
_FORMAT_FIELD = re.compile(r"[0-9]{0,2}|[A-Za-z_.]{1,60}")

# References to a value held elsewhere (env vars, config lookups, templating).
_REFERENCE = re.compile(
    r"""
    \$[A-Za-z_][A-Za-z0-9_]{0,100}              # $VAR
    | %[A-Za-z_][A-Za-z0-9_]{0,100}%            # %VAR%
    | (?:os\.)?(?:environ|getenv)\b             # os.environ / os.getenv
    | process\.env\b
    | ENV\[
    | secrets\.[A-Za-z_]
    | vault:
    | !vault
    | @keyring\b                                # agenttui's own: read from the OS keyring
    """,
    re.VERBOSE,
)

# "<your key>", "<api token>" cut at its space, as a rule's value stops there: a slot to fill.
_OPEN_SLOT = re.compile(r"<[A-Za-z_-]{1,40}")
# A file named in prose or docs ("secrets: `security/transformed.py`"): a path with a source
# or config extension, not a credential (a key's slashes come without a dotted extension).
_FILE_PATH = re.compile(
    r"(?:[\w.-]{1,60}/){1,12}[\w-]{1,60}\."
    r"(?:py|pyi|js|mjs|ts|tsx|jsx|go|rs|rb|php|java|kt|c|h|cc|cpp|hpp|cs|swift|sh|md|rst|txt"
    r"|json|ya?ml|toml|ini|cfg|conf|xml|html|css|csv|log|sql|lock)"
)
_TWO_ALNUM = re.compile(r"[^\W_][\W_]*[^\W_]")  # two letters or digits, whatever between

# Code that names a value rather than spelling it: self.password,
# config.api_key, get_token(), args["password"].
_CODE_REF = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,60}(?:\.[A-Za-z_][A-Za-z0-9_]{0,60}){1,8}")


def strip_quotes(value: str) -> str:
    value = value.strip()
    while len(value) >= 2 and value[0] in _QUOTES and value[-1] == value[0]:
        value = value[1:-1].strip()
    return value.strip(_QUOTES_AND_SEPARATORS)


# Cached: on secret-dense text the same value is judged by several rules (a
# token matched by gitleaks', Nosey Parker's and Kingfisher's rule for it).
@lru_cache(maxsize=8192)
def is_placeholder(value: str) -> bool:
    """True for values that are obviously not real secrets."""
    return _placeholder(value, words=True)


@lru_cache(maxsize=1024)
def is_template(value: str) -> bool:
    """`is_placeholder` less its words (`secret`, `password`, `changeme`): for a slot that
    only ever holds a credential, where such a word is the credential as typed."""
    return _placeholder(value, words=False)


def _placeholder(value: str, words: bool) -> bool:
    v = strip_quotes(value)
    if not v:
        return True
    low = v.lower()
    if (words and low in _PLACEHOLDER_WORDS) or low.startswith("[redacted"):
        return True
    if _MARKER_RX.search(low):
        return True
    if v[0] == "<" and (v[-1] == ">" or _OPEN_SLOT.fullmatch(v)):  # <token>, <your key here>
        return True
    if not _TWO_ALNUM.search(v):  # "-p P`)": one letter or digit is no credential
        return True
    if _FILE_PATH.fullmatch(v):
        return True
    if v[0] == "{" and v[-1] == "}" and _FORMAT_FIELD.fullmatch(v[1:-1]):
        return True  # "{}", "{0}", "{ENCODED_PASSWORD}": a format field, not "{ZqL5kVrX1n8}"
    if _REFERENCE.match(v):
        return True
    # "xxxx", "****", "0000-0000", "XXXX-XXXX": one repeated symbol.
    if _one_character_but_separators(low):
        return True
    # AWS documentation keys (AKIAIOSFODNN7EXAMPLE) end with EXAMPLE.
    return v.endswith(("EXAMPLE", "EXAMPLEKEY"))


def _one_character_but_separators(value: str) -> bool:
    """Whether `value` holds at most one character other than `_SYMBOLS`: the same as
    `len(set(value) - set(_SYMBOLS)) <= 1`, in three C passes (strip, replace, strip)
    instead of a set of every character (~1.4 µs for a 40-character token, on every
    value the generated rules judge). Stripped of separators at both ends, the value
    starts with its first other character; with every copy of it gone, separators
    alone strip to nothing."""
    rest = value.strip(_SYMBOLS)
    return not rest or not rest.replace(rest[0], "").strip(_SYMBOLS)


# Expression starters: `token = await get()`, `key = new Key()`.
_CODE_KEYWORDS = frozenset(
    "await new lambda function async yield require typeof not self this cls None True False null undefined nil".split()
)


_IDENTIFIER = re.compile(r"[a-z_][a-z0-9_]*")  # compiled once: `re.fullmatch` looked it up per call


def is_code_reference(value: str, key: str = "") -> bool:
    """True when an unquoted value is an expression, not a literal.

    `password=password`, `token=get_token()`, `key=self.api_key`,
    `secret=args["secret"]`: these name a secret held elsewhere.
    """
    v = value.strip()
    if v in _CODE_KEYWORDS or "(" in v or "[" in v:
        return True
    if "." in v and _CODE_REF.fullmatch(v):  # (every match holds a dot: a token is tried for none)
        return True
    # Identifier that repeats the key (password=password, token=access_token). The
    # comparisons first: a token value is an identifier too ([a-z0-9_]), and on
    # secret-dense text the regex was most of this check's cost.
    if key:
        lowered = v.lower()
        k = key.lower().strip(_QUOTES)
        if (lowered == k or lowered.endswith(k) or k.endswith(lowered)) and _IDENTIFIER.fullmatch(lowered):
            return True
    return False


@lru_cache(maxsize=8192)
def shannon_entropy(value: str) -> float:
    """Bits per character of `value`."""
    if not value:
        return 0.0
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in char_counts(value))


def char_counts(value: str) -> Iterable[int]:
    """How often each distinct character occurs. `str.count` per distinct character (C
    scans of a short string) is faster than a Counter; on a long value it would cost
    length × distinct characters, so a Counter counts those (linear time)."""
    return map(value.count, set(value)) if len(value) <= 256 else Counter(value).values()


# ASCII characters by class (what `islower`, `isupper`, `isdigit`, `not isalnum`
# say of them): one C pass and a set, where the generators below cost a Python
# step per character (hot on secret-dense text).
ASCII_CLASS = str.maketrans(
    {
        chr(c): "l" if chr(c).islower() else "u" if chr(c).isupper() else "d" if chr(c).isdigit() else "o"
        for c in range(128)
    }
)


# The same as a bytes table, for `value.encode("ascii").translate(...)`: a C table
# look-up per character, where `str.translate` with the dict above costs ~5x more.
ASCII_CLASS_BYTES = bytes(ord(ASCII_CLASS[c]) for c in range(128)) + b"o" * 128


def ascii_classes(value: str) -> bytes:
    """`value` (ASCII) with each character as b"l", b"u", b"d" or b"o" (`ASCII_CLASS`)."""
    return value.encode("ascii").translate(ASCII_CLASS_BYTES)


def char_classes(value: str) -> int:
    if value.isascii():
        classes = ascii_classes(value)
        return (b"l" in classes) + (b"u" in classes) + (b"d" in classes) + (b"o" in classes)
    return (
        any(c.islower() for c in value)
        + any(c.isupper() for c in value)
        + any(c.isdigit() for c in value)
        + any(not c.isalnum() for c in value)
    )


def looks_random(value: str, min_len: int = 16) -> bool:
    """Heuristic for generated credentials (high entropy, mixed classes)."""
    v = strip_quotes(value)
    if len(v) < min_len or is_placeholder(v):
        return False
    if char_classes(v) < 2:
        # Pure hex/lowercase strings can still be keys; demand more length.
        return len(v) >= 32 and shannon_entropy(v) >= 3.5
    return shannon_entropy(v) >= 3.0


def looks_like_password(value: str) -> bool:
    """For `password: X` / `password is X` in prose: X must look chosen, not a word.

    A plain lowercase word after a colon is usually prose ("Reset password:
    click the link"); a value with digits, symbols or mixed case is not.
    """
    v = strip_quotes(value).rstrip(".,;:!?)")
    if len(v) < 4 or is_placeholder(v):
        return False
    if v.isalpha() and (v.istitle() or v.islower() or v.isupper()):
        return len(v) >= 20  # "credentials: Cookies, …": a word, not a password
    return char_classes(v) >= 2 or len(v) >= 20


_KEYPAD_CODE = re.compile(r"[0-9]{4,12}#?")
# A phone number (1-800-991-9019, 800/711-8000) or the words that introduce one.
_DIAL_IN = re.compile(r"call-in|dial-in|call in|dial in|conference|bridge|[0-9]{3}[-/.][0-9]{3}[-.][0-9]{4}")


def is_dial_in_code(text: str, key_start: int, value: str) -> bool:
    """`Passcode: 4153030` under a dial-in number: a conference call's access code,
    typed on a phone keypad and sent to every invitee with the number."""
    return (
        bool(_KEYPAD_CODE.fullmatch(value))
        and _DIAL_IN.search(text[max(0, key_start - 160) : key_start].lower()) is not None
    )
