"""Regenerate ``src/agenttui/security/kingfisher_rules.py`` from Kingfisher's rules.

    python3 scripts/generate_kingfisher_rules.py --git-dir PATH/TO/kingfisher/.git

Needs PyYAML (a development tool only: the app reads the generated module).
Source: ``data/rules/*.yml`` of https://github.com/mongodb/kingfisher
(Apache License 2.0, MongoDB, Inc.). Rules marked ``visible: false`` capture
identifiers that Kingfisher uses only to validate another rule's secret
(AWS key ids, app ids): they are skipped, since an id is no secret. The module header keeps the licence and the commit;
``tests/unit/security/data/kingfisher_examples.json`` gets the rules' own
examples and negative examples. Conversion: see yaml_secret_rules.py.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import yaml
from yaml_secret_rules import APACHE_BOILERPLATE, ROOT, convert_rules, git, report, write_examples, write_module

RULES_DIR = "data/rules"
OUT = ROOT / "src/agenttui/security/kingfisher_rules.py"
EXAMPLES = ROOT / "tests/unit/security/data/kingfisher_examples.json"
SOURCE = "https://github.com/mongodb/kingfisher"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--git-dir", required=True, help="a kingfisher git directory (reads HEAD)")
    args = ap.parse_args(argv)
    commit = git(args.git_dir, "rev-parse", "HEAD").strip()
    names = [n for n in git(args.git_dir, "ls-tree", "-r", "--name-only", "HEAD", RULES_DIR).split()
             if n.endswith((".yml", ".yaml"))]
    raw = []
    for name in sorted(names):
        raw.extend(yaml.safe_load(git(args.git_dir, "show", f"HEAD:{name}")).get("rules") or [])
    rules, skipped, examples = convert_rules(raw, skip_invisible=True)
    # No NOTICE file upstream: the copyright holder and the licence's notice.
    holder = "Kingfisher, Copyright MongoDB, Inc. <https://github.com/mongodb/kingfisher>"
    license_text = holder + "\n\n" + APACHE_BOILERPLATE
    write_module(Path(OUT), title="Kingfisher's rules", source=SOURCE, commit=commit,
                 files=f"{RULES_DIR}/*.yml", license_name="Apache License 2.0", license_text=license_text,
                 rules=rules, skipped=skipped, script="scripts/generate_kingfisher_rules.py")
    write_examples(EXAMPLES, SOURCE, commit, "Apache License 2.0", examples)
    report("kingfisher", rules, skipped)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
