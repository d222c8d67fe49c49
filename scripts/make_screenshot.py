"""Regenerate ``docs/screenshot.svg``: the main screen over fixed demo data.

    .venv/bin/python scripts/make_screenshot.py [--output docs/screenshot.svg]

Everything that could vary between runs is pinned, so the SVG only changes
when the UI does:

* a throw-away ``AGENTTUI_HOME`` (the user's real data is never read), an
  explicit environment (model name, no API key, the keyring's ``fail``
  backend) and ``TZ=UTC``;
* memory items and conversations are written through the real stores (so
  redaction and the file formats are the real ones), then their timestamps
  are rewritten to fixed dates in a past year, which the panes show as plain
  dates, never "today";
* the temporary folder's name never reaches the screen (the profile is
  resolved from a bound project folder, but only its name is shown);
* the app runs headless at 120x36 with the cursor blink off, and the SVG
  title is fixed (Textual would otherwise put a timestamp in it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIZE = (120, 36)
TITLE = "agenttui"
MODEL = "llama3.1:8b"
PROFILE = "webshop"

NOTES = [  # (scope, text, pinned)
    ("user", "Prefers short answers; summarise command output over 20 lines", True),
    ("user", "Writes Python with type hints; tests with pytest", False),
    ("user", "Uses Neovim and fish shell", False),
    ("profile", "Staging deploys go through `make deploy-staging`, never by hand", False),
    ("profile", "Payments code is frozen until the audit on Friday", False),
]
FACTS = [  # (scope, key, value)
    ("user", "language", "en"),
    ("user", "timezone", "Europe/Berlin"),
    ("profile", "package_manager", "uv"),
]
CONVERSATIONS = [  # (title, day, [(role, content)]) -- the last one is opened
    ("Flaky checkout test", "2025-10-28", [
        ("user", "test_checkout fails one run in five, any idea?"),
        ("assistant", "It shares the `cart` fixture across tests; make it function-scoped."),
    ]),
    ("Release notes for 2.4", "2025-11-02", [
        ("user", "Draft the release notes for 2.4 from the decisions log."),
        ("assistant", "Done: three features, two fixes, one migration note."),
    ]),
    ("Speed up the product page", "2025-11-03", [
        ("user", "The product page takes 2 s to render. Where do I start?"),
        ("assistant",
         "Short version, as you like it:\n\n"
         "1. **Profile first** -- `py-spy top --pid $(pgrep -f gunicorn)`\n"
         "2. **N+1 queries** are the usual suspect: prefetch the variants.\n\n"
         "```python\n"
         "products = Product.objects.prefetch_related(\n"
         "    \"variants\")\n"
         "```\n\n"
         "3. Cache the rendered price block for 60 s.\n\n"
         "(Noted in memory: staging deploys go through `make deploy-staging`.)"),
        ("user", "Prefetching cut it to 300 ms. Thanks!"),
        ("assistant", "Nice. Want me to log that in decisions.md?"),
    ]),
]


def _pin_environment(home: Path) -> dict[str, str]:
    os.environ["TZ"] = "UTC"
    time.tzset()
    env = {
        "AGENTTUI_HOME": str(home),
        "AGENTTUI_MODEL": MODEL,
        "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
        "TZ": "UTC",
    }
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "AGENTTUI_PROFILE"):
        os.environ.pop(name, None)
    os.environ.update(env)
    return env


def _freeze_memory(paths, day: str) -> None:
    """Rewrite every timestamp in the memory files to ``day`` (items keep their order)."""
    files = [paths.user_memory_file, *paths.profiles_dir.glob("*/memory.json")]
    for n, path in enumerate(sorted(files)):
        data = json.loads(path.read_text(encoding="utf-8"))
        for i, item in enumerate(data["items"]):
            moment = f"{day}T09:{n:02d}:{i:02d}+00:00"
            item["created"] = item["updated"] = moment
            item["last_used"] = None
            item["use_count"] = 0
            item["id"] = f"{n:02d}{i:02d}" + "0" * 28  # uuid4 hex otherwise
        path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _freeze_history(db_path: Path, days: dict[str, str]) -> None:
    with sqlite3.connect(db_path) as db:
        rows = db.execute("SELECT id, title FROM conversations").fetchall()
        for n, (cid, title) in enumerate(sorted(rows, key=lambda r: days[r[1]])):
            moment = f"{days[title]}T1{n}:00:00.000000+00:00"
            db.execute("UPDATE conversations SET created = ?, updated = ? WHERE id = ?",
                       (moment, moment, cid))
            db.execute("UPDATE messages SET created = ? WHERE conversation_id = ?", (moment, cid))


def build_demo(home: Path, env: dict[str, str]):
    """Write the demo data into ``home`` and return services over it."""
    from agenttui.bootstrap import build_services
    from agenttui.core.config.paths import Paths
    from agenttui.core.config.profiles import ProfileStore
    from agenttui.core.models import Message

    paths = Paths.from_env(env)
    project = home / "projects" / PROFILE
    project.mkdir(parents=True)
    ProfileStore(paths).create(PROFILE, bind=project)

    services = build_services(paths=paths, cwd=project, environ=env)
    for scope, text, pinned in NOTES:
        result = services.memory.add_note(text, scope=scope, source="explicit", pinned=pinned)
        assert result.ok, (text, result.reason)
    for scope, key, value in FACTS:
        result = services.memory.set_fact(key, value, scope=scope, source="explicit")
        assert result.ok, (key, result.reason)
    for title, _day, messages in CONVERSATIONS:
        conversation = services.history.create_conversation(title, model=MODEL)
        for role, content in messages:
            services.history.append(conversation.id, Message(role=role, content=content))
    services.close()

    _freeze_memory(paths, "2025-11-01")
    _freeze_history(paths.history_db(PROFILE), {t: d for t, d, _ in CONVERSATIONS})
    return build_services(paths=paths, cwd=project, environ=env)


async def render(services, output: Path) -> str:
    from agenttui.ui.app import make_app
    from agenttui.ui.app_background import INDEXER_GROUP
    from agenttui.ui.widgets.prompt_input import PromptInput

    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(3):
            # Not the history indexer: it runs until the app exits (it starts on a timer, so a
            # slow machine reaches it here and an unfiltered wait never returns).
            workers = [w for w in app.workers if w.group != INDEXER_GROUP]
            if workers:  # an empty list would mean every worker to Textual
                await app.workers.wait_for_complete(workers)
            await pilot.pause()
        app.screen.query_one(PromptInput).cursor_blink = False
        await pilot.pause()
        svg = app.export_screenshot(title=TITLE)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(svg, encoding="utf-8")
    return svg


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=ROOT / "docs" / "screenshot.svg")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="agenttui-screenshot-") as tmp:
        env = _pin_environment(Path(tmp) / "home")
        services = build_demo(Path(tmp) / "home", env)
        try:
            asyncio.run(render(services, args.output))
        finally:
            services.close()
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
