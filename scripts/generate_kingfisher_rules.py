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

from generated_rule_module import yaml_rules_main
from yaml_secret_rules import ROOT


def main(argv: list[str] | None = None) -> int:
    # No NOTICE file upstream: the copyright holder and the licence's notice.
    return yaml_rules_main(argv, doc=__doc__ or "", name="kingfisher", title="Kingfisher's rules",
                           rules_dir="data/rules",
                           out=str(ROOT / "src/agenttui/security/kingfisher_rules.py"),
                           examples_out=str(ROOT / "tests/unit/security/data/kingfisher_examples.json"),
                           source="https://github.com/mongodb/kingfisher", license_of=None,
                           holder="Kingfisher, Copyright MongoDB, Inc. <https://github.com/mongodb/kingfisher>")


if __name__ == "__main__":
    raise SystemExit(main())
