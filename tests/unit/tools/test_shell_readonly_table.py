"""``low`` is allowlist-based -- one test per entry of the read-only table.

For every command in :data:`agenttui.agent.tools.shell_readonly.READ_ONLY`: a
read-only use is ``low``; where the tool's manual documents a use that writes a
file, runs a program or changes the system, that use is at least ``medium``
(the manual is cited in the table's ``source``).
"""

from __future__ import annotations

import shlex
import shutil
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agenttui.agent.tools.shell_readonly import READ_ONLY
from agenttui.agent.tools.shell_risk import shell_risk
from agenttui.agent.tools.shell_scripts import sed_script_read_only

# command -> (read-only uses, uses that write/run something or are not known to be read-only)
EXAMPLES: dict[str, tuple[list[str], list[str]]] = {
    "ls": (["ls", "ls -la src", "ls --color=never -1"], ["ls > listing.txt"]),
    "dir": (["dir -l"], []),
    "ll": (["ll"], []),
    "la": (["la"], []),
    "cat": (["cat README.md", "cat -n a b", "cat < in.txt"], ["cat a > b"]),
    "head": (["head -n 20 app.log", "head -20 f"], []),
    "tail": (["tail -f app.log", "tail -n +5 f"], []),
    "wc": (["wc -l src/*.py", "wc -l < f"], []),
    "tac": (["tac f"], []),
    "nl": (["nl -ba f"], []),
    "od": (["od -c f"], []),
    "cut": (["cut -d, -f1 f.csv"], []),
    "tr": (["tr a-z A-Z < f"], []),
    "fold": (["fold -w 80 f"], []),
    "expand": (["expand -t 4 f"], []),
    "unexpand": (["unexpand -a f"], []),
    "paste": (["paste -sd, f"], []),
    "basename": (["basename /a/b.txt .txt"], []),
    "dirname": (["dirname /a/b"], []),
    "realpath": (["realpath -e ."], []),
    "readlink": (["readlink -f link"], []),
    "pwd": (["pwd", "pwd -P"], []),
    "stat": (["stat -c %s f"], []),
    "du": (["du -sh ."], []),
    "df": (["df -h"], []),
    "md5sum": (["md5sum f", "md5sum -c sums.md5"], []),
    "sha1sum": (["sha1sum f"], []),
    "sha224sum": (["sha224sum f"], []),
    "sha256sum": (["sha256sum f"], []),
    "sha384sum": (["sha384sum f"], []),
    "sha512sum": (["sha512sum f"], []),
    "b2sum": (["b2sum f"], []),
    "cksum": (["cksum f"], []),
    "comm": (["comm -12 a b"], []),
    "seq": (["seq 1 10"], []),
    "echo": (["echo hello", "echo 'drop the tables from the sentence'"], ["echo data > out.txt"]),
    "printf": (["printf '%s\\n' a"], []),
    "true": (["true"], []),
    "false": (["false"], []),
    "test": (["test -f x"], []),
    "[": (["[ -d src ]"], []),
    "whoami": (["whoami"], []),
    "id": (["id -u"], []),
    "groups": (["groups"], []),
    "uname": (["uname -a"], []),
    "nproc": (["nproc"], []),
    "printenv": (["printenv HOME"], []),
    "sleep": (["sleep 1"], []),
    "tty": (["tty"], []),
    "logname": (["logname"], []),
    "uptime": (["uptime -p"], []),
    "users": (["users"], []),
    "who": (["who -b"], []),
    "arch": (["arch"], []),
    "factor": (["factor 42"], []),
    "numfmt": (["numfmt --to=iec 1048576"], []),
    "join": (["join -t, a b"], []),
    "sort": (["sort -k2 -t, f", "sort -u f", "sort -rn f"],
             ["sort -o FILE in", "sort -ro FILE in", "sort --output=FILE in", "sort --out=FILE in",
              "sort --compress-program=evil f"]),
    "uniq": (["uniq -c in.txt", "uniq -f 2 in.txt", "uniq in 2>/dev/null"], ["uniq IN OUT", "uniq -c in out"]),
    "date": (["date", "date +%F", "date -u +%s", "date -d yesterday +%F", "date --date='2 days ago'"],
             ["date -s '2020-01-01'", "date --set=now", "date 010100002020"]),
    "rev": (["rev f"], []),
    "column": (["column -t f"], []),
    "cal": (["cal 2026"], []),
    "lsblk": (["lsblk -f"], []),
    "lscpu": (["lscpu"], []),
    "free": (["free -h"], []),
    "ps": (["ps aux"], []),
    "locale": (["locale -a"], []),
    "diff": (["diff -u a b", "diff -r dir1 dir2"], []),
    "cmp": (["cmp a b"], []),
    "strings": (["strings -n 8 bin"], []),
    "hexdump": (["hexdump -C f"], []),
    "zcat": (["zcat f.gz"], []),
    "xxd": (["xxd file.bin", "xxd -l 64 -c 16 f"], ["xxd -r hex out.bin", "xxd in out"]),
    "file": (["file f", "file -b --mime-type f"], ["file -C -m magic", "file --compile"]),
    "tree": (["tree -L 2", "tree -a src"], ["tree -o out.txt"]),
    "hostname": (["hostname", "hostname -f", "hostname --short"],
                 ["hostname NAME", "hostname -F /etc/hostname", "hostname -b x"]),
    "grep": (["grep -rn TODO src", "grep -e x -f patterns.txt f"], []),
    "egrep": (["egrep 'a|b' f"], []),
    "fgrep": (["fgrep -x word f"], []),
    "rg": (["rg TODO", "rg -n -g '*.py' TODO src", "rg --json x"],
           ["rg --pre ./evil foo", "rg --pre=./evil foo", "rg --hostname-bin ./evil x"]),
    "ag": (["ag foo"], ["ag --pager 'sh -c id' foo"]),
    "ack": (["ack foo"], ["ack --pager=evil foo", "ack --output='$&' foo"]),
    "fd": (["fd -e py", "fd -H name"], ["fd -x rm", "fd --exec-batch rm", "fd -e py -X rm"]),
    "find": (["find . -name '*.py'", "find . -type f -mtime -1 -print0", "find . -maxdepth 2 -printf '%p\\n'"],
             ["find . -fprint out", "find . -fls out", "find . -fprintf out '%p'", "find . -newfeature x"]),
    "jq": (["jq -r .a f.json", "jq --slurpfile x y.json . f"], []),
    "yq": (["yq '.a' f.yaml", "yq e '.a' f.yaml"], ["yq -i '.a=1' f.yaml", "yq --inplace '.a=1' f.yaml"]),
    "less": (["less -N file", "less -R file", "less -p pattern f"],
             ["less +!CMD file", "less '+!id' file", "less ++!id f", "less -o log f", "less --log-file=x f",
              "less -k keys f"]),
    "more": (["more f", "more -d f"], ["more -Z f"]),
    "bat": (["bat f", "bat -n --style=plain f"], ["bat --pager 'sh -c id' f", "bat cache --build"]),
    "man": (["man ls", "man -k printf", "man 3 printf", "man -s 3 printf"],
            ["man -P 'sh -c id' ls", "man --pager=evil ls", "man -H ls", "man -C evil.conf ls"]),
    "info": (["info coreutils"], ["info -o out ls", "info --dribble=keys ls", "info --output out ls"]),
    "help": (["help cd"], []),
    "type": (["type ls"], []),
    "which": (["which python"], []),
    "whereis": (["whereis ls"], []),
    "cd": (["cd src"], []),
    "wait": (["wait"], []),
    "history": (["history", "history 20"], ["history -c", "history -w file", "history -d 5"]),
    "sed": (["sed -n 1,10p file.txt", "sed 's/\\./,/g' f", "sed -n '/a/,/b/{p}' f", "sed -n '$p' f",
             "sed '1i header' f", "sed -E 's/(a|b)+/x/2' f", "sed --sandbox 'w out' f", "sed -e 's/a/b/' -e 's/c/d/' f"],
            ["sed -n '1e CMD'", "sed 'w FILE'", "sed -i 's/a/b/' f", "sed -i.bak s/a/b/ f", "sed 's/a/b/' -i f",
             "sed -n 's/a/b/w out' f", "sed 's/a/b/e' f", "sed 'r /etc/passwd' f", "sed -f script.sed f",
             "sed --in-place s/a/b/ f", "sed -e 'W out' f"]),
    "awk": (["awk '{print $1}' data.txt", "awk -F, '$3 > 5 {print $1}' f", "awk '/foo|bar/ {n++} END {print n}' f",
             "awk 'BEGIN{printf(\"%d\\n\", 1>0)}'", "awk -v n=3 'NR<=n' f", "awk --sandbox '{system(\"id\")}'"],
            ["awk 'BEGIN{system(\"id\")}'", "awk '{getline line < \"f\"}'", "awk 'BEGIN{while((\"ls\"|getline l)>0) print l}'",
             "awk '{print > \"out\"}' f", "awk '{print $1 > $2}' f", "awk '{print | \"sh\"}' f", "awk -f prog.awk f",
             "awk '{f=\"system\"; @f(\"id\")}'"]),
    "gawk": (["gawk '{print NF}' f"], ["gawk -l ext '{print}'", "gawk -i lib.awk '{print}'", "gawk -o x '{print}'"]),
    "mawk": (["mawk '{print}' f"], ["mawk -W exec prog"]),
    "nawk": (["nawk '{print}' f"], ["nawk 'BEGIN{system(\"id\")}'"]),
    "git": (["git status", "git log --oneline -10", "git diff HEAD~1", "git show HEAD", "git -C repo status",
             "git -c color.ui=always log", "git branch", "git stash list", "git grep -n foo", "git blame f"],
            ["git -c core.fsmonitor=CMD status", "git -c diff.external=CMD diff", "git log --output=FILE",
             "git diff --out=F", "git -c core.pager='sh -c id' log", "git -c alias.st='!id' st",
             "git grep -O foo", "git -p log", "git --config-env=core.pager=X log", "git diff --ext-diff"]),
}

# Each of these was rated low; each must be at least medium.
ISSUE_COMMANDS = [
    "sed -n '1e CMD'", "sed 'w FILE'", "git -c core.fsmonitor=CMD status", "git -c diff.external=CMD diff",
    "awk 'BEGIN { \"date\" | getline d; print d }'", "awk 'BEGIN { system(\"CMD\") }'", "sort -o FILE in.txt",
    "git log --output=FILE", "man -P CMD ls", "rg --pre CMD pattern", "less +!CMD file", "yq -i '.a = 1' f.yaml",
    "uniq IN OUT", "date -s '2026-01-01 00:00'", "hostname NAME",
]


def test_every_table_entry_has_examples():
    assert set(EXAMPLES) == set(READ_ONLY)
    assert all(entry.source for entry in READ_ONLY.values())


@pytest.mark.parametrize("name", sorted(READ_ONLY))
def test_table_entry(name):
    read_only, writing = EXAMPLES[name]
    assert read_only, name
    for command in read_only:
        assert shell_risk(command) == "low", command
    for command in writing:
        assert shell_risk(command) != "low", command


@pytest.mark.parametrize("command", ISSUE_COMMANDS)
def test_commands_that_run_code_or_write_files_are_not_low(command):
    assert shell_risk(command) in ("medium", "high"), command


@pytest.mark.parametrize("command", [
    "PAGER='sh -c id' man ls", "LESSOPEN='|id %s' less f", "GIT_EXTERNAL_DIFF=x git diff",
    "LD_PRELOAD=/tmp/x.so ls", "env -S 'rm -rf x'", "BASH_ENV=/tmp/x bash -c ls",
])
def test_environment_that_can_run_a_program_is_not_low(command):
    assert shell_risk(command) != "low", command


@pytest.mark.parametrize("command", ["LANG=C sort f", "GIT_PAGER=cat git log", "TZ=UTC date"])
def test_harmless_environment_keeps_low(command):
    assert shell_risk(command) == "low", command


@pytest.mark.parametrize("command", ["./deploy.sh --help", "some-tool --version", "unknowncmd", "./ls -la",
                                     "bin/cat f", "/tmp/x/grep foo", "./python --version"])
def test_unknown_and_project_local_programs_are_medium(command):
    assert shell_risk(command) == "medium", command


@pytest.mark.parametrize("command", ["python --version", "node --version", "go version", "/usr/bin/ls -la",
                                     "/bin/cat f"])
def test_system_programs_and_version_queries_are_low(command):
    assert shell_risk(command) == "low", command


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("sed") is None or "GNU" not in subprocess.run(
    ["sed", "--version"], capture_output=True, text=True).stdout, reason="needs GNU sed (--sandbox)")
@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="sedwWrRpnil01$/\\;{}!:abty,~+-=#gIM \n", max_size=30))
def test_a_sed_script_rated_read_only_is_one_gnu_sed_sandbox_accepts(script):
    """GNU sed's own --sandbox rejects exactly the e/r/w commands: it is the oracle."""
    read_only = sed_script_read_only(script)
    proc = subprocess.run(["sed", "--sandbox", "-n", "-e", script], input="x\n", capture_output=True,
                          text=True, timeout=10)
    if "disabled in sandbox mode" in proc.stderr:
        assert not read_only, script
    assert shell_risk(f"awk {shlex.quote(script)} f") in ("low", "medium", "high")
    assert shell_risk(f"find . {script}") in ("low", "medium", "high")
