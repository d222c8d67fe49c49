"""What every scripts/generate_*_rules.py shares: reading a source's git directory,
the generated module's header, and (for the YAML rule sets) the whole run.

The header says the module is generated, how to regenerate it, where the rules
come from (source and commit) and carries the source's licence text, indented
inside the module docstring.
"""

from __future__ import annotations

import argparse
import subprocess


def git(git_dir: str, *args: str) -> str:
    return subprocess.run(["git", f"--git-dir={git_dir}", *args], check=True, capture_output=True,
                          text=True).stdout


def module_header(intro: str, license_text: str) -> str:
    """The module docstring (`intro`, then the licence indented) and the lines before the data."""
    return (
        f'"""{intro}\n\n'
        + "\n".join(("    " + ln).rstrip() for ln in license_text.strip().splitlines())
        + '\n"""\n\nfrom typing import Any\n\n# fmt: off\n# ruff: noqa: E501\n'
    )


def yaml_rules_main(argv: list[str] | None, *, doc: str, name: str, title: str, rules_dir: str,
                    out: str, examples_out: str, source: str, license_of: str | None, holder: str = "") -> int:
    """Regenerate a YAML rule set (Nosey Parker, Kingfisher) from `--git-dir`'s HEAD.

    `license_of`: the upstream file that travels with derived works (Apache-2.0
    §4(d): NOTICE), or None with `holder` naming the copyright holder instead.
    """
    import yaml
    from yaml_secret_rules import APACHE_BOILERPLATE, convert_rules, report, write_examples, write_module

    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--git-dir", required=True, help=f"a {name} git directory (reads HEAD)")
    args = ap.parse_args(argv)
    commit = git(args.git_dir, "rev-parse", "HEAD").strip()
    names = [n for n in git(args.git_dir, "ls-tree", "-r", "--name-only", "HEAD", rules_dir).split()
             if n.endswith((".yml", ".yaml"))]
    raw = []
    for path in sorted(names):
        raw.extend(yaml.safe_load(git(args.git_dir, "show", f"HEAD:{path}")).get("rules") or [])
    rules, skipped, examples = convert_rules(raw)
    notice = git(args.git_dir, "show", f"HEAD:{license_of}").strip() if license_of else holder
    from pathlib import Path

    write_module(Path(out), title=title, source=source, commit=commit, files=f"{rules_dir}/*.yml",
                 license_name="Apache License 2.0", license_text=notice + "\n\n" + APACHE_BOILERPLATE,
                 rules=rules, skipped=skipped, script=f"scripts/generate_{name}_rules.py")
    write_examples(Path(examples_out), source, commit, "Apache License 2.0", examples)
    report(name, rules, skipped)
    return 0
