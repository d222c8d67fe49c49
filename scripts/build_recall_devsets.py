"""Convert public multi-session conversation datasets into the recall dev-set format.

    .venv/bin/python scripts/build_recall_devsets.py [--mirror /work/.mirror] [--out bench/data/recall_dev]
        [--dataset realmem|realtalk|memdaily ...] [--realmem-personas Lin_Wanyu,Pak_Budi]
        [--memdaily-pool 30] [--all-personas]

Each source is read from a bare git mirror of its repository (``<mirror>/<owner>+<name>/repo``,
what the search tool's ``fetch`` leaves) at the commit recorded in ``SOURCES``, or from a plain
directory holding the same files (``--raw-dir DATASET=DIR``). The output is gzipped JSONL, one
*history* per line: one profile's conversations, imported in order, and the questions asked of it
(``bench/bench_recall_public.py`` reads it)::

    {"dataset": "realmem", "history": "Lin_Wanyu", "lang": "en",
     "sessions": [{"id": "993311fa", "turns": [
         {"id": "993311fa:2", "role": "user", "time": "2025-12-17T10:02:00", "text": "..."}]}],
     "questions": [{"qid": "Lin_Wanyu:Q-0006", "type": "Dynamic Incremental", "text": "...",
                    "now": "2025-12-18T09:59:00", "after_sessions": 14,
                    "evidence": ["4b6cce8a:5"], "answer": "..."}]}

``after_sessions``: the question is asked once that many sessions are imported (a dataset that
asks mid-history, like RealMem, asks before its query's own session exists).

Licences decide where the output goes (``bench/data/recall_dev/README.md``): a dataset whose
licence allows redistribution is written to ``--out`` and committed (a sample); one without a
licence is written to ``--out/local/`` (git-ignored) and must be rebuilt from its source.
LoCoMo, LongMemEval and MemoryBank are held out: the REALTALK repository also carries a copy of
LoCoMo under ``data/locomo/``, which this script never opens.
"""

from __future__ import annotations

import argparse
import difflib
import gzip
import json
import random
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Source:
    repo: str
    commit: str
    licence: str
    committable: bool
    lang: str
    note: str


SOURCES: dict[str, Source] = {
    "realmem": Source(
        repo="zhiyuan5986/RealMemBench", commit="067c486a525b0811ef9cb8cb5ad258e286d0ce7e",
        licence="Apache-2.0", committable=True, lang="en",
        note="RealMem (2026): LLM-simulated user-assistant projects over ~200 sessions per persona; "
             "a query turn names the memory points its answer used, each with its source turn."),
    "realtalk": Source(
        repo="danny911kr/REALTALK", commit="b903e06a9770bf4e5fe9018c3e132889666d3b4a",
        licence="none stated (no licence file; all rights reserved by default)", committable=False, lang="en",
        note="REALTALK (2025): 21 days of real messaging-app chats between two people, 10 pairs; "
             "memory-probing questions with evidence dialogue ids."),
    "memdaily": Source(
        repo="nuster1128/MemSim", commit="db9d5d552d6cb1d859f692eb7e6c0fd6d61d3815",
        licence="none stated (no licence file; all rights reserved by default)", committable=False, lang="zh",
        note="MemDaily (MemSim, 2024): Chinese user messages to a personal assistant, one question per "
             "trajectory with target message ids; trajectories pooled into one profile here."),
}

# Never read: held out from development (see the module doc).
HELD_OUT_PATHS = ("data/locomo/",)


# --------------------------------------------------------------------------
# Reading a source (a bare mirror at a commit, or a directory)
# --------------------------------------------------------------------------
class Reader:
    def __init__(self, name: str, mirror: Path, raw_dir: Path | None) -> None:
        self.source = SOURCES[name]
        self.raw_dir = raw_dir
        self.git_dir = mirror / self.source.repo.replace("/", "+") / "repo"

    def _check(self, path: str) -> None:
        if path.startswith(HELD_OUT_PATHS):
            raise SystemExit(f"refusing to read held-out data: {path}")

    def list(self, prefix: str) -> list[str]:
        if self.raw_dir is not None:
            base = self.raw_dir
            return sorted(str(p.relative_to(base)) for p in (base / prefix).rglob("*") if p.is_file())
        out = subprocess.run(["git", f"--git-dir={self.git_dir}", "ls-tree", "-r", "--name-only",
                              self.source.commit, prefix], check=True, capture_output=True, text=True)
        return [p for p in out.stdout.splitlines() if not p.startswith(HELD_OUT_PATHS)]

    def json(self, path: str):
        self._check(path)
        if self.raw_dir is not None:
            return json.loads((self.raw_dir / path).read_text(encoding="utf-8"))
        out = subprocess.run(["git", f"--git-dir={self.git_dir}", "show", f"{self.source.commit}:{path}"],
                             check=True, capture_output=True)
        return json.loads(out.stdout.decode("utf-8"))


def _turn(tid: str, role: str, time: datetime, text: str) -> dict:
    return {"id": tid, "role": role, "time": time.isoformat(timespec="seconds"), "text": text}


# --------------------------------------------------------------------------
# RealMem: user-assistant sessions; a query's memory points name their source turns
# --------------------------------------------------------------------------
def _realmem_time(day: str, minute: int) -> datetime:
    date = datetime.strptime(day.split(" ")[0], "%Y-%m-%d")
    return date + timedelta(hours=10, minutes=minute)


def _content(value: object) -> str:
    """A memory point's content as a key: some are objects rather than strings."""
    if isinstance(value, str):
        return value.strip()
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _source_index(turns: list[dict], memory: dict) -> int | None:
    """The 0-based turn a memory point came from: ``source_turn`` is 1-based in the files we read,
    but check the snapshot against both neighbours (the text was post-edited after extraction)."""
    snapshot = str(memory.get("source_content_snapshot") or "")
    number = memory.get("source_turn")
    if not isinstance(number, int):
        return None
    best, best_ratio = None, 0.0
    for index in (number - 1, number, number - 2):
        if 0 <= index < len(turns):
            ratio = difflib.SequenceMatcher(None, snapshot[:400], turns[index]["content"][:400]).quick_ratio()
            if ratio > best_ratio:
                best, best_ratio = index, ratio
    return best if best_ratio >= 0.6 else None


def build_realmem(reader: Reader, personas: list[str] | None, stats: Counter) -> Iterator[dict]:
    files = [p for p in reader.list("dataset") if p.endswith("_dialogues_256k.json")]
    for path in files:
        persona = Path(path).name.removesuffix("_dialogues_256k.json")
        if personas and persona not in personas:
            continue
        data = reader.json(path)
        sessions, questions = [], []
        where: dict[tuple[str, str], str] = {}  # (session uuid, memory content) -> turn id
        for number, session in enumerate(data["dialogues"]):
            uuid = session["session_uuid"]
            turns = session["dialogue_turns"]
            out_turns = []
            for index, turn in enumerate(turns):
                role = "user" if turn["speaker"].lower() == "user" else "assistant"
                out_turns.append(_turn(f"{uuid}:{index}", role, _realmem_time(session["current_time"], index),
                                       turn["content"]))
                if turn.get("is_query") and turn.get("query_id"):
                    answer = turns[index + 1] if index + 1 < len(turns) else {}
                    used = answer.get("memory_used") or []
                    evidence = []
                    for item in used:
                        key = (item.get("session_uuid"), _content(item.get("content")))
                        if key in where and where[key] not in evidence:
                            evidence.append(where[key])
                        elif key[0] != uuid:
                            stats["realmem evidence without a source turn"] += 1
                    if not evidence:
                        stats["realmem questions dropped (no evidence in earlier sessions)"] += 1
                        continue
                    questions.append({
                        "qid": f"{persona}:{turn['query_id']}", "type": turn.get("category_name") or "?",
                        "scope": turn.get("session_type") or "",
                        "text": turn["content"], "now": _realmem_time(session["current_time"], 0).replace(
                            hour=9, minute=59).isoformat(timespec="seconds"),
                        "after_sessions": number, "evidence": evidence,
                        "answer": (answer.get("content") or "")[:300]})
            for memory in session.get("extracted_memory") or []:
                found = _source_index(turns, memory)
                if found is None:
                    stats["realmem memory points without a matching turn"] += 1
                    continue
                where[(uuid, _content(memory.get("content")))] = f"{uuid}:{found}"
            sessions.append({"id": uuid, "turns": out_turns})
        stats["realmem histories"] += 1
        yield {"dataset": "realmem", "history": persona, "lang": "en", "sessions": sessions, "questions": questions}


# --------------------------------------------------------------------------
# REALTALK: two people over 21 days; speaker_1 is imported as the user, speaker_2 as the assistant
# --------------------------------------------------------------------------
REALTALK_TYPES = {1: "multi-fact", 2: "temporal", 3: "inference"}


def build_realtalk(reader: Reader, stats: Counter) -> Iterator[dict]:
    files = [p for p in reader.list("data") if re.fullmatch(r"data/Chat_\d+_[^/]+\.json", p)]
    for path in files:
        data = reader.json(path)
        first = data["name"]["speaker_1"].casefold()
        numbers = sorted(int(k.split("_")[1]) for k in data if re.fullmatch(r"session_\d+", k))
        sessions, ids, last = [], set(), datetime.min
        for number in numbers:
            turns = []
            for message in data[f"session_{number}"]:
                text = (message.get("clean_text") or "").strip()
                if not text:
                    stats["realtalk empty messages skipped"] += 1
                    continue
                time = datetime.strptime(message["date_time"], "%d.%m.%Y, %H:%M:%S")
                last = max(last, time)
                role = "user" if message["speaker"].casefold() == first else "assistant"
                turns.append(_turn(message["dia_id"], role, time, text))
                ids.add(message["dia_id"])
            sessions.append({"id": f"D{number}", "turns": turns})
        name = Path(path).stem
        questions = []
        for index, qa in enumerate(data.get("qa") or []):
            evidence = [e.strip() for e in qa.get("evidence") or [] if e.strip() in ids]
            stats["realtalk evidence ids not found"] += len(qa.get("evidence") or []) - len(evidence)
            if not evidence:
                stats["realtalk questions dropped (no evidence)"] += 1
                continue
            questions.append({"qid": f"{name}:{index}", "type": REALTALK_TYPES.get(qa.get("category"), "?"),
                              "text": qa["question"], "now": (last + timedelta(days=1)).replace(
                                  hour=12, minute=0, second=0).isoformat(timespec="seconds"),
                              "after_sessions": len(sessions), "evidence": evidence,
                              "answer": str(qa.get("answer", ""))[:300]})
        stats["realtalk histories"] += 1
        yield {"dataset": "realtalk", "history": name, "lang": "en", "sessions": sessions, "questions": questions}


# --------------------------------------------------------------------------
# MemDaily: Chinese user messages; trajectories pooled into profiles of ``pool`` each
# --------------------------------------------------------------------------
MEMDAILY_TYPES = {"01": "simple", "02": "conditional", "03": "comparative", "04": "aggregative",
                  "05": "post-processing", "06": "noisy"}


def _memdaily_time(text: str) -> datetime:
    match = re.match(r"(\d{4})年(\d{1,2})月(\d{1,2})日\D*?(\d{1,2}):(\d{2})", text)
    if not match:
        raise ValueError(f"unexpected MemDaily time: {text!r}")
    year, month, day, hour, minute = map(int, match.groups())
    return datetime(year, month, day, hour, minute)


def build_memdaily(reader: Reader, pool: int, seed: int, stats: Counter) -> Iterator[dict]:
    prefix = "data_generation/final_dataset/messages_and_QAs"
    trajectories = []
    for path in reader.list(prefix):
        stem = Path(path).stem  # e.g. 01_simple_roles
        qtype = MEMDAILY_TYPES[stem[:2]]
        for trajectory in reader.json(path):
            trajectories.append((stem, qtype, trajectory))
    random.Random(seed).shuffle(trajectories)  # each pool mixes question types and entities
    for start in range(0, len(trajectories), pool):
        group = trajectories[start:start + pool]
        sessions, questions = [], []
        for stem, qtype, trajectory in group:
            sid = f"{stem}:{trajectory['tid']}"
            turns = [_turn(f"{sid}:{m['mid']}", "user", _memdaily_time(m["time"]), m["message"])
                     for m in trajectory["message_list"]]
            ids = {t["id"] for t in turns}
            sessions.append({"id": sid, "turns": turns})
            for q in trajectory.get("question_list") or []:
                evidence = [f"{sid}:{i}" for i in q.get("target_step_id") or [] if f"{sid}:{i}" in ids]
                if not evidence:
                    stats["memdaily questions dropped (no evidence)"] += 1
                    continue
                questions.append({"qid": f"{sid}:{q['qid']}", "type": qtype, "text": q["question"],
                                  "now": _memdaily_time(q["time"]).isoformat(timespec="seconds"),
                                  "after_sessions": None, "evidence": evidence,
                                  "answer": str(q.get("answer", ""))[:300]})
        for question in questions:
            question["after_sessions"] = len(sessions)
        stats["memdaily histories"] += 1
        yield {"dataset": "memdaily", "history": f"pool{start // pool:03d}", "lang": "zh",
               "sessions": sessions, "questions": questions}


# --------------------------------------------------------------------------
def write(histories: list[dict], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    # mtime=0: the same input gives the same bytes (a rebuild shows no diff)
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as handle:
        for history in histories:
            handle.write((json.dumps(history, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirror", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--raw-dir", action="append", default=[], metavar="DATASET=DIR",
                        help="read DATASET from a plain directory (a checkout at the recorded commit)")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "data" / "recall_dev")
    parser.add_argument("--dataset", action="append", choices=sorted(SOURCES), default=None)
    parser.add_argument("--realmem-personas", default="Lin_Wanyu,Pak_Budi",
                        help="the committed sample (comma-separated; '' = all ten)")
    parser.add_argument("--memdaily-pool", type=int, default=30, help="trajectories per pooled profile")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    raw_dirs = dict(item.split("=", 1) for item in args.raw_dir)
    stats: Counter = Counter()
    for name in args.dataset or sorted(SOURCES):
        reader = Reader(name, args.mirror, Path(raw_dirs[name]) if name in raw_dirs else None)
        if name == "realmem":
            personas = [p for p in args.realmem_personas.split(",") if p] or None
            histories = list(build_realmem(reader, personas, stats))
        elif name == "realtalk":
            histories = list(build_realtalk(reader, stats))
        else:
            histories = list(build_memdaily(reader, args.memdaily_pool, args.seed, stats))
        source = SOURCES[name]
        path = (args.out if source.committable else args.out / "local") / f"{name}.jsonl.gz"
        write(histories, path)
        turns = sum(len(s["turns"]) for h in histories for s in h["sessions"])
        questions = Counter(q["type"] for h in histories for q in h["questions"])
        print(f"{name}: {len(histories)} histories, {turns} turns, {sum(questions.values())} questions "
              f"{dict(questions)} -> {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    for key, value in sorted(stats.items()):
        print(f"  {key}: {value}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
