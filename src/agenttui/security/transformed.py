"""Secrets in tool output that a command transformed.

`rev .env`, `xxd .env` or `base64 .env` print a secret in a shape no rule
matches. Two defences, both for the output of commands the agent ran:

1. **Credential files read through anything but a plain reader are withheld.**
   When the command names a credential file (`.env*`, `id_rsa`, `*.pem`,
   `*.key`, `.npmrc`, `.pypirc`, `.netrc`, `.pgpass`, `.git-credentials`,
   AWS `credentials`, kubeconfig, `*.tfvars`, `terraform.tfstate`, …) and
   any program in it is not a known reader that prints lines unchanged
   (`cat`, `head`, `grep`, `sort`, `diff`, …: their output is redacted as
   usual, keys visible, values not), the whole output is replaced by a notice.
   A transformation we cannot undo (`tr`, `openssl enc`, a script) cannot be
   redacted, so it is not shown.
2. **Encoded and reversed text is decoded and scanned**, whatever the command
   (the file name may be hidden: `cat $(echo LmVudg== | base64 -d)`): hex
   dumps (`xxd`, `hexdump -C`, `od -t x1`, `od -c`, `xxd -p`), base64 runs
   (also wrapped over lines) and the text reversed (`rev`). A run whose
   decoded form holds a secret is redacted whole (every column of a dump);
   a secret found in the reversed text is redacted where it stands.
Both cost a few linear passes and run only on tool output, not on every
saved message.
"""

from __future__ import annotations

import base64
import binascii
import re
import shlex
from collections.abc import Iterator, Sequence
from typing import Any

from .redaction import find_secrets, redact_secrets

# --- 1. credential files ------------------------------------------------------------

_CREDENTIAL_FILE = re.compile(
    r"""(?:^|[\s/'"=<>:(`])(?:
        \.env(?:\.[\w.-]+)?                      # .env, .env.local, .env.production
      | [\w.-]*\.env                             # prod.env
      | id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?     # ssh private keys (not .pub)
      | [\w.-]+\.(?:pem|key|p12|pfx|jks|keystore|kdbx|tfvars|tfstate|ovpn|gpg|asc)
      | \.(?:npmrc|pypirc|netrc|pgpass|git-credentials|dockercfg|boto|s3cfg|htpasswd|my\.cnf|vault-token)
      | _netrc
      | credentials(?:\.json|\.csv)?             # ~/.aws/credentials, gcloud
      | (?:\.kube/)?config(?=\s|$)(?<=kube/config)
      | kubeconfig[\w.-]*
      | secrets?\.(?:ya?ml|json|toml|env|txt)
      | service[-_]account[\w.-]*\.json
      | wp-config\.php
      | shadow
    )(?![\w.-]*\.pub\b)(?=$|[\s'"|;&)<>`:])""",
    re.VERBOSE | re.IGNORECASE,
)
# Programs that print the lines of what they read unchanged, or only metadata.
PLAIN_READERS = frozenset(
    """
    cat head tail less more grep egrep fgrep rg ag ack nl sort uniq wc bat batcat tac
    diff cmp comm ls stat file test [ git find du sha1sum sha256sum sha512sum md5sum
    shasum b2sum cksum chmod chown touch cp mv rm mkdir echo printf true false cd pwd
    dirname basename realpath readlink column
    """.split()
)
# Programs that use a credential file without printing it (their output is
# redacted as usual): `ssh -i id_rsa host uptime`, `kubectl --kubeconfig …`.
CONSUMERS = frozenset(
    """
    ssh scp sftp rsync ssh-add ssh-keygen kubectl helm aws gcloud az terraform tofu npm pnpm
    yarn pip pip3 twine psql pg_dump docker podman curl wget gpg-agent
    """.split()
)
_ONLY_MATCHING = frozenset("grep egrep fgrep rg ag ack".split())
_WRAPPERS = frozenset("sudo doas command builtin exec nice nohup time timeout xargs".split())
_ARG_OPTIONS = frozenset("-u -g -n -U -C -D -h -p -r -t -s -k -I -L -P -d --user --group".split())
_SPLIT = re.compile(r"\|\|?|&&|;|\$\(|`|\n|\(|\)")


def _simple_commands(command: str) -> Iterator[list[str]]:
    for part in _SPLIT.split(command):
        try:
            words = shlex.split(part, comments=True)
        except ValueError:
            words = part.split()
        while words and ("=" in words[0] and not words[0].startswith("=") or words[0] in _WRAPPERS):
            words = words[1:]
            while words and words[0].startswith("-"):  # sudo -u x, nice -n 5
                words = words[2:] if words[0] in _ARG_OPTIONS else words[1:]
            if words and words[0][:1].isdigit():  # timeout 5s
                words = words[1:]
        if words:
            yield [words[0].rsplit("/", 1)[-1], *words[1:]]


def programs(command: str) -> list[str]:
    """The program name of each simple command in a shell command line."""
    return [words[0] for words in _simple_commands(command)]


def _prints_unchanged(words: list[str]) -> bool:
    name = words[0]
    if name in CONSUMERS:
        return True
    if name not in PLAIN_READERS:
        return False
    if name in _ONLY_MATCHING:  # `grep -o '=.*' .env` prints bare values
        return not any(
            w == "--only-matching" or (w.startswith("-") and not w.startswith("--") and "o" in w[1:])
            for w in words[1:]
        )
    return True


def reads_credential_file(command: str) -> str | None:
    """The credential file named in `command`, if any."""
    m = _CREDENTIAL_FILE.search(command)
    return m.group().strip(" \t/'\"=<>:(`") if m else None


def withheld_reason(command: str) -> str | None:
    """Why the output of `command` must not be shown, or None."""
    path = reads_credential_file(command)
    if not path:
        return None
    others = sorted({w[0] for w in _simple_commands(command) if not _prints_unchanged(w)})
    if not others:
        return None
    return (
        f"[REDACTED:credential_file_output] output withheld: the command reads a credential file "
        f"({path}) through {', '.join(others)}, which may transform it past redaction"
    )


# --- 2. decoded views -----------------------------------------------------------------

# xxd: "00000010: 6b2d 7072 …  k-proj-…"; hexdump -C: "00000010  6b 2d 70 … |k-proj|";
# od -A x -t x1z: "000010 6b 2d … >…<". Offset, then groups of 2–8 hex digits.
_DUMP_LINE = re.compile(
    r"^[ \t]*[0-9a-fA-F]{4,16}:?(?P<hex>(?:[ \t]{1,3}[0-9a-fA-F]{2}(?:[0-9a-fA-F]{2}){0,3}){1,32})(?P<rest>[^\n]*)$",
    re.M,
)
# od -c: "0000020   k   -   p   r …" (characters or escapes in 4-wide columns)
_OD_C_LINE = re.compile(r"^[0-7]{7}(?P<chars>(?:[ \t]{1,4}(?:\\[0-7]{3}|\\.|\S)){1,32})[ \t]*$", re.M)
_HEX_LINES = re.compile(r"(?:^[0-9a-fA-F]{16,}+\r?$\n?)++", re.M)  # xxd -p / plain hex
# Only at the start of a run (the lookbehind), and possessive: a run is read
# once, never again from each of its characters.
_B64_BLOCK = re.compile(
    r"(?<![A-Za-z0-9+/_-])(?:(?:[A-Za-z0-9+/]{16,}+={0,2}+(?:\r?\n|$)){1,10000}+|[A-Za-z0-9+/_-]{20,}+={0,2}+)"
)
_OD_ESCAPES = {"\\n": "\n", "\\t": "\t", "\\r": "\r", "\\0": "\0", "\\\\": "\\"}


def _dump_blocks(text: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, decoded) of each run of consecutive hex-dump or od -c lines."""
    for rx, decode in ((_DUMP_LINE, _hex_line), (_OD_C_LINE, _od_c_line)):
        start = end = -1
        parts: list[str] = []
        for m in rx.finditer(text):
            if m.start() > end + 1 and parts:
                yield start, end, "".join(parts)
                parts = []
            if not parts:
                start = m.start()
            end = m.end()
            parts.append(decode(m))
        if parts:
            yield start, end, "".join(parts)


def _hex_line(m: re.Match[str]) -> str:
    raw = bytes.fromhex("".join(m.group("hex").split()))
    return raw.decode("latin-1")


def _od_c_line(m: re.Match[str]) -> str:
    out = []
    for tok in m.group("chars").split():
        if tok.startswith("\\") and len(tok) == 4 and tok[1:].isdigit():
            out.append(chr(int(tok[1:], 8)))
        else:
            out.append(_OD_ESCAPES.get(tok, tok[-1]))
    return "".join(out)


def _hex_runs(text: str) -> Iterator[tuple[int, int, str]]:
    for m in _HEX_LINES.finditer(text):
        digits = "".join(m.group().split())
        if len(digits) % 2:
            digits = digits[:-1]
        yield m.start(), m.end(), bytes.fromhex(digits).decode("latin-1")


def _b64_runs(text: str) -> Iterator[tuple[int, int, str]]:
    for m in _B64_BLOCK.finditer(text):
        run = "".join(m.group().split())
        if run.isalpha() or run.isdigit():
            continue
        core = run.rstrip("=")
        alt = b"-_" if ("-" in core or "_" in core) else None
        try:
            data = base64.b64decode(core + "=" * (-len(core) % 4), altchars=alt, validate=True)
        except (binascii.Error, ValueError):
            continue
        yield m.start(), m.end(), data.decode("utf-8", "replace")


def _encoded_spans(text: str, extra: Sequence[str]) -> list[tuple[int, int]]:
    spans = []
    for finder in (_dump_blocks, _hex_runs, _b64_runs):
        for start, end, decoded in finder(text):
            if find_secrets(decoded, extra):
                spans.append((start, end))
    return spans


def _reversed_spans(text: str, extra: Sequence[str]) -> list[tuple[int, int, str]]:
    n = len(text)
    return [(n - m.end, n - m.start, m.kind) for m in find_secrets(text[::-1], extra)]


def redact_tool_output(command: str, output: str, extra_patterns: Sequence[str] = ()) -> str:
    """`output` of shell `command`, safe to show the model and to store."""
    reason = withheld_reason(command)
    if reason:
        return reason
    spans: list[tuple[int, int, str]] = [(s, e, "encoded_secret") for s, e in _encoded_spans(output, extra_patterns)]
    spans += [s for s in _reversed_spans(output, extra_patterns)]
    if not spans:
        return redact_secrets(output, extra_patterns)
    spans.sort()
    merged: list[list[Any]] = []
    for s, e, kind in spans:
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e, kind])
    out, pos = [], 0
    for s, e, kind in merged:
        out.append(redact_secrets(output[pos:s], extra_patterns))
        out.append(f"[REDACTED:{kind}]" + ("\n" if output[s:e].endswith("\n") else ""))
        pos = e
    out.append(redact_secrets(output[pos:], extra_patterns))
    return "".join(out)
