"""``agenttui doctor``: checks with a verdict and a fix for each failure."""

from __future__ import annotations

import argparse
import json
import os

MARKS = {"ok": "ok  ", "warn": "WARN", "fail": "FAIL", "skip": "skip"}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("doctor", help="check the installation, config, keys, endpoint and data")
    parser.add_argument("--offline", action="store_true", help="do not contact the endpoint")
    parser.add_argument("--timeout", type=float, default=3.0, help="GET /models timeout in seconds (default 3)")
    parser.add_argument("--probe-timeout", type=float, default=None,
                        help="seconds the one-token chat probe may take (default: [agent] request_timeout)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from agenttui.core.config.paths import Paths
    from agenttui.core.doctor.checks import DoctorContext, run_checks

    paths = Paths.from_env()
    probe_timeout = args.probe_timeout
    if probe_timeout is None:
        from agenttui.core.config.file import load_settings

        probe_timeout = float(load_settings(paths).settings.agent.request_timeout)
    ctx = DoctorContext(paths=paths, environ=os.environ, endpoint_timeout=args.timeout,
                        offline=args.offline, probe_timeout=probe_timeout)
    checks = run_checks(ctx)
    failed = [c for c in checks if c.status == "fail"]
    if args.json:
        print(json.dumps({"ok": not failed, "checks": [asdict(c) for c in checks]}, indent=2))
        return 1 if failed else 0
    from agenttui.cli.common import inert  # details quote the endpoint's answers

    width = max(len(c.name) for c in checks)
    for check in checks:
        print(f"[{MARKS[check.status]}] {check.name:<{width}}  {inert(check.detail)}")
        if check.fix and check.status in ("fail", "warn"):
            print(f"       {'':<{width}}  fix: {inert(check.fix)}")
    warned = sum(c.status == "warn" for c in checks)
    if failed:
        print(f"\nverdict: {len(failed)} problem(s) to fix" + (f", {warned} warning(s)" if warned else ""))
        return 1
    print("\nverdict: all good" + (f" ({warned} warning(s))" if warned else ""))
    return 0
