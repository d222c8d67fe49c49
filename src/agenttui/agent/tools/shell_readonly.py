"""The read-only allowlist behind ``shell_risk``'s ``low``. Data only.

A command is rated ``low`` only when its name is listed here *and* every
option, operand and (for some) script is known to be read-only; anything else
is at least ``medium``. Each entry is one :class:`ReadOnly` record:

* ``flags``: short options that take no value (``"la1"``; digits allow
  ``head -20``); ``valued``: short options followed by a value that is only
  read (a count, a pattern, a field separator).
* ``long`` / ``long_valued``: long options (``--name`` or ``--name=value``);
  ``long_valued`` ones may take their value as the next word.
* ``every_option``: the cited manual was read option by option and none
  writes a file, runs a program or changes the system, except the listed
  ``except_short`` / ``except_long``. Used for tools whose many display
  options are all read-only (``ls``, ``grep``, ``git log``).
* ``max_operands``: more operands than this make it ``medium`` (``uniq IN OUT``
  writes OUT, ``hostname NAME`` sets the name); ``operand_prefix``: operands
  must start with it (``date +FORMAT``; any other operand sets the clock).
* ``check``: a script that needs its own reading (``sed``, ``awk``, ``find``),
  done in :mod:`agenttui.agent.tools.shell_risk`.
* ``source``: the manual the entry rests on.

Every entry has a test (tests/unit/tools/test_shell_readonly_table.py): a
read-only use that is ``low`` and, where one exists, a writing/executing use
that is not.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ReadOnly:
    flags: str = ""
    valued: str = ""
    long: frozenset[str] = frozenset()
    long_valued: frozenset[str] = frozenset()
    every_option: bool = False
    except_short: str = ""
    except_long: frozenset[str] = frozenset()
    max_operands: int | None = None
    operand_prefix: str = ""
    plus_is_command: bool = False  # a "+…" argument is a command to the program (less +!CMD)
    check: str = ""
    source: str = ""


def _set(*names: str) -> frozenset[str]:
    return frozenset(names)


_COREUTILS = "GNU coreutils manual, https://www.gnu.org/software/coreutils/manual/coreutils.html"
_ALL = ReadOnly(every_option=True, source=_COREUTILS)
_NO_ARGS_NEEDED = ReadOnly(every_option=True, source="POSIX / bash(1) builtins; print only")

READ_ONLY: dict[str, ReadOnly] = {
    # --- listing and reading files: no option writes (coreutils manual, each page) ---
    "ls": _ALL, "dir": _ALL, "ll": _ALL, "la": _ALL,  # ll/la: common aliases of ls
    "cat": _ALL, "head": _ALL, "tail": _ALL, "wc": _ALL, "tac": _ALL, "nl": _ALL, "od": _ALL,
    "cut": _ALL, "tr": _ALL, "fold": _ALL, "expand": _ALL, "unexpand": _ALL, "paste": _ALL,
    "basename": _ALL, "dirname": _ALL, "realpath": _ALL, "readlink": _ALL, "pwd": _ALL,
    "stat": _ALL, "du": _ALL, "df": _ALL, "md5sum": _ALL, "sha1sum": _ALL, "sha224sum": _ALL,
    "sha256sum": _ALL, "sha384sum": _ALL, "sha512sum": _ALL, "b2sum": _ALL, "cksum": _ALL,
    "comm": _ALL, "seq": _ALL, "echo": _ALL, "printf": _ALL, "true": _ALL, "false": _ALL,
    "test": _ALL, "[": _ALL, "whoami": _ALL, "id": _ALL, "groups": _ALL, "uname": _ALL,
    "nproc": _ALL, "printenv": _ALL, "sleep": _ALL, "tty": _ALL, "logname": _ALL,
    "uptime": _ALL, "users": _ALL, "who": _ALL, "arch": _ALL, "factor": _ALL,
    "numfmt": _ALL, "join": _ALL,
    # sort: -o/--output writes FILE, --compress-program runs a program.
    "sort": ReadOnly(every_option=True, except_short="o", except_long=_set("--output", "--compress-program"),
                     source=_COREUTILS + "#sort-invocation"),
    # uniq [INPUT [OUTPUT]]: a second operand is written.
    "uniq": ReadOnly(every_option=True, valued="fsw", long_valued=_set("--skip-fields", "--skip-chars",
                                                                         "--check-chars"),
                     max_operands=1, source=_COREUTILS + "#uniq-invocation"),
    # date: -s/--set and a non-'+' operand (MMDDhhmm[[CC]YY][.ss]) set the clock.
    "date": ReadOnly(every_option=True, valued="dfr", long_valued=_set("--date", "--file", "--reference"),
                     except_short="s", except_long=_set("--set"), operand_prefix="+",
                     source=_COREUTILS + "#date-invocation"),
    "rev": ReadOnly(every_option=True, source="util-linux rev(1)"),
    "column": ReadOnly(every_option=True, source="util-linux column(1)"),
    "cal": ReadOnly(every_option=True, source="util-linux cal(1)"),
    "lsblk": ReadOnly(every_option=True, source="util-linux lsblk(8)"),
    "lscpu": ReadOnly(every_option=True, source="util-linux lscpu(1)"),
    "free": ReadOnly(every_option=True, source="procps free(1)"),
    "ps": ReadOnly(every_option=True, source="procps ps(1)"),
    "locale": ReadOnly(every_option=True, source="glibc locale(1)"),
    "diff": ReadOnly(every_option=True, source="GNU diffutils manual, diff invocation"),
    "cmp": ReadOnly(every_option=True, source="GNU diffutils manual, cmp invocation"),
    "strings": ReadOnly(every_option=True, source="GNU binutils strings(1)"),
    "hexdump": ReadOnly(every_option=True, source="util-linux hexdump(1)"),
    "zcat": ReadOnly(every_option=True, source="gzip(1): zcat = gzip -dc, writes stdout only"),
    # xxd [infile [outfile]]: an outfile operand is written (with or without -r).
    "xxd": ReadOnly(every_option=True, valued="cglosn", max_operands=1, source="xxd(1), vim-common"),
    # file -C (--compile) writes magic.mgc.
    "file": ReadOnly(every_option=True, except_short="C", except_long=_set("--compile"),
                     source="file(1), https://man7.org/linux/man-pages/man1/file.1.html"),
    # tree -o FILE writes its listing to FILE.
    "tree": ReadOnly(every_option=True, except_short="o", source="tree(1), https://oldmanuals.net/tree"),
    # hostname: any operand, -F/--file and -b/--boot set the host name.
    "hostname": ReadOnly(flags="sfdiIaAyVh", long=_set("--short", "--fqdn", "--long", "--domain",
                                                        "--ip-address", "--all-ip-addresses", "--alias",
                                                        "--all-fqdns", "--nis", "--yp", "--version",
                                                        "--help"),
                         max_operands=0, source="hostname(1), net-tools"),
    # --- search: grep has no writing or executing option (GNU grep manual) ---
    "grep": ReadOnly(every_option=True, source="GNU grep manual, https://www.gnu.org/software/grep/manual/"),
    "egrep": ReadOnly(every_option=True, source="GNU grep manual"),
    "fgrep": ReadOnly(every_option=True, source="GNU grep manual"),
    # rg --pre COMMAND runs a preprocessor per file, --hostname-bin runs a program.
    "rg": ReadOnly(every_option=True, except_long=_set("--pre", "--hostname-bin"),
                   source="rg(1), https://github.com/BurntSushi/ripgrep/blob/master/crates/core/flags/defs.rs"),
    # ag --pager COMMAND runs a pager.
    "ag": ReadOnly(every_option=True, except_long=_set("--pager"), source="ag(1), the_silver_searcher"),
    # ack --pager runs a program, --output evaluates a Perl expression, --ackrc loads options.
    "ack": ReadOnly(every_option=True, except_long=_set("--pager", "--output", "--ackrc"),
                    source="ack(1), https://beyondgrep.com/documentation/"),
    # fd -x/--exec and -X/--exec-batch run commands.
    "fd": ReadOnly(every_option=True, except_short="xX", except_long=_set("--exec", "--exec-batch"),
                   source="fd(1), https://github.com/sharkdp/fd#command-line-options"),
    "find": ReadOnly(check="find", source="GNU findutils manual, find; -exec/-ok/-delete/-fprint* excluded"),
    # --- structured data ---
    "jq": ReadOnly(every_option=True, source="jq manual, https://jqlang.github.io/jq/manual/ (no writing option)"),
    # yq -i/--inplace rewrites the file (mikefarah/yq and kislyuk/yq alike).
    "yq": ReadOnly(every_option=True, except_short="i", except_long=_set("--inplace", "--in-place"),
                   source="yq, https://mikefarah.gitbook.io/yq/ and https://kislyuk.github.io/yq/"),
    # --- pagers and documentation (stdout is a pipe: they print and exit) ---
    # less: +cmd / ++cmd run a less command (+!CMD a shell command), -o/-O/--log-file write a
    # file, -k/--lesskey-file load key bindings; only these display options are allowed.
    "less": ReadOnly(flags="aABcCdeEfFgGiIJKLmMnNqQrRsSuUVwWX~", valued="bhjpPtTxyz#",
                     long=_set("--quit-at-eof", "--QUIT-AT-EOF", "--quit-if-one-screen", "--ignore-case",
                               "--IGNORE-CASE", "--LINE-NUMBERS", "--line-numbers", "--chop-long-lines",
                               "--RAW-CONTROL-CHARS", "--raw-control-chars", "--no-init", "--squeeze-blank-lines",
                               "--silent", "--quiet", "--long-prompt", "--status-column", "--tilde",
                               "--version", "--help", "--mouse", "--use-color"),
                     long_valued=_set("--pattern", "--tabs", "--window", "--shift", "--prompt", "--header"),
                     plus_is_command=True, source="less(1), https://manpages.ubuntu.com/manpages/focal/man1/less.1.html"),
    "more": ReadOnly(flags="dlfpcsun0123456789", long=_set("--silent", "--logical", "--no-pause", "--print-over",
                                                            "--clean-print", "--squeeze", "--plain", "--help",
                                                            "--version"),
                     long_valued=_set("--lines"), source="util-linux more(1)"),
    # bat --pager runs a program; `bat cache --build` writes its cache.
    "bat": ReadOnly(every_option=True, except_long=_set("--pager"), check="bat",
                    source="bat(1), https://github.com/sharkdp/bat#usage"),
    # man -P/--pager and -H/--html run programs, -C/--config-file reads another config,
    # -p/--preprocessor chooses filters, -X runs gxditview; only lookup options are allowed.
    "man": ReadOnly(flags="afkwWlu7iIh", valued="sSLemE", long=_set("--all", "--whatis", "--apropos", "--where",
                                                                    "--path", "--location", "--where-cat",
                                                                    "--local-file", "--update", "--ascii",
                                                                    "--ignore-case", "--match-case", "--help",
                                                                    "--version", "--regex", "--wildcard",
                                                                    "--names-only"),
                    long_valued=_set("--sections", "--locale", "--systems", "--extension", "--encoding"),
                    source="man(1), man-db, https://man7.org/linux/man-pages/man1/man.1.html"),
    # info -o/--output and --dribble write files.
    "info": ReadOnly(every_option=True, except_short="o", except_long=_set("--output", "--dribble"),
                     source="GNU Texinfo manual, Invoking info"),
    "help": _NO_ARGS_NEEDED, "type": _NO_ARGS_NEEDED, "which": _NO_ARGS_NEEDED,
    "whereis": ReadOnly(every_option=True, source="util-linux whereis(1)"),
    "cd": _NO_ARGS_NEEDED, "wait": _NO_ARGS_NEEDED,
    # bash history: -c/-d/-a/-n/-r/-w/-s change or write the history; listing only.
    "history": ReadOnly(max_operands=1, source="bash(1), SHELL BUILTIN COMMANDS, history"),
    # --- scripts read as data: a program in the arguments is checked on its own ---
    "sed": ReadOnly(check="sed", source="GNU sed manual, https://www.gnu.org/software/sed/manual/sed.html"),
    "awk": ReadOnly(check="awk", source="gawk manual, https://www.gnu.org/software/gawk/manual/gawk.html"),
    "gawk": ReadOnly(check="awk", source="gawk manual"),
    "mawk": ReadOnly(check="awk", source="mawk(1)"),
    "nawk": ReadOnly(check="awk", source="POSIX awk"),
    "git": ReadOnly(check="git", source="git(1), https://git-scm.com/docs"),
}

# git: read-only subcommands (https://git-scm.com/docs, each page) and the options that
# write or run something even there.
GIT_READ = frozenset({
    "status", "log", "diff", "show", "blame", "annotate", "rev-parse", "describe", "ls-files",
    "ls-tree", "shortlog", "grep", "whatchanged", "cat-file", "help", "version", "rev-list",
    "count-objects", "name-rev", "show-ref", "for-each-ref", "merge-base", "diff-tree",
    "diff-files", "diff-index", "check-ignore", "check-attr", "verify-commit", "verify-tag",
    "range-diff", "cherry",
})
# --output=FILE (diff options: log, show, diff ...) writes; --ext-diff runs diff.external;
# grep -O/--open-files-in-pager runs a pager; cat-file --textconv/--filters run filters;
# help -w/-i/--web/--info start a browser or info viewer.
GIT_WRITING_OPTIONS = frozenset({"--output", "--ext-diff", "--open-files-in-pager", "-O",
                                 "--textconv", "--filters", "--web", "-w"})
GIT_OPTIONS_BY_SUBCOMMAND_SHORT = {"grep": "O", "help": "w"}
# git -c KEY=VALUE keys that only change how output looks. Anything else may run a
# program (core.fsmonitor, core.pager, diff.external, core.sshCommand, alias.*,
# *.textconv, credential.helper, core.hooksPath ...): medium.
GIT_SAFE_CONFIG_PREFIXES = ("color.", "advice.")
GIT_SAFE_CONFIG_KEYS = frozenset({
    "core.quotepath", "core.abbrev", "diff.renames", "diff.noprefix", "diff.mnemonicprefix",
    "diff.relative", "diff.context", "diff.interhunkcontext", "log.date", "log.decorate",
    "log.abbrevcommit", "log.follow", "log.showroot", "column.ui", "status.short",
    "status.branch", "status.showuntrackedfiles", "grep.linenumber", "grep.extendedregexp",
    "user.name", "user.email", "i18n.logoutputencoding",
})
# A read-only name only counts from these directories: ./ls or bin/cat is a project file.
SYSTEM_PROGRAM_DIRS = ("/bin/", "/usr/bin/", "/usr/local/bin/", "/sbin/", "/usr/sbin/",
                       "/opt/homebrew/bin/", "/usr/local/sbin/")
# Environment assignments in front of a command that cannot make it run anything else
# (PAGER=, GIT_EXTERNAL_DIFF=, LESSOPEN=, LD_PRELOAD=, BASH_ENV=, PATH= ... can: medium).
SAFE_ASSIGNMENTS = frozenset({
    "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_COLLATE", "LC_MESSAGES", "LC_NUMERIC",
    "LC_TIME", "TZ", "COLUMNS", "LINES", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE",
    "FORCE_COLOR", "TERM", "GIT_OPTIONAL_LOCKS",
})
# Pager variables are safe only with these values.
PAGER_VARIABLES = frozenset({"PAGER", "GIT_PAGER", "MANPAGER", "SYSTEMD_PAGER"})
SAFE_PAGERS = frozenset({"", "cat", "less", "more"})
# Programs whose bare "--version"/"--help" (or "version") only prints. An unknown
# program's --help is still an unknown program: medium.
VERSION_QUERIES = frozenset({"--version", "-V", "--help", "-h", "version", "-version"})
VERSION_ONLY = frozenset({
    "python", "python3", "python2", "node", "deno", "bun", "ruby", "perl", "php", "java",
    "javac", "go", "rustc", "cargo", "rustup", "gcc", "g++", "cc", "clang", "make", "cmake",
    "ninja", "pip", "pip3", "pipx", "uv", "poetry", "npm", "npx", "yarn", "pnpm", "docker",
    "podman", "kubectl", "helm", "terraform", "gh", "aws", "gcloud", "az", "brew", "apt",
    "dotnet", "swift", "ruff", "mypy", "pytest", "black", "tsc", "sqlite3", "psql", "mysql",
    "bash", "sh", "zsh", "curl", "wget", "ssh", "rsync", "tmux", "vim", "nvim", "emacs",
})
