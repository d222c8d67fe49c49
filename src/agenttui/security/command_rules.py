"""agenttui's own rules for command lines and config shapes gitleaks misses.

- `mysql -pSECRET` / `mysql -p SECRET` (also mariadb, mysqldump, mysqladmin):
  glued, `-p` always carries the password. Spaced, MySQL would read the next
  word as a database name and prompt; it is redacted only when it looks
  chosen (a digit and a letter, or a symbol), so `mysql -p shop` stays.
- `sshpass -p SECRET` (always the password), `docker|podman|nerdctl|buildah|
  skopeo|helm registry|oras login … -p SECRET`;
- Kubernetes `kind: Secret` manifests (YAML or JSON): every value under
  `data:`/`stringData:`, keys kept (gitleaks' rule takes only the first);
- .NET/NuGet XML `<add key="NAME" value="VALUE" />`: the value, when NAME
  is secret-bearing (`ClearTextPassword`, `ApiKey`, …), never NAME itself;
- Tableau personal access token secrets (`<22 base64>==:<32 alnum>`).
All regexes are literal-led or gated by a rare literal, and bounded.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Set

from .anchor_positions import scan
from .anchored import AnchoredPattern
from .secret_patterns import CONTEXT, PROVIDER
from .values import is_placeholder, strip_quotes

Candidate = tuple[int, int, str, int]

_VALUE = r"""(?:'[^'\n]{1,256}+'|"[^"\n]{1,256}+"|[^\s'"|;&]{1,256}+)"""
# One literal-led regex per program name (`anchored`): an alternation would
# try a match at every letter that starts one of the names.
_MYSQL = AnchoredPattern(
    {"mysql": "", "mariadb": ""},
    r"(?:-?dump|-?admin|-?import|-?check)?(?![\w.-])"
    r"[^\n|;&]{0,300}?[ \t]-p(?:(?P<glued>" + _VALUE + r")|[ \t]{1,4}+(?P<spaced>[^\s\-'\"][^\s]{0,255}+|'[^'\n]{1,256}+'|\"[^\"\n]{1,256}+\"))",
)
_SSHPASS = re.compile(r"sshpass(?:[ \t]{1,4}+-[a-oq-zA-Z][^\s]{0,100}+)*+[ \t]{1,4}+-p[ \t]{0,4}+(?P<value>" + _VALUE + ")")
_LOGIN = AnchoredPattern(
    {"docker": "", "podman": "", "nerdctl": "", "buildah": "", "skopeo": "", "helm": r"[ \t]{1,4}+registry", "oras": ""},
    r"[ \t]{1,4}+login(?![\w-])[^\n|;&]{0,300}?[ \t]-p(?:[ \t]{1,4}+|=)?(?P<value>(?!-)" + _VALUE + ")",
)


def _chosen(value: str) -> bool:
    """A spaced `-p VALUE` that is a password rather than a database name."""
    v = strip_quotes(value)
    has_digit = any(c.isdigit() for c in v)
    has_alpha = any(c.isalpha() for c in v)
    symbol = any(not c.isalnum() and c not in "_.-" for c in v)
    return len(v) >= 6 and (has_digit and has_alpha or symbol) and not is_placeholder(v)


def _unquoted(text: str, start: int, end: int) -> tuple[int, int]:
    if end - start >= 2 and text[start] in "'\"" and text[end - 1] == text[start]:
        return start + 1, end - 1
    return start, end


def find_mysql_passwords(text: str, lowered: str, present: Set[str] | None = None) -> Iterator[Candidate]:
    """`present`: the program names that occur in `lowered`, if known (a name in
    `text` is in `lowered`): the others are not scanned for."""
    for m in _MYSQL.finditer(text, present):
        if m.group("glued") is not None:
            start, end = _unquoted(text, *m.span("glued"))
        else:
            if not _chosen(m.group("spaced")):
                continue
            start, end = _unquoted(text, *m.span("spaced"))
        if not is_placeholder(text[start:end]):
            yield start, end, "password", CONTEXT


def find_sshpass_passwords(text: str, lowered: str, present: Set[str] | None = None) -> Iterator[Candidate]:
    """`present`: the keyword pass's needles, if known (with "sshpass"'s starts, if located)."""
    yield from _flag_values(scan(_SSHPASS, text, ("sshpass",), present), text)


def find_login_passwords(text: str, lowered: str, present: Set[str] | None = None) -> Iterator[Candidate]:
    """`present`: the program names that occur in `lowered`, if known."""
    yield from _flag_values(_LOGIN.finditer(lowered, present), text)  # values read from `text`


def _flag_values(matches: Iterator[re.Match[str]], text: str) -> Iterator[Candidate]:
    for m in matches:
        start, end = _unquoted(text, *m.span("value"))
        value = text[start:end]
        if not is_placeholder(value) and not value.startswith("$"):
            yield start, end, "password", CONTEXT


def find_cli_passwords(text: str, lowered: str) -> Iterator[Candidate]:
    """All three command-line finders (the redactor runs them separately, gated)."""
    for finder in (find_mysql_passwords, find_sshpass_passwords, find_login_passwords):
        yield from finder(text, lowered)


# --- Kubernetes Secret manifests -------------------------------------------------

_K8S_KIND = re.compile(r"""kind["']?[ \t]*:[ \t]*["']?secret(?![\w-])""")  # on the lowered view
_YAML_DATA = re.compile(r"^(?P<indent>[ \t]*)(?:data|stringData)[ \t]*:[ \t]*(?:#[^\n]*)?$", re.M)
_YAML_ENTRY = re.compile(r"^(?P<indent>[ \t]+)(?P<key>[\w.-]{1,253}+)[ \t]*:[ \t]*(?P<value>[^\n]*)$", re.M)
_JSON_DATA = re.compile(r""""(?:data|stringData)"[ \t\r\n]*:[ \t\r\n]*\{""")
_JSON_ENTRY = re.compile(r""""[\w.-]{1,253}+"[ \t\r\n]*:[ \t\r\n]*"(?P<value>[^"\\]{0,100000}+(?:\\.[^"\\]{0,100000}+){0,1000}+)"[ \t\r\n]*(?P<next>[,}])""")


_DOC_REACH = 20_000  # a manifest is small; bounds the work per `kind: Secret`


def _document(text: str, pos: int) -> tuple[int, int]:
    """The YAML document (between `---` lines) around `pos`, at most 20 KB each way."""
    lo = text.rfind("\n---", max(0, pos - _DOC_REACH), pos)
    hi = text.find("\n---", pos, pos + _DOC_REACH)
    return (max(0, pos - _DOC_REACH) if lo < 0 else lo + 4), (min(len(text), pos + _DOC_REACH) if hi < 0 else hi)


def find_kubernetes_secret_values(text: str, lowered: str, present: Set[str] | None = None) -> Iterator[Candidate]:
    """`present`: the keyword pass's needles, if known (with "kind"'s starts, if located)."""
    done = -1
    for kind in scan(_K8S_KIND, lowered, ("kind",), present):
        lo, hi = _document(text, kind.start())
        if lo < done:
            continue
        done = hi
        yield from _yaml_data_values(text, lo, hi)
        yield from _json_data_values(text, lo, hi)


def _yaml_data_values(text: str, lo: int, hi: int) -> Iterator[Candidate]:
    for block in _YAML_DATA.finditer(text, lo, hi):
        indent = len(block.group("indent"))
        pos = block.end() + 1
        child_indent = None
        while pos < hi:
            m = _YAML_ENTRY.match(text, pos, hi)
            if not m or len(m.group("indent")) <= indent:
                break
            if child_indent is None:
                child_indent = len(m.group("indent"))
            if len(m.group("indent")) != child_indent:
                break
            vstart, vend = m.span("value")
            raw = text[vstart:vend].rstrip()
            vend = vstart + len(raw)
            pos = m.end() + 1
            if raw in ("|", "|-", "|+", ">", ">-", ">+"):  # block scalar: the indented lines below
                bstart = pos
                while pos < hi:
                    nl = text.find("\n", pos, hi)
                    line_end = hi if nl < 0 else nl
                    line = text[pos:line_end]
                    if line.strip() and len(line) - len(line.lstrip(" \t")) <= child_indent:
                        break
                    pos = line_end + 1
                if pos - 1 > bstart:
                    yield bstart, min(pos - 1, hi), "kubernetes_secret", CONTEXT
                continue
            start, end = _unquoted(text, vstart, vend)
            if end > start and not is_placeholder(text[start:end]):
                yield start, end, "kubernetes_secret", CONTEXT


def _json_data_values(text: str, lo: int, hi: int) -> Iterator[Candidate]:
    for block in _JSON_DATA.finditer(text, lo, hi):
        pos = block.end()
        while True:
            m = _JSON_ENTRY.search(text, pos, hi)
            if not m or text[pos : m.start()].strip(" \t\r\n,"):
                break
            start, end = m.span("value")
            if end > start and not is_placeholder(text[start:end]):
                yield start, end, "kubernetes_secret", CONTEXT
            if m.group("next") == "}":
                break
            pos = m.end()


# --- XML <add key="…" value="…" /> ----------------------------------------------

_XML_ADD = re.compile(
    r"""<add[ \t\r\n]{1,20}+key[ \t]*=[ \t]*(?P<q>["'])(?P<key>[^"'\n<>]{1,100}+)(?P=q)[ \t\r\n]{1,20}+"""
    r"""value[ \t]*=[ \t]*(?P<q2>["'])(?P<value>[^"'\n<>]{1,1000}+)(?P=q2)""",
    re.IGNORECASE,
)
_XML_SECRET_KEY = re.compile(r"pass|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credential|connectionstring", re.I)


def find_xml_key_values(text: str, lowered: str, present: Set[str] | None = None) -> Iterator[Candidate]:
    """`present`: the keyword pass's needles, if known (with "<add"'s starts, if located)."""
    if "<add" not in (lowered if present is None else present):
        return
    for m in scan(_XML_ADD, text, ("<add",), present):
        if _XML_SECRET_KEY.search(m.group("key")) and not is_placeholder(m.group("value")):
            if m.group("value").startswith("%") and m.group("value").endswith("%"):
                continue  # %ENV_VAR%
            yield *m.span("value"), "password" if "pass" in m.group("key").lower() else "secret", CONTEXT


# --- Tableau personal access token secret -------------------------------------------

_TABLEAU = re.compile(r"==:(?<=(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{22}==:)[A-Za-z0-9]{32}(?![A-Za-z0-9])")


def find_tableau_secrets(text: str, lowered: str) -> Iterator[Candidate]:
    for m in _TABLEAU.finditer(text):
        start = m.start() - 22
        value = text[start : m.end()]
        if len(set(value)) >= 12:
            yield start, m.end(), "tableau_token", PROVIDER


COMMAND_FINDERS = (
    find_mysql_passwords,
    find_sshpass_passwords,
    find_login_passwords,
    find_kubernetes_secret_values,
    find_xml_key_values,
    find_tableau_secrets,
)
