"""Risk level of a shell command for the approval dialog (docs/agent.md#tools).

``shell_risk(command)`` is a classifier for a *human* decision, not a sandbox:
every shell command needs approval anyway; the level tells the user how hard
to look. So it errs on the side of ``high`` and never returns ``low`` for
something it does not understand.

How it reads a command:

* ``shlex`` (POSIX mode, newline and ``();<>|&`` as operators, no comment
  handling) splits it into simple commands at ``;``, ``&&``, ``||``, ``|``,
  ``&``, newlines and sub-shell parentheses; shell keywords (``do``, ``then`` …)
  and wrappers (``env``, ``nohup``, ``timeout 5``, ``xargs``, ``VAR=x`` …) are
  peeled off so ``for f in *; do rm "$f"; done`` and ``find . | xargs rm``
  are seen as ``rm``.
* The bodies of ``$( … )``, backticks, ``sh -c '…'``, ``eval '…'`` and
  ``ssh host '…'`` are classified recursively (depth-limited).
* Whole-text patterns catch what is not a command name: SQL (``DROP TABLE``,
  ``TRUNCATE``, ``DELETE FROM`` without ``WHERE``), fork bombs, writes to raw
  disks (``> /dev/sda``) and download-and-execute (``curl … | sh``,
  ``bash <(curl …)``).

Levels: ``high`` = destructive or privilege-escalating (data loss that the
user cannot undo: ``rm``, ``dd``, ``mkfs``, ``git push --force``,
``git reset --hard``, ``sudo`` …); ``medium`` = changes files, talks to the
network, installs packages, runs arbitrary programs, or anything unknown;
``low`` = allowlisted only: a command in the read-only
table :data:`agenttui.agent.tools.shell_readonly.READ_ONLY` used with options and
operands the table knows to be read-only, and scripts (sed, awk, find) that
:mod:`agenttui.agent.tools.shell_scripts` reads as read-only. ``sort -o FILE``,
``uniq IN OUT``, ``sed 'w FILE'``, ``git -c core.fsmonitor=CMD status``,
``less +!CMD``, ``PAGER=CMD man ls`` … are at least ``medium``. An
environment assignment in front of a command is ``medium`` unless the table
lists the variable as harmless (``LANG``, ``TZ`` …).
Unparseable text (unbalanced quotes) is at least ``medium``.

Not covered (a classifier, not a sandbox): a repository's own configuration
(``.git/config`` with ``core.fsmonitor``) runs code on plain ``git status``;
aliases and functions defined earlier in the same command are not expanded.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Iterable

from agenttui.agent.events import Risk
from agenttui.agent.tools import shell_readonly as table
from agenttui.agent.tools import shell_scripts

_ORDER = {"low": 0, "medium": 1, "high": 2}
_MAX_DEPTH = 4
_OPERATOR_CHARS = "();<>|&\n"

# --- whole-text patterns ---------------------------------------------------
_SQL_HIGH = re.compile(
    r"\b(?:DROP\s+(?:TABLE|DATABASE|SCHEMA|INDEX|VIEW|USER)\b"
    r"|TRUNCATE\s+TABLE\b|TRUNCATE\s+[\w.`]+\s*(?:;|$|[\"'])"
    r"|ALTER\s+TABLE\s+\S+\s+DROP\b)",
    re.IGNORECASE,
)
# DELETE FROM / UPDATE … SET with no WHERE before the statement ends.
_SQL_UNBOUNDED = re.compile(r"\b(?:DELETE\s+FROM|UPDATE\s+\S+\s+SET)\b([^;\"']*)", re.IGNORECASE)
_WHERE = re.compile(r"\bWHERE\b", re.IGNORECASE)
# name(){ … name|name& }. Linear on any text: the name starts where a shell word
# does (after a space or ;&|(){}), is at most 64 characters, and the body ends at
# the next brace, so no two tries scan the same run twice; a bare ``(\S+)`` and a
# ``[^}]*`` body were retried from every character (a 10 kB word: 5 s).
_FORK_BOMB = re.compile(r"(?<![^\s;&|(){}])([^\s;&|(){}]{1,64})\s*\(\)\s*\{[^{}]*?\1\s*\|\s*\1\s*&")
_RAW_DISK = re.compile(
    r">\s*/dev/(?:sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|md|dm-|mapper/|loop)", re.IGNORECASE
)
_DOWNLOADERS = {"curl", "wget", "fetch", "aria2c", "http", "https", "iwr", "invoke-webrequest"}
_INTERPRETERS = {
    "sh", "bash", "zsh", "dash", "ksh", "fish", "csh", "tcsh", "python", "python3",
    "python2", "perl", "ruby", "node", "php", "source", ".", "eval", "iex",
    "invoke-expression", "pwsh", "powershell",
}
_FETCH_AND_RUN = re.compile(
    r"(?:\b(?:ba|z|da|k)?sh|\bsource|\beval|\bpython3?|\bperl|\bruby|\bnode|(?:^|\s)\.)\s"
    r"[^|;&]*?(?:<\(|\$\(|`)\s*(?:curl|wget|fetch)\b",
    re.IGNORECASE,
)

# --- command tables --------------------------------------------------------
_ALWAYS_HIGH = {
    "sudo", "doas", "su", "pkexec", "runas",  # privilege escalation
    "rm", "unlink", "shred", "wipefs", "srm", "dd", "fdisk", "sfdisk", "gdisk",
    "parted", "cfdisk", "mkswap", "truncate", "blkdiscard", "format",
    "shutdown", "reboot", "halt", "poweroff", "killall", "pkill",
}
_HIGH_SUBCOMMANDS: dict[str, set[tuple[str, ...]]] = {
    # command: subcommands/flags that make it destructive
    "docker": {("system", "prune"), ("volume", "rm"), ("volume", "prune"), ("rm", "-f"),
               ("image", "prune"), ("container", "prune"), ("rmi", "-f")},
    "podman": {("system", "prune"), ("volume", "rm"), ("rm", "-f")},
    "kubectl": {("delete",), ("drain",)},
    "terraform": {("destroy",), ("apply", "-auto-approve")},
    "gh": {("repo", "delete"), ("release", "delete")},
    "aws": {("s3", "rm"), ("s3", "rb")},
    "gsutil": {("rm",)},
    "iptables": {("-F",), ("--flush",)},
    "crontab": {("-r",)},
    "diskutil": {("eraseDisk",), ("eraseVolume",), ("partitionDisk",)},
    "systemctl": {("stop",), ("disable",), ("mask",), ("poweroff",), ("reboot",), ("halt",)},
    "npm": {("unpublish",)},
    "zfs": {("destroy",)},
    "lvremove": {()},
}
# Wrappers: the real command follows (after their own options).
_WRAPPERS = {
    "env", "nohup", "nice", "ionice", "time", "command", "builtin", "exec", "stdbuf",
    "timeout", "watch", "xargs", "strace", "ltrace", "chronic", "unbuffer", "caffeinate",
    "flock", "setsid", "then", "do", "else", "elif", "if", "while", "until", "!", "{", "}",
    "noglob",
}
_WRAPPER_ARG_OPTS = {  # options of wrappers that take a value
    "timeout": {"-s", "--signal", "-k", "--kill-after"},
    "nice": {"-n", "--adjustment"},
    "xargs": {"-I", "-L", "-n", "-P", "-d", "-E", "-s", "-a", "--delimiter", "--max-args",
              "--max-procs", "--arg-file", "--replace"},
    "watch": {"-n", "--interval", "-d"},
    "env": {"-u", "--unset", "-C", "--chdir", "-S"},
    "ionice": {"-c", "-n", "-p"},
    "flock": {"-w", "-E"},
}
_GIT_HIGH = {"filter-branch", "filter-repo", "gc", "prune", "update-ref"}
_SHELLS = {"sh", "bash", "zsh", "dash", "ksh", "fish", "csh", "tcsh"}
_HARMLESS_TARGETS = {"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"}


def shell_risk(command: str) -> Risk:
    """``"low"``, ``"medium"`` or ``"high"`` for ``command`` (see module doc)."""
    return _classify(command, 0)


def _classify(text: str, depth: int) -> Risk:
    if not text.strip():
        return "low"
    if depth > _MAX_DEPTH:
        return "high"  # absurd nesting is itself a red flag
    risk: Risk = _text_patterns(text)
    if risk == "high":
        return risk
    for inner in _substitutions(text):
        risk = _worst(risk, _classify(inner, depth + 1))
    try:
        tokens = _tokenize(text)
    except ValueError:  # unbalanced quotes: judge the raw words, at least medium
        words = [_name(w) for w in re.findall(r"[\w./\\-]+", text)]
        if any(w in _ALWAYS_HIGH or w.startswith("mkfs") for w in words):
            return "high"
        return _worst(risk, "medium")
    risk = _worst(risk, _tokens_risk(tokens, depth))
    return risk


def _text_patterns(text: str) -> Risk:
    if _SQL_HIGH.search(text) or _FORK_BOMB.search(text) or _RAW_DISK.search(text):
        return "high"
    for match in _SQL_UNBOUNDED.finditer(text):
        if not _WHERE.search(match.group(1)):
            return "high"
    if _FETCH_AND_RUN.search(text):
        return "high"
    return "low"


def _substitutions(text: str) -> list[str]:
    """Bodies of ``$( … )`` (balanced) and backticks, outermost first."""
    bodies: list[str] = []
    i = 0
    while True:
        start = text.find("$(", i)
        if start < 0:
            break
        level, j = 0, start + 1
        while j < len(text):
            if text[j] == "(":
                level += 1
            elif text[j] == ")":
                level -= 1
                if level == 0:
                    break
            j += 1
        bodies.append(text[start + 2 : j])
        i = j + 1
    bodies.extend(re.findall(r"`([^`]*)`", text))
    bodies.extend(re.findall(r"<\(([^()]*)\)", text))
    return bodies


def _tokenize(text: str) -> list[str]:
    lexer = shlex.shlex(text, posix=True, punctuation_chars=_OPERATOR_CHARS)
    lexer.whitespace = " \t\r"
    lexer.whitespace_split = True
    lexer.commenters = ""  # '#' is only a comment at a word start; be conservative
    return list(lexer)


def _is_operator(token: str) -> bool:
    return bool(token) and all(ch in _OPERATOR_CHARS for ch in token)


def _tokens_risk(tokens: list[str], depth: int) -> Risk:
    """Split into simple commands; track pipes for download-and-run."""
    risk: Risk = "low"
    command: list[str] = []
    pipeline: list[list[str]] = []
    redirect_next = skip_next = False
    for token in tokens:
        if redirect_next:
            redirect_next = False
            risk = _worst(risk, _redirect_risk(token))
            continue
        if skip_next:  # the input file, here-doc delimiter or here-string: only read
            skip_next = False
            if not _is_operator(token):
                continue
        if _is_operator(token):
            if ("<" in token or ">" in token) and command and command[-1].isdigit():
                command.pop()  # the fd of "2>/dev/null" is not an argument
            if ">" in token:
                redirect_next = True
                continue  # a redirection belongs to the current command
            if "<" in token:
                skip_next = True
                continue
            pipeline.append(command)
            command = []
            piped = "|" in token and "||" not in token
            if not piped:
                risk = _worst(risk, _pipeline_risk(pipeline, depth))
                pipeline = []
            continue
        command.append(token)
    pipeline.append(command)
    return _worst(risk, _pipeline_risk(pipeline, depth))


def _redirect_risk(target: str) -> Risk:
    if target in _HARMLESS_TARGETS or target.startswith("&") or target.isdigit():
        return "low"
    if re.match(r"/dev/(?:sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|md|dm-|loop)", target):
        return "high"
    return "medium"  # overwrites a file


def _pipeline_risk(pipeline: list[list[str]], depth: int) -> Risk:
    risk: Risk = "low"
    stages = []
    for words in pipeline:
        stripped, assigned = _strip_wrappers_noting(words)
        if assigned:
            risk = "medium"  # PAGER=…, GIT_EXTERNAL_DIFF=…, LD_PRELOAD=…: may run another program
        if stripped:
            stages.append(stripped)
    seen_download = False
    for words in stages:
        name = _name(words[0])
        if seen_download and (name in _INTERPRETERS or name in _ALWAYS_HIGH):
            return "high"  # curl … | sh
        if name in _DOWNLOADERS:
            seen_download = True
        risk = _worst(risk, _command_risk(words, depth))
    return risk


def _strip_wrappers(words: list[str]) -> list[str]:
    return _strip_wrappers_noting(words)[0]


def _unsafe_assignment(word: str) -> bool:
    name, _, value = word.partition("=")
    if name in table.PAGER_VARIABLES:
        return value not in table.SAFE_PAGERS
    return name not in table.SAFE_ASSIGNMENTS


def _strip_wrappers_noting(words: list[str]) -> tuple[list[str], bool]:
    """Drop ``VAR=x``, keywords and wrappers (with their options) in front;
    also say whether an assignment could change what runs."""
    i = 0
    assigned = False
    while i < len(words):
        word = words[i]
        if re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", word):
            assigned = assigned or _unsafe_assignment(word)
            i += 1
            continue
        name = _name(word)
        if name not in _WRAPPERS:
            break
        i += 1
        takes_value = _WRAPPER_ARG_OPTS.get(name, set())
        while i < len(words) and words[i].startswith("-") and words[i] != "-":
            if name == "env" and words[i].split("=", 1)[0] in {"-S", "--split-string"}:
                assigned = True  # env -S 'cmd args': a command line in one word
            i += 2 if words[i] in takes_value else 1
        if name == "timeout" and i < len(words) and re.match(r"^\d", words[i]):
            i += 1  # the duration
        if name in {"nice", "watch"} and i < len(words) and re.match(r"^-?\d", words[i]):
            i += 1
    return words[i:], assigned


def _name(word: str) -> str:
    return os.path.basename(word.lstrip("\\")).lower() or word


def _words_risk(words: Iterable[str], depth: int) -> Risk:
    stripped, assigned = _strip_wrappers_noting(list(words))
    risk = _command_risk(stripped, depth) if stripped else "low"
    return _worst(risk, "medium") if assigned else risk


def _flags(args: list[str]) -> set[str]:
    """Short flags exploded (``-rf`` -> r, f) plus long flags as written."""
    flags: set[str] = set()
    for arg in args:
        if arg.startswith("--"):
            flags.add(arg.split("=", 1)[0])
        elif arg.startswith("-") and len(arg) > 1:
            flags.update(arg[1:])
    return flags


def _command_risk(words: list[str], depth: int) -> Risk:
    if not words:
        return "low"
    name, args = _name(words[0]), words[1:]
    if name.startswith("mkfs") or name in _ALWAYS_HIGH:
        return "high"
    local = _local_program(words[0])  # ./ls, bin/cat: a file in the project, not the tool
    if not local and name in table.VERSION_ONLY and args and all(a in table.VERSION_QUERIES for a in args):
        return "low"  # python --version; an unknown program's --help is still unknown
    if name in _SHELLS or name in {"eval", "source", "."}:
        return _shell_risk(name, args, depth)
    if name == "git":
        return _git_risk(args)
    if name in {"chmod", "chown", "chgrp"}:
        recursive = bool({"R", "--recursive"} & _flags(args))
        wide_open = any(re.fullmatch(r"0?777|a\+rwx|o\+w|ugo\+rwx", a) for a in args)
        everything = any(a in {"/", "~", "/*", "*"} for a in args)
        return "high" if recursive or (wide_open and everything) else "medium"
    if name == "find":
        if shell_scripts.find_has_exec_or_delete(args):
            tail = _after_exec(args)
            return "high" if "-delete" in args else _worst("medium", _words_risk(tail, depth + 1))
        return "low" if shell_scripts.find_read_only(args) else "medium"
    if name == "rsync" and any(a.startswith("--delete") or a == "--remove-source-files" for a in args):
        return "high"
    if name == "mv" and any(a in {"/", "~", "/dev/null"} for a in args):
        return "high"
    if name == "kill" and any(a in {"-1", "1"} for a in args):
        return "high"
    if name == "ssh":  # the remote command, if any, is still a command
        remote = [a for a in args if not a.startswith("-")][1:]
        return _worst("medium", _classify(" ".join(remote), depth + 1)) if remote else "medium"
    if name in _HIGH_SUBCOMMANDS and _matches_subcommand(name, args):
        return "high"
    entry = None if local else table.READ_ONLY.get(name)
    if entry is not None:
        return "low" if _read_only_use(name, entry, args) else "medium"
    return "medium"  # network, installers, unknown programs: they can do anything


def _local_program(word: str) -> bool:
    """A command given by a path outside the system's program directories."""
    path = word.lstrip("\\")
    return "/" in path and not path.startswith(table.SYSTEM_PROGRAM_DIRS)


def _read_only_use(name: str, entry: table.ReadOnly, args: list[str]) -> bool:
    """True when ``args`` use only what the table knows to be read-only."""
    if entry.check == "sed":
        return shell_scripts.sed_read_only(args)
    if entry.check == "awk":
        return shell_scripts.awk_read_only(args)
    if entry.check == "bat" and args[:1] == ["cache"]:
        return False  # bat cache --build/--clear writes its cache
    operands: list[str] = []
    i = 0
    while i < len(args):
        word = args[i]
        i += 1
        if word == "--":
            operands.extend(args[i:])
            break
        if word.startswith("--"):
            option, has_value = word.split("=", 1)[0], "=" in word
            # GNU getopt accepts any unambiguous prefix: --out=F is --output=F
            if len(option) > 3 and any(ex.startswith(option) for ex in entry.except_long):
                return False
            if option in entry.long_valued:
                i += 0 if has_value else 1
            elif not (entry.every_option or option in entry.long):
                return False
        elif word.startswith("-") and len(word) > 1:
            for j, char in enumerate(word[1:], start=1):
                if char in entry.except_short:
                    return False
                if char in entry.valued:
                    i += 0 if word[j + 1 :] else 1  # the value: rest of the word or the next word
                    break
                if not (entry.every_option or char in entry.flags):
                    return False
        elif word.startswith("+") and entry.plus_is_command:
            return False  # less +!CMD / ++CMD: a command run at start
        else:
            operands.append(word)
    if entry.max_operands is not None and len(operands) > entry.max_operands:
        return False
    return all(o.startswith(entry.operand_prefix) for o in operands)


def _after_exec(args: list[str]) -> list[str]:
    for i, arg in enumerate(args):
        if arg in {"-exec", "-execdir", "-ok", "-okdir"}:
            tail = args[i + 1 :]
            end = next((j for j, a in enumerate(tail) if a in {";", "+", "\\;"}), len(tail))
            return tail[:end]
    return []


def _shell_risk(name: str, args: list[str], depth: int) -> Risk:
    if name in {"eval", "source", "."}:
        return _worst("medium", _classify(" ".join(args), depth + 1))
    if "-c" in args:
        index = args.index("-c")
        body = args[index + 1] if index + 1 < len(args) else ""
        return _worst("medium", _classify(body, depth + 1))
    return "medium"  # runs a script


_GIT_GLOBAL_VALUE = {"-C", "-c", "--git-dir", "--work-tree", "--namespace"}
_GIT_GLOBAL_PLAIN = {"--no-pager", "-P", "--bare", "--no-replace-objects", "--literal-pathspecs",
                     "--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs",
                     "--no-optional-locks", "--version", "--help", "--html-path", "--man-path",
                     "--info-path", "--exec-path"}


def _git_safe_config(setting: str) -> bool:
    key = setting.split("=", 1)[0].lower()
    return key in table.GIT_SAFE_CONFIG_KEYS or key.startswith(table.GIT_SAFE_CONFIG_PREFIXES)


def _git_globals(args: list[str]) -> tuple[int, bool]:
    """(index of the subcommand, whether every global option is harmless).

    ``-c core.fsmonitor=CMD``, ``-c diff.external=CMD``, ``-c core.pager=CMD``,
    ``--config-env``, ``--exec-path=DIR`` and ``-p`` (paginate) can run a program.
    """
    i, safe = 0, True
    while i < len(args) and args[i].startswith("-"):
        word = args[i]
        option, has_value = word.split("=", 1)[0], "=" in word
        if word == "-c":
            safe = safe and _git_safe_config(args[i + 1] if i + 1 < len(args) else "")
            i += 2
            continue
        if option == "--config-env":  # a config value taken from the environment: unknown
            safe = False
            i += 1 if has_value else 2
            continue
        if word.startswith("-c") and len(word) > 2:  # -ckey=value
            safe = safe and _git_safe_config(word[2:])
        elif option in _GIT_GLOBAL_VALUE:
            i += 0 if has_value else 1
        elif option == "--exec-path" and has_value:
            safe = False
        elif option not in _GIT_GLOBAL_PLAIN and not (word.startswith("-C") and len(word) > 2):
            safe = False  # -p/--paginate, unknown options
        i += 1
    return i, safe


def _git_read_options_safe(sub: str, rest: list[str]) -> bool:
    for word in rest:
        if word == "--":
            break
        if word.startswith("--"):
            option = word.split("=", 1)[0]
            if len(option) > 3 and any(ex.startswith(option) for ex in table.GIT_WRITING_OPTIONS
                                       if ex.startswith("--")):
                return False  # git accepts unambiguous prefixes: --out=F is --output=F
        elif word.startswith("-") and set(word[1:]) & set(table.GIT_OPTIONS_BY_SUBCOMMAND_SHORT.get(sub, "")):
            return False
    return True


def _git_risk(args: list[str]) -> Risk:
    i, globals_safe = _git_globals(args)
    if i >= len(args):
        return "low" if globals_safe else "medium"
    risk = _git_subcommand_risk(args[i], args[i + 1 :])
    return risk if globals_safe else _worst(risk, "medium")


def _git_subcommand_risk(sub: str, rest: list[str]) -> Risk:
    flags = _flags(rest)
    if sub in _GIT_HIGH:
        return "high"
    if sub == "push":
        forced = {"f", "--force", "--force-with-lease", "--force-if-includes", "--mirror",
                  "d", "--delete", "--prune"} & flags
        refspec_force = any(a.startswith("+") or a.startswith(":") for a in rest)
        return "high" if forced or refspec_force else "medium"
    if sub == "reset":
        return "high" if {"--hard", "--merge", "--keep"} & flags else "medium"
    if sub == "clean":
        return "low" if {"n", "--dry-run"} & flags else "high"
    if sub in {"checkout", "restore"}:
        discards = "--" in rest or "." in rest or {"f", "--force"} & flags
        staged_only = sub == "restore" and "--staged" in flags and "--worktree" not in flags
        return "high" if discards and not staged_only else "medium"
    if sub == "branch":
        if {"D", "--delete", "d", "M", "--force", "f"} & flags:
            return "high"
        return "low" if not rest or flags <= {"a", "r", "v", "l", "--list", "--all"} else "medium"
    if sub == "stash":
        if rest[:1] in (["drop"], ["clear"]):
            return "high"
        return "low" if rest[:1] in (["list"], ["show"]) and _git_read_options_safe(sub, rest) else "medium"
    if sub in {"tag", "remote"} and set(rest) <= {"-l", "--list", "-v", "--verbose"}:
        return "low"
    if sub == "config" and rest[:1] in (["--get"], ["--list"], ["-l"], ["--get-all"]):
        return "low"
    if sub == "reflog":
        return "high" if rest[:1] in (["expire"], ["delete"]) else "low"
    if sub in table.GIT_READ:
        return "low" if _git_read_options_safe(sub, rest) else "medium"
    return "medium"


def _matches_subcommand(name: str, args: list[str]) -> bool:
    return any(all(part in args for part in pattern) for pattern in _HIGH_SUBCOMMANDS[name])


def _worst(a: Risk, b: Risk) -> Risk:
    return a if _ORDER[a] >= _ORDER[b] else b
