"""``agenttui paths``: print every location agenttui uses (docs/storage.md#locations)."""

from __future__ import annotations

import argparse
import json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("paths", help="print where config, memory and history live")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from agenttui.core.config.paths import Paths
    from agenttui.core.crash_log import state_dirs

    locations = {name: str(path) for name, path in Paths.from_env().describe().items()}
    locations["log_dir"] = str(state_dirs("log")[0])  # crash logs
    locations["recovery_dir"] = str(state_dirs("recovery")[0])  # messages history could not take
    if args.json:
        print(json.dumps(locations, indent=2))
    else:
        width = max(map(len, locations))
        for name, path in locations.items():
            print(f"{name:<{width}}  {path}")
    return 0
