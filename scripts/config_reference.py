"""Regenerate README's configuration reference from the schema (core/config/schema.py).

    python scripts/config_reference.py --write   # rewrite the block between the markers
    python scripts/config_reference.py --check   # exit 1 if README differs (what the test checks)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def main(argv: list[str] | None = None) -> int:
    from agenttui.core.config.schema import replace_reference

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite README.md in place")
    parser.add_argument("--check", action="store_true", help="exit 1 if README.md is out of date")
    args = parser.parse_args(argv)
    text = README.read_text(encoding="utf-8")
    fresh = replace_reference(text)
    if args.write and fresh != text:
        README.write_text(fresh, encoding="utf-8")
        print(f"{README}: configuration reference regenerated")
    elif fresh != text:
        print(f"{README}: configuration reference is out of date; run {sys.argv[0]} --write")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
