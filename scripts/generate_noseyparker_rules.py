"""Regenerate ``src/agenttui/security/noseyparker_rules.py`` from Nosey Parker's rules.

    python3 scripts/generate_noseyparker_rules.py --git-dir PATH/TO/noseyparker/.git

Needs PyYAML (a development tool only: the app reads the generated module).
Source: ``crates/noseyparker/data/default/builtin/rules/*.yml`` of
https://github.com/praetorian-inc/noseyparker (Apache License 2.0,
Copyright Praetorian). The module header keeps the licence and the commit;
``tests/unit/security/data/noseyparker_examples.json`` gets the rules' own
examples and negative examples. Conversion: see yaml_secret_rules.py.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import yaml
from yaml_secret_rules import APACHE_BOILERPLATE, ROOT, convert_rules, git, report, write_examples, write_module

RULES_DIR = "crates/noseyparker/data/default/builtin/rules"
OUT = ROOT / "src/agenttui/security/noseyparker_rules.py"
EXAMPLES = ROOT / "tests/unit/security/data/noseyparker_examples.json"
SOURCE = "https://github.com/praetorian-inc/noseyparker"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--git-dir", required=True, help="a noseyparker git directory (reads HEAD)")
    args = ap.parse_args(argv)
    commit = git(args.git_dir, "rev-parse", "HEAD").strip()
    names = [n for n in git(args.git_dir, "ls-tree", "-r", "--name-only", "HEAD", RULES_DIR).split()
             if n.endswith((".yml", ".yaml"))]
    raw = []
    for name in sorted(names):
        raw.extend(yaml.safe_load(git(args.git_dir, "show", f"HEAD:{name}")).get("rules") or [])
    rules, skipped, examples = convert_rules(raw, skip_invisible=False)
    # Apache-2.0 §4(d): the NOTICE travels with derived works.
    license_text = git(args.git_dir, "show", "HEAD:NOTICE").strip() + "\n\n" + APACHE_BOILERPLATE
    write_module(Path(OUT), title="Nosey Parker's builtin rules", source=SOURCE, commit=commit,
                 files=f"{RULES_DIR}/*.yml", license_name="Apache License 2.0", license_text=license_text,
                 rules=rules, skipped=skipped, script="scripts/generate_noseyparker_rules.py")
    write_examples(EXAMPLES, SOURCE, commit, "Apache License 2.0", examples)
    report("noseyparker", rules, skipped)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
