"""Secret-named values in the code shapes detect-secrets' KeywordDetector names
and `context_rules.find_assignments` does not read.

From detect-secrets 1.5.0 (Yelp, Apache-2.0), `detect_secrets/plugins/
keyword.py`: its keyword list (api_?key, auth_?key, service_?key,
account_?key, db_?key, database_?key, priv_?key, private_?key, client_?key,
db_?pass, database_?pass, key_?pass, password, passwd, pwd, secret,
contraseña, contrasena) and the assignment shapes its regex comments list.
Only the shapes and words were taken; the patterns are ours (MIT). Measured
on tests/unit/security/data/source_derived_examples.json
(`bench/eval_source_derived.py`). The shapes:
- `"v" == password`, `'v' !== db_pass`: a literal compared to a secret's name;
- `char password[32] = "v"`, `password[] = "v"` (C), `= @"v"` (C#, Objective-C);
- `secret("v")`, `secret.assign("v", 17)` (C++ constructors);
- `private_key "v";` (a name, a space, a quoted value, a semicolon);
- `<password>v</password>` (XML elements);
- `client_key: v`, `db_key = "v"`, `contraseña: v`: names that the assignment
  rule takes for weak keys (or does not know), with a value that looks chosen.
Every regex starts at one of its needles (rare literals such as `password[`,
`@"`, `key>` or `" ==`), which the keyword pass finds and, where they are
sparse, locates (`anchor_positions.scan`): code full of `key` and `"` pays
no scan of its own for these shapes. Every body is bounded.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Set

from .anchor_positions import scan
from .secret_patterns import CONTEXT
from .values import is_code_reference, is_placeholder, looks_like_password

Candidate = tuple[int, int, str, int]
# Each takes (text, lowered, found=None); `...` so the registry's two-argument type accepts it.
Finder = Callable[..., Iterator[Candidate]]

_KEYWORD = re.compile(
    r"api_?key|auth_?key|service_?key|account_?key|db_?key|database_?key|priv_?key|private_?key|client_?key"
    r"|db_?pass|database_?pass|key_?pass|password|passwd|pwd|secret|contrase[ñn]a"
)
# Names that hold a keyword and no secret.
_NOT_SECRET = ("secretary", "bypass", "passage", "passport", "passwordless", "keyword")
# A last name part that makes the value metadata (`password_hint`, `secret_name`).
_METADATA = re.compile(
    r"_(?:id|ids|name|names|type|path|file|dir|url|uri|len|length|size|hint|label|field|format|prompt|policy"
    r"|version|count|min|max|hash|algorithm|header|prefix|env|var|mode|regex|pattern|placeholder)\Z"
)
_IDENT_BEFORE = re.compile(r"[A-Za-z_$][\w$]{0,80}\Z")
_SPACED_KEY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def kind_of(name: str) -> str | None:
    """The kind of secret an identifier names, if it names one (detect-secrets' keywords)."""
    low = _SPACED_KEY.sub("_", name).lower().replace("-", "_").strip("_$")
    if not low or any(w in low for w in _NOT_SECRET) or _METADATA.search(low):
        return None
    m = _KEYWORD.search(low.replace("__", "_"))
    if m is None:
        return None
    word = m.group()
    if "pass" in word or "pwd" in word or "contrase" in word:
        return "password"
    return "secret" if word == "secret" else "api_key"


_MARKERS = ("${", "{{", "$(")
_MARKER_RX = {m: re.compile(re.escape(m)) for m in _MARKERS}
_TEMPLATE = re.compile(
    r"\$\{\{[^{}\r\n]{0,200}+\}\}|\$\{[A-Za-z_][\w.:-]{0,100}+(?:[-=?+][^{}\s]{0,100}+)?\}"
    r"|\{\{[^{}\r\n]{0,200}+\}\}|\$\([^()\r\n]{0,200}+\)"
)

def broken_template(value: str) -> bool:
    """`value` holds `${`, `{{` or `$(` that no well-formed template accounts for."""
    rest = _TEMPLATE.sub("", value)
    return any(m in rest for m in _MARKERS)


def placeholder(value: str) -> bool:
    """`is_placeholder`, less the values it takes for templates only for a broken one."""
    if not is_placeholder(value):
        return False
    if broken_template(value):
        rest = _TEMPLATE.sub("", value)
        for m in _MARKERS:
            rest = rest.replace(m, "")
        return is_placeholder(rest)
    return True


# Used with fullmatch on short values; the look-behind keeps it linear under a search too
# (a try from inside a run of letters would re-read the run: quadratic on a long one).
_WORDS_ONLY = re.compile(r"(?<![A-Za-z])(?:[a-z]+(?:[_.:/-][a-z]+)+|[A-Z][A-Z_]*|[a-z]+[A-Z][A-Za-z]*)")


def looks_chosen(value: str) -> bool:
    """A literal that reads as a credential: one word, not a name, path, template or sentence."""
    if not 4 <= len(value) <= 200 or any(c.isspace() for c in value) or placeholder(value):
        return False
    low = value.lower()
    if "://" in value or value[0] in "/.~":
        return False
    if any(w in low for w in ("password", "secret", "token", "passwd")):
        return False  # a name or message about one (`"db-password"`), not the value
    return not _WORDS_ONLY.fullmatch(value)


def _ident_before(text: str, end: int) -> str:
    """The identifier that ends at `end`, if any ('' for a marker's kind: `[REDACTED:private_key]`)."""
    m = _IDENT_BEFORE.search(text, max(0, end - 81), end)
    if m is None or text[max(0, m.start() - 10) : m.start()].lower() == "[redacted:":
        return ""
    return m.group()


# The names each shape is written with (lower-case; the shapes take any other
# identifier holding a keyword only where a name precedes the needle).
_WORDS = ("password", "passwd", "pass", "pwd", "secret", "key", "contraseña", "contrasena")
_WORD_RX = "(?:password|passwd|pass|pwd|secret|key|contrase(?:ñ|n)a)"
_STRING = r"[^\"\r\n]{1,200}+"

# "v" == password / 'v' !== db_pass: tried at the closing quote.
_REVERSED_NEEDLES = tuple(q + sp + op for q in "\"'`" for sp in ("", " ") for op in ("==", "!="))
_REVERSED = re.compile(
    r"[\"'`][ \t]{0,8}+(?:===?|!==?)[ \t]{0,8}+([a-z_$][\w$.]{0,80}+)"
)


def find_reversed_comparisons(text: str, lowered: str, found: Set[str] | None = None) -> Iterator[Candidate]:
    for m in scan(_REVERSED, lowered, _REVERSED_NEEDLES, found):
        name = text[m.start(1) : m.end(1)].rsplit(".", 1)[-1]
        kind = kind_of(name)
        if kind is None:
            continue
        quote, end = text[m.start()], m.start()
        opening = text.rfind(quote, max(0, end - 201), end)
        value = text[opening + 1 : end]
        if opening >= 0 and looks_chosen(value) and quote not in value:
            yield opening + 1, end, kind, CONTEXT


# char password[32] = "v";  password[] = "v"
_ARRAY_NEEDLES = tuple(w + "[" for w in _WORDS)
_C_ARRAY = re.compile(_WORD_RX + r"\[[0-9]{0,6}+\][ \t]{0,8}+=[ \t]{0,8}+\"(" + _STRING + ")\"")
# NSString *password = @"v";  string apiKey = @"v";
_VERBATIM = re.compile("@\"(" + _STRING + ")\"")
# std::string secret("v");  secret.assign("v", 17);
_CALL_NEEDLES = (".assign(\"", *(w + "(\"" for w in _WORDS))
_CALL = re.compile(r"(?:\.assign|" + _WORD_RX + r")\(\"(" + _STRING + ")\"")
# private_key "v";
_SPACED_NEEDLES = tuple(w + " " + q for w in _WORDS for q in "\"'`")
_SPACED = re.compile(_WORD_RX + r"[ \t]{1,8}+([\"'`])([^\"'`\r\n]{1,200}+)\1;")


def find_c_family_literals(text: str, lowered: str, found: Set[str] | None = None) -> Iterator[Candidate]:
    for m in scan(_C_ARRAY, lowered, _ARRAY_NEEDLES, found):
        value = text[m.start(1) : m.end(1)]
        kind = kind_of(_ident_before(text, m.start() + m.group().index("[")))
        if kind is not None and looks_chosen(value):
            yield m.start(1), m.end(1), kind, CONTEXT
    for m in scan(_VERBATIM, lowered, ("@\"",), found):
        before = text[max(0, m.start() - 100) : m.start()].rstrip(" \t")
        if not before.endswith("=") or before.endswith(("==", "!=")):
            continue
        name_end = before[:-1].rstrip(" \t")
        kind = kind_of(_ident_before(name_end, len(name_end)))
        value = text[m.start(1) : m.end(1)]
        if kind is not None and looks_chosen(value):
            yield m.start(1), m.end(1), kind, CONTEXT
    for m in scan(_CALL, lowered, _CALL_NEEDLES, found):
        end = m.start() + m.group().index("(")
        if text[max(0, end - 7) : end] == ".assign":
            end -= 7
        name = _ident_before(text, end)
        kind = kind_of(name)
        value = text[m.start(1) : m.end(1)]
        # Only a constructor or setter named for the secret: `get_secret("name")` looks one up.
        if kind is not None and _KEYWORD.match(_SPACED_KEY.sub("_", name).lower()) and looks_chosen(value):
            yield m.start(1), m.end(1), kind, CONTEXT
    for m in scan(_SPACED, lowered, _SPACED_NEEDLES, found):
        at = m.start(1) - 1
        while text[at - 1] in " \t":
            at -= 1
        kind = kind_of(_ident_before(text, at))
        value = text[m.start(2) : m.end(2)]
        if kind is not None and looks_chosen(value):
            yield m.start(2), m.end(2), kind, CONTEXT


# <password>v</password>: tried at the name's end, the element's start checked back.
_XML_NEEDLES = tuple(w + ">" for w in _WORDS)
_XML = re.compile(_WORD_RX + r">([^<>\r\n]{1,300}+)</")


def find_xml_elements(text: str, lowered: str, found: Set[str] | None = None) -> Iterator[Candidate]:
    for m in scan(_XML, lowered, _XML_NEEDLES, found):
        name_end = m.start(1) - 1
        name = _TAG_BEFORE.search(lowered, max(0, name_end - 62), name_end)
        if name is None or not lowered.startswith(f"</{name.group(1)}>", m.end(1)):
            continue
        kind = kind_of(text[name.start(1) : name.end(1)].rsplit(":", 1)[-1].replace(".", "_"))
        start, end = m.span(1)
        value = text[start:end].strip()
        if kind is not None and looks_chosen(value):
            start = text.index(value, start)
            yield start, start + len(value), kind, CONTEXT


_TAG_BEFORE = re.compile(r"<([a-z][a-z0-9_.:-]{0,60}+)\Z")


# client_key: v / db_key = "v" / contraseña: v: names the assignment rule takes
# for weak keys (or does not know), tried where the keyword pass found them.
_WEAK = ("client", "service", "account", "database", "db")
_WEAK_NEEDLES = (*(w + sep + "key" for w in _WEAK for sep in ("", "_", "-")), "contraseña", "contrasena")
_VALUE = (r"[\"'\]]{0,2}+[ \t]{0,24}+(?::=|=>|=(?!=)|:(?![:/]))[ \t]{0,24}+"
          r"(?P<v>\"[^\"\r\n]{1,200}+\"|'[^'\r\n]{1,200}+'|[^\s\"',;(){}\[\]]{1,200}+(?![(\[]))")
_WEAK_ASSIGN = re.compile(r"(?P<w>(?:client|service|account|database|db)[_-]?key|contrase(?:ñ|n)a[a-z0-9_]{0,20}+)"
                          + _VALUE)


def find_keyword_assignments(text: str, lowered: str, found: Set[str] | None = None) -> Iterator[Candidate]:
    for m in scan(_WEAK_ASSIGN, lowered, _WEAK_NEEDLES, found):
        name = _ident_before(text, m.end("w"))
        kind = kind_of(name)
        if kind is None:
            continue
        start, end = m.span("v")
        raw = text[start:end]
        quoted = raw[0] in "\"'"
        value = raw[1:-1] if quoted else raw.rstrip(".")
        if quoted:
            start, end = start + 1, end - 1
        else:
            end = start + len(value)
        if not looks_chosen(value) or not looks_like_password(value) or not quoted and (
                is_code_reference(value, name) or "(" in value):
            continue
        yield start, end, kind, CONTEXT


# Symbol-rich values: keyword.py's value pattern takes "every character except
# line breaks and quotes", so generated passwords full of signs count. The shared
# placeholder test takes any `${`, `{{` or `$(` for a template; here a value
# whose such marker opens no well-formed template (`${NAME}`, `${A:-b}`,
# `{{ x }}`, `$(cmd)`) is a password that happens to hold one. Tried on the
# lines where the keyword pass located a marker.
_LINE_ASSIGN = re.compile(
    r"(?P<k>[A-Za-z_$][\w$.-]{0,80}+)(?:\[[0-9]{0,6}+\])?[\"'\]]{0,2}+[ \t]{0,24}+"
    r"(?P<sep>:=|=>|={1,3}|!==?|:)[ \t]{0,24}+@?"
    r"(?:(?P<q>[\"'`])(?P<qv>[^\"'`\r\n]{4,200}+)(?P=q)|(?P<v>[^\s\"'`]{4,200}+))"
)
_LINE_REVERSED = re.compile(
    r"(?P<q>[\"'`])(?P<qv>[^\"'`\r\n]{4,200}+)(?P=q)[ \t]{0,8}+(?:===?|!==?)[ \t]{0,8}+(?P<k>[A-Za-z_$][\w$.]{0,80}+)"
)


def find_symbol_rich_values(text: str, lowered: str, found: Set[str] | None = None) -> Iterator[Candidate]:
    seen: set[int] = set()
    for marker in _MARKERS:
        for hit in scan(_MARKER_RX[marker], lowered, (marker,), found):
            line_start = text.rfind("\n", max(0, hit.start() - 400), hit.start()) + 1
            if line_start in seen:
                continue
            seen.add(line_start)
            line_end = text.find("\n", hit.start(), hit.start() + 400)
            line = text[line_start : line_end if line_end >= 0 else min(len(text), hit.start() + 400)]
            for m in (*_LINE_ASSIGN.finditer(line), *_LINE_REVERSED.finditer(line)):
                group = "qv" if m.group("qv") is not None else "v"
                value = m.group(group).rstrip(";,") if group == "v" else m.group(group)
                kind = kind_of(m.group("k").rsplit(".", 1)[-1])
                if kind is None or not broken_template(value) or placeholder(value):
                    continue
                start = line_start + m.start(group)
                yield start, start + len(value), kind, CONTEXT


# Each finder's needles: the keyword pass gates it on them, and the sparse pass
# locates them (`LOCATED`) so its regexes are tried only there.
FINDERS: dict[Finder, tuple[tuple[str, ...], ...] | None] = {
    find_reversed_comparisons: (_REVERSED_NEEDLES,),
    find_c_family_literals: ((*_ARRAY_NEEDLES, "@\"", *_CALL_NEEDLES, *_SPACED_NEEDLES),),
    find_xml_elements: (_XML_NEEDLES,),
    find_keyword_assignments: (_WEAK_NEEDLES,),
    find_symbol_rich_values: (_MARKERS, ("pass", "pwd", "secret", "key", "contrase")),
}
LOCATED = frozenset((*_REVERSED_NEEDLES, *_ARRAY_NEEDLES, "@\"", *_CALL_NEEDLES, *_SPACED_NEEDLES, *_XML_NEEDLES,
                     *_WEAK_NEEDLES, *_MARKERS))
