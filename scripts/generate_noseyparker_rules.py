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

from generated_rule_module import yaml_rules_main
from yaml_secret_rules import ROOT


def main(argv: list[str] | None = None) -> int:
    # Apache-2.0 §4(d): the NOTICE travels with derived works.
    return yaml_rules_main(argv, doc=__doc__ or "", name="noseyparker", title="Nosey Parker's builtin rules",
                           rules_dir="crates/noseyparker/data/default/builtin/rules",
                           out=str(ROOT / "src/agenttui/security/noseyparker_rules.py"),
                           examples_out=str(ROOT / "tests/unit/security/data/noseyparker_examples.json"),
                           source="https://github.com/praetorian-inc/noseyparker", license_of="NOTICE")


if __name__ == "__main__":
    raise SystemExit(main())
