"""Read-only checks for commands whose arguments are programs: sed, awk, find.

Each check answers one question -- does this invocation only read? -- and says
no to anything it cannot read fully (the caller then rates it ``medium``).

* **sed** (GNU sed manual, "sed scripts" and "Reporting Bugs"/"Extended
  commands"): a script is read command by command; allowed are addresses,
  ``!``, blocks, ``= d D g G h H l n N p P x z F``, ``q``/``Q``, labels and
  branches (``: b t T``), ``a``/``i``/``c`` text, ``y``, and ``s`` with flags
  ``g p i I m M`` and a count. ``e`` (run a command), ``w``/``W`` (write a
  file), ``r``/``R`` (read another file) and the ``s`` flags ``e`` and ``w`` are
  not. ``-i``/``--in-place`` writes, ``-f`` reads a script we cannot see;
  ``--sandbox`` makes GNU sed itself reject e/w/r, so any script is read-only.
* **awk** (gawk manual, "I/O Redirection", "Built-in Functions for Input/
  Output", "Command-Line Options"): ``system()``, ``getline`` (from a command
  or a file), output redirection (``print > f``, ``print | "cmd"``), ``@``
  (indirect calls, ``@load``/``@include``) and the options that load code or
  write files (``-f -E -i -l -o -p -d -D -W``) are not read-only; ``--sandbox``
  (gawk) disables all of them.
* **find** (GNU findutils manual): tests and read-only actions (``-print*``,
  ``-ls``, ``-printf``, ``-prune``, ``-quit``) are allowed; ``-delete``,
  ``-exec*``/``-ok*`` (judged by the caller) and ``-fprint*``/``-fls`` (write a
  file) are not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# --- sed ---------------------------------------------------------------------------
_SED_SIMPLE = set("=dDgGhHlnNpPxzF")
_SED_S_FLAGS = set("gpiImM0123456789")
_SED_SHORT_PLAIN = set("nrEsuz")
_SED_LONG = {
    "--quiet": "plain", "--silent": "plain", "--regexp-extended": "plain", "--separate": "plain",
    "--unbuffered": "plain", "--null-data": "plain", "--zero-terminated": "plain", "--posix": "plain",
    "--debug": "plain", "--follow-symlinks": "plain", "--binary": "plain", "--help": "plain",
    "--version": "plain", "--line-length": "value", "--expression": "script", "--sandbox": "sandbox",
    "--file": "refuse", "--in-place": "refuse",
}


def _long_option(word: str, table: dict[str, str]) -> tuple[str, str | None]:
    """(kind, inline value) of a possibly abbreviated GNU long option; kind 'refuse' if unknown."""
    name, eq, value = word.partition("=")
    matches = [full for full in table if full.startswith(name)]
    if name in table:
        matches = [name]
    kinds = {table[m] for m in matches}
    if len(kinds) != 1:
        return "refuse", None  # unknown or ambiguous
    return kinds.pop(), (value if eq else None)


@dataclass(frozen=True)
class _Options:
    """How a sed-like program takes its script: the option tables of one program (its manual)."""

    long: dict[str, str]  # GNU long options: plain, value, script, sandbox or refuse
    short_plain: frozenset[str]  # short flags without a value
    short_value: frozenset[str]  # short options taking a value ("-l N", "-F :")
    short_sandbox: str = ""  # a short flag that turns the sandbox on (awk's -S)
    shorts_first: bool = False  # short options only before the script and operands (awk)


def _scripts(args: list[str], options: _Options) -> tuple[list[str], bool] | None:
    """(scripts, sandboxed) of a sed/awk command line; None for an option that is not read-only.

    The script is ``-e``/``--expression``/``--source`` values, else the first
    operand. Unknown, ambiguous or writing options (``-i``, ``-f``, ``--file``)
    refuse: nothing unread passes as read-only.
    """
    scripts: list[str] = []
    operands: list[str] = []
    sandbox = False
    i = 0
    while i < len(args):
        word = args[i]
        i += 1
        if word == "--":
            operands.extend(args[i:])
            break
        if word.startswith("--"):
            kind, value = _long_option(word, options.long)
            if kind == "refuse":
                return None
            if kind == "sandbox":
                sandbox = True
            elif kind in ("script", "value") and value is None:
                value = args[i] if i < len(args) else ""
                i += 1
            if kind == "script":
                scripts.append(value or "")
        elif word.startswith("-") and len(word) > 1 and not (options.shorts_first and (scripts or operands)):
            for j, char in enumerate(word[1:], start=1):
                if char in options.short_plain:
                    sandbox = sandbox or char == options.short_sandbox
                    continue
                if char in options.short_value or char == "e":  # the rest of the word or the next
                    value = word[j + 1 :]
                    if not value:
                        value = args[i] if i < len(args) else ""
                        i += 1
                    if char == "e":
                        scripts.append(value)
                    break
                return None  # in place, a script file, anything unknown
        else:
            operands.append(word)
    if not scripts and operands:
        scripts.append(operands[0])
    return scripts, sandbox


_SED_OPTIONS = _Options(_SED_LONG, frozenset(_SED_SHORT_PLAIN), frozenset("l"))


def sed_read_only(args: list[str]) -> bool:
    found = _scripts(args, _SED_OPTIONS)
    if found is None:
        return False
    scripts, sandbox = found
    return sandbox or all(sed_script_read_only(script) for script in scripts)


def _skip_delimited(text: str, i: int, delimiter: str) -> int:
    """Index just past the next unescaped ``delimiter`` from ``i``; -1 if none."""
    while i < len(text):
        char = text[i]
        if char == "\\":
            i += 2
            continue
        if char == "\n" and delimiter != "\n":
            return -1
        if char == delimiter:
            return i + 1
        i += 1
    return -1


_SED_LINE = re.compile(r"\d+(?:~\d+)?|\$")  # 12, 1~2, $
_SED_STEP = re.compile(r"[+~]\d+")  # the ,+3 / ,~4 of an address range


def _sed_address(text: str, i: int) -> int:
    """Index past one address at ``i`` (or ``i`` when there is none); -1 if malformed."""
    number = _SED_LINE.match(text, i)  # at i, not on text[i:]: a copy per address is quadratic
    if number:
        return number.end()
    if i < len(text) and text[i] in "/\\":
        delimiter = "/"
        if text[i] == "\\":  # \cREGEXc
            if i + 1 >= len(text):
                return -1
            delimiter, i = text[i + 1], i + 1
        end = _skip_delimited(text, i + 1, delimiter)
        if end < 0:
            return -1
        while end < len(text) and text[end] in "IM":
            end += 1
        return end
    return i


def sed_script_read_only(script: str) -> bool:
    text, i = script, 0
    while i < len(text):
        char = text[i]
        if char in " \t\n;":
            i += 1
            continue
        if char == "#":  # comment to the end of the line
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
            continue
        start = i
        i = _sed_address(text, i)
        if i < 0:
            return False
        if i > start and i < len(text) and text[i] == ",":
            i += 1
            second = _SED_STEP.match(text, i)
            i = second.end() if second else _sed_address(text, i)
            if i < 0:
                return False
        while i < len(text) and text[i] in " \t":
            i += 1
        if i < len(text) and text[i] == "!":
            i += 1
            while i < len(text) and text[i] in " \t":
                i += 1
        if i >= len(text):
            return i == start  # an address with no command is an error, not a write
        command = text[i]
        i += 1
        if command in "{}" or command in _SED_SIMPLE:
            while i < len(text) and text[i].isdigit():  # l N
                i += 1
        elif command in "qQ":
            while i < len(text) and (text[i] in " \t" or text[i].isdigit()):
                i += 1
        elif command in ":btT":  # GNU sed ends a label at whitespace or ';' ("b0 R" branches, then R)
            while i < len(text) and text[i] in " \t":
                i += 1
            while i < len(text) and text[i] not in " \t\n;":
                i += 1
        elif command in "aic":  # text to the end of the line (backslash-newline continues)
            while i < len(text) and text[i] != "\n":
                i += 2 if text[i] == "\\" else 1
        elif command in "sy":
            if i >= len(text) or text[i] in "\n\\":
                return False
            delimiter = text[i]
            for _ in range(2):
                i = _skip_delimited(text, i + 1, delimiter) - 1
                if i < 0:
                    return False
            i += 1
            if command == "s":
                while i < len(text) and text[i] in _SED_S_FLAGS:
                    i += 1
                if i < len(text) and text[i] in "ew":
                    return False  # s///e runs the pattern space, s///w FILE writes
        else:
            return False  # e, w, W, r, R, v and anything unknown
    return True


# --- awk ---------------------------------------------------------------------------
_AWK_SHORT_PLAIN = set("bcghLMnNOPrstVS")
_AWK_SHORT_VALUE = set("Fv")
_AWK_LONG = {
    "--field-separator": "value", "--assign": "value", "--characters-as-bytes": "plain",
    "--traditional": "plain", "--copyright": "plain", "--gen-pot": "plain", "--help": "plain",
    "--lint": "plain", "--bignum": "plain", "--non-decimal-data": "plain",
    "--use-lc-numeric": "plain", "--optimize": "plain", "--posix": "plain",
    "--re-interval": "plain", "--no-optimize": "plain", "--lint-old": "plain",
    "--version": "plain", "--sandbox": "sandbox", "--source": "script",
    "--file": "refuse", "--exec": "refuse", "--include": "refuse", "--load": "refuse",
    "--pretty-print": "refuse", "--profile": "refuse", "--dump-variables": "refuse",
    "--debug": "refuse",
}
_STRING = re.compile(r'"(?:\\.|[^"\\\n])*"')
# A regex literal: '/…/' where an operand may start (not after a value: that is division).
_REGEX_LITERAL = re.compile(r'(^|[\s(,{;!~&|?:])/(?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\n\[])*/')
_AWK_DANGEROUS = re.compile(r"\b(?:system|getline)\b|@")


_AWK_OPTIONS = _Options(_AWK_LONG, frozenset(_AWK_SHORT_PLAIN), frozenset(_AWK_SHORT_VALUE),
                        short_sandbox="S", shorts_first=True)


def awk_read_only(args: list[str]) -> bool:
    found = _scripts(args, _AWK_OPTIONS)
    if found is None:
        return False  # -f -E -i -l -o -p -d -D -W and anything unknown
    programs, sandbox = found
    return sandbox or all(awk_program_read_only(program) for program in programs)


def awk_program_read_only(program: str) -> bool:
    code = _STRING.sub('""', program)
    code = _REGEX_LITERAL.sub(lambda m: m.group(1) + "//", code)
    if _AWK_DANGEROUS.search(code):
        return False
    if re.search(r"(?<!\|)\|(?!\|)", code):
        return False  # print | "cmd", "cmd" | getline
    for statement in re.split(r"[;{}\n]", code):
        # The lookbehind and possessive run keep it linear even if ever searched (not only
        # matched at the start) over a run of spaces.
        if re.match(r"(?<!\s)\s*+printf?\b", statement):
            flat = statement
            while True:  # drop parenthesised groups: a '>' inside them is a comparison
                inner = re.sub(r"\([^()]*\)", "", flat)
                if inner == flat:
                    break
                flat = inner
            if ">" in flat:
                return False  # print > "file", print >> file
    return True


# --- find --------------------------------------------------------------------------
_FIND_PLAIN = {
    "-print", "-print0", "-ls", "-prune", "-quit", "-depth", "-d", "-follow", "-xdev", "-mount",
    "-noleaf", "-daystart", "-true", "-false", "-empty", "-readable", "-writable", "-executable",
    "-nouser", "-nogroup", "-not", "-a", "-and", "-o", "-or", "-ignore_readdir_race",
    "-noignore_readdir_race", "-nowarn", "-warn", "-help", "--help", "-version", "--version",
    "-H", "-L", "-P", "-x", "-s", "-E", "-X",
}
_FIND_VALUE = {
    "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex",
    "-type", "-xtype", "-size", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin",
    "-newer", "-anewer", "-cnewer", "-perm", "-user", "-group", "-uid", "-gid", "-links",
    "-inum", "-samefile", "-maxdepth", "-mindepth", "-regextype", "-lname", "-ilname",
    "-used", "-fstype", "-context", "-printf", "-files0-from", "-D", "-f",
}
_FIND_ACTIONS_ELSEWHERE = {"-exec", "-execdir", "-ok", "-okdir", "-delete"}


def find_read_only(args: list[str]) -> bool:
    """True when every primary is a known test or read-only action (exec/delete excluded)."""
    i = 0
    while i < len(args):
        word = args[i]
        i += 1
        if not word.startswith("-") or word in {"-", "--"}:
            continue  # a path, '(' ')' '!' ',' or a value
        if word in _FIND_PLAIN or re.fullmatch(r"-O\d", word):
            continue
        if word in _FIND_VALUE or re.fullmatch(r"-newer[aBcmt][aBcmt]", word):
            i += 1
            continue
        return False  # -fprint*, -fls, -exec*, -ok*, -delete, anything unknown
    return True


def find_has_exec_or_delete(args: list[str]) -> bool:
    return any(a in _FIND_ACTIONS_ELSEWHERE for a in args)
