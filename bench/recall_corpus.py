"""A deterministic long history of one user, with planted facts and questions about them.

    from recall_corpus import generate
    corpus = generate(sessions=240, messages_per_session=84, notes=2000, seed=7)

The user: a software engineer in Jakarta who moves to Bandung, married, with
kids, chatting with the assistant in English and (a third of the sessions) in
Indonesian. ``generate`` returns:

* ``sessions`` -- conversations, one date each, spread over the 548 days
  before ``today`` (2026-11-23 by default; nothing is dated today or later),
  with alternating user/assistant messages whose timestamps increase (local
  time). Filler is chit-chat from many topics (bench/recall_corpus_topics.py);
  some user messages are planted facts, each followed by an assistant reply,
  and distractor lines that share the facts' words
  (bench/recall_corpus_facts.py).
* ``notes`` -- memory notes (user and profile scope): the facts of the
  ``notes_only`` questions among distractor notes.
* ``questions`` -- what the user asks later in a *new* conversation, each with
  its kind, the expected answer and the evidence needed to answer it: message
  keys (positions in :attr:`Corpus.messages`, the load order) and note keys.

Same arguments, same corpus (one ``random.Random(seed)``; nothing depends on
hash order or the clock). ``per_kind`` keeps only that many questions per kind
(small corpora for tests).
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from recall_corpus_facts import FAMILIES, GENERIC_REPLIES, KINDS, Family  # noqa: E402
from recall_corpus_pools import Slots, canonical, fill  # noqa: E402
from recall_corpus_topics import (  # noqa: E402
    ADVICE_EN,
    ADVICE_ID,
    FOLLOWUPS_EN,
    FOLLOWUPS_ID,
    NOTES_EN,
    NOTES_ID,
    OPENERS_EN,
    OPENERS_ID,
    SUFFIXES_EN,
    SUFFIXES_ID,
    TOPICS_EN,
    TOPICS_ID,
)

TODAY = date(2026, 11, 23)  # a Monday: "last week" is 16-22 November
HISTORY_DAYS = 548  # about 18 months, ending the day before today
RECENT_DAYS = 30  # facts placed "any"where stay this far from today (spans like "last week" stay clean)
INDONESIAN_SHARE = 1 / 3
DISTRACTOR_COPIES = 2
EVENT_COPIES = 5
PROFILE_SHARE = 0.3  # of notes in profile scope


@dataclass(frozen=True)
class Msg:
    key: int  # position in Corpus.messages (the load order)
    session: int
    role: str
    text: str
    created: datetime  # local time, timezone-aware


@dataclass
class Session:
    index: int
    day: date
    lang: str
    messages: list[Msg] = field(default_factory=list)


@dataclass(frozen=True)
class Note:
    key: int
    text: str
    scope: str


@dataclass(frozen=True)
class Question:
    qid: str
    kind: str
    lang: str
    text: str
    answer: str
    evidence_messages: tuple[int, ...] = ()
    evidence_notes: tuple[int, ...] = ()


@dataclass
class Corpus:
    today: datetime  # local noon of the day the questions are asked
    sessions: list[Session]
    notes: list[Note]
    questions: list[Question]
    seed: int

    @property
    def messages(self) -> list[Msg]:
        return [m for s in self.sessions for m in s.messages]


@dataclass
class _Planted:
    """One user message (and the reply after it) waiting for its session."""

    user: str
    reply: str
    lang: str
    session: Session | None = None
    message_key: int | None = None


@dataclass
class _Instance:
    family: Family
    question: str
    answer: str
    facts: list[_Planted]
    extra: list[_Planted]  # distractor lines: placed anywhere, never evidence (events: see _events)
    note_texts: list[str] = field(default_factory=list)
    distractor_notes: list[str] = field(default_factory=list)


# --------------------------------------------------------------------------
# Instantiating the question families
# --------------------------------------------------------------------------
def _instantiate(family: Family, rng: random.Random, used: dict[str, set[str]]) -> _Instance:
    slots = Slots(rng, family.lang, avoid=used)
    facts = [fill(text, slots) for text in family.facts]
    question = fill(family.question, slots)
    answer = family.answer.replace("{date0}", "\x00").format_map(slots).replace("\x00", "{date0}")
    replies = []
    for n in range(len(facts)):
        given = family.replies[n] if n < len(family.replies) else ""
        replies.append(fill(given, slots) if given else rng.choice(GENERIC_REPLIES[family.lang]))
    own: dict[str, set[str]] = {}
    for key, value in slots.items():
        used.setdefault(canonical(key), set()).add(value)
        own.setdefault(canonical(key), set()).add(value)

    def fresh(template: str) -> str:
        return fill(template, Slots(rng, family.lang, avoid=own))

    def reply_to() -> str:
        return rng.choice(GENERIC_REPLIES[family.lang]) if rng.random() < 0.5 else _topic_reply(rng, family.lang)

    extra: list[_Planted] = []
    if family.kind == "notes_only":
        distractor_notes = [fresh(t) for t in family.distractors for _ in range(DISTRACTOR_COPIES)]
        return _Instance(family, question, answer, [], [], note_texts=facts, distractor_notes=distractor_notes)
    for template in family.distractors:
        for _ in range(DISTRACTOR_COPIES):
            text = fresh(template)
            extra.append(_Planted(text, reply_to(), family.lang))
    planted = [_Planted(text, reply, family.lang) for text, reply in zip(facts, replies, strict=True)]
    return _Instance(family, question, answer, planted, extra)


def _topic_reply(rng: random.Random, lang: str) -> str:
    advice = ADVICE_ID if lang == "id" else ADVICE_EN
    return fill(rng.choice(advice), Slots(rng, lang))


def _events(instance: _Instance, rng: random.Random) -> list[_Planted]:
    family = instance.family
    own_avoid: dict[str, set[str]] = {}
    out = []
    for n in range(EVENT_COPIES if family.events else 0):
        template = family.events[n % len(family.events)]
        text = fill(template, Slots(rng, family.lang, avoid=own_avoid))
        out.append(_Planted(text, rng.choice(GENERIC_REPLIES[family.lang]), family.lang))
    return out


# --------------------------------------------------------------------------
# The timeline
# --------------------------------------------------------------------------
def _default_when(family: Family, index: int) -> tuple:
    if family.when and index < len(family.when):
        return family.when[index]
    if index == 0:
        return ("early",) if family.kind == "updated" else ("any",)
    return ("after", index - 1, 120 if family.kind == "updated" else 14)


def _fixed_days(family: Family, today: date) -> dict[int, date]:
    days: dict[int, date] = {}
    for index in range(len(family.facts)):
        rule = _default_when(family, index)
        if rule[0] == "day":
            days[index] = rule[1](today)
        elif rule[0] == "offset":
            days[index] = days[rule[1]] + timedelta(days=rule[2])
    return days


def _session_days(rng: random.Random, count: int, required: list[tuple[date, str]], first: date,
                  last: date) -> list[Session]:
    if len(required) > count:
        raise ValueError(f"{count} sessions cannot hold {len(required)} fixed-date facts; "
                         "pass more sessions or a smaller per_kind")
    free = count - len(required)
    span = (last - first).days
    langs = ["id"] * round(free * INDONESIAN_SHARE) + ["en"] * (free - round(free * INDONESIAN_SHARE))
    rng.shuffle(langs)
    planned = list(required) + [(first + timedelta(days=rng.randint(0, span)), lang) for lang in langs]
    planned.sort(key=lambda pair: pair[0])
    return [Session(index=n, day=day, lang=lang) for n, (day, lang) in enumerate(planned)]


def _pick(rng: random.Random, sessions: list[Session], lang: str, ok) -> Session:
    candidates = [s for s in sessions if s.lang == lang and ok(s.day)]
    if not candidates:
        candidates = [s for s in sessions if ok(s.day)] or sessions
    return rng.choice(candidates)


def _place(instances: list[_Instance], sessions: list[Session], rng: random.Random, today: date,
           first: date) -> dict[int, list[_Planted]]:
    """Assign every planted message a session; returns session index -> planted list."""
    middle = first + timedelta(days=HISTORY_DAYS // 2)
    recent = today - timedelta(days=RECENT_DAYS)
    by_session: dict[int, list[_Planted]] = {}

    def put(item: _Planted, session: Session) -> None:
        item.session = session
        by_session.setdefault(session.index, []).append(item)

    for instance in instances:
        family = instance.family
        fixed = _fixed_days(family, today)
        for index, item in enumerate(instance.facts):
            rule = _default_when(family, index)
            if index in fixed:
                day = fixed[index]
                session = next(s for s in sessions if s.day == day and s.lang == item.lang)
            elif rule[0] == "early":
                session = _pick(rng, sessions, item.lang, lambda d: d < middle)
            elif rule[0] == "after":
                earliest = instance.facts[rule[1]].session.day + timedelta(days=rule[2])
                session = _pick(rng, sessions, item.lang, lambda d, e=earliest: e <= d < recent)
            else:
                session = _pick(rng, sessions, item.lang, lambda d: d < recent)
            put(item, session)
        evidence_days = [instance.facts[i].session.day for i in range(len(instance.facts))]
        for item in _events(instance, rng):
            far = lambda d, margin=family.margin, days=evidence_days: all(abs((d - e).days) > margin for e in days)  # noqa: E731
            put(item, _pick(rng, sessions, item.lang, far))
        for item in instance.extra:
            put(item, _pick(rng, sessions, item.lang, lambda d: True))
    return by_session


def _required_days(instances: list[_Instance], today: date) -> list[tuple[date, str]]:
    required: list[tuple[date, str]] = []
    for instance in instances:
        for index, day in sorted(_fixed_days(instance.family, today).items()):
            pair = (day, instance.facts[index].lang)
            if pair not in required:
                required.append(pair)
    return required


def _lengths(rng: random.Random, count: int, mean: int) -> list[int]:
    """Even session lengths around ``mean`` (half to one and a half), summing to count * mean."""
    pairs = max(2, mean // 2)
    lengths = [max(2, round(pairs * rng.uniform(0.5, 1.5))) for _ in range(count)]
    target = pairs * count
    while sum(lengths) != target:
        n = rng.randrange(count)
        if sum(lengths) < target:
            lengths[n] += 1
        elif lengths[n] > 2:
            lengths[n] -= 1
    return [2 * p for p in lengths]


# --------------------------------------------------------------------------
# Filler
# --------------------------------------------------------------------------
def _filler_exchange(rng: random.Random, lang: str, topics: list[str], first: bool) -> tuple[str, str]:
    followups = FOLLOWUPS_ID if lang == "id" else FOLLOWUPS_EN
    if not first and rng.random() < 0.15:
        return rng.choice(followups)
    table = TOPICS_ID if lang == "id" else TOPICS_EN
    user_t, reply_t = rng.choice(table[rng.choice(topics)])
    slots = Slots(rng, lang)
    user = fill(user_t, slots)
    if rng.random() < 0.35:
        user += fill(rng.choice(SUFFIXES_ID if lang == "id" else SUFFIXES_EN), slots)
    opener = rng.choice(OPENERS_ID if lang == "id" else OPENERS_EN)
    if opener and not first:  # "Btw, how do I…" but "Quick question: How do I…"
        lower = opener.endswith(", ") and not user[:2].isupper()
        user = opener + (user[0].lower() + user[1:] if lower else user)
    reply = fill(reply_t, slots)
    advice = ADVICE_ID if lang == "id" else ADVICE_EN
    if rng.random() < 0.5:
        reply += " " + fill(rng.choice(advice), slots)
    return user, reply


def _timestamps(rng: random.Random, sessions: list[Session], lengths: list[int]) -> list[list[datetime]]:
    stamps: list[list[datetime]] = []
    previous_end: datetime | None = None
    for session, length in zip(sessions, lengths, strict=True):
        same_day = previous_end is not None and previous_end.date() == session.day
        if same_day:
            moment = previous_end + timedelta(minutes=rng.randint(20, 90))
        else:
            moment = datetime.combine(session.day, time(7)) + timedelta(minutes=rng.randint(0, 11 * 60))
        times = []
        for n in range(length):
            times.append(moment)
            moment += timedelta(seconds=rng.randint(5, 40) if n % 2 == 0 else rng.randint(30, 200))
        if times[-1].date() != session.day:  # a long day: squeeze this session before midnight
            start = datetime.combine(session.day, time(23, 59)) - (times[-1] - times[0])
            times = [start + (t - times[0]) for t in times]
        stamps.append(times)
        previous_end = times[-1]
    return [[t.astimezone() for t in times] for times in stamps]  # naive local -> aware local


# --------------------------------------------------------------------------
# Notes
# --------------------------------------------------------------------------
def _notes(rng: random.Random, total: int, instances: list[_Instance]) -> tuple[list[Note], dict[int, list[int]]]:
    """All notes in the order they are added; returns them and question index -> planted note keys."""
    from agenttui.core.memory.text import similarity

    planted = [(q, text) for q, inst in enumerate(instances) for text in inst.note_texts]
    fixed = [text for inst in instances for text in inst.distractor_notes]
    texts: list[str] = []
    seen: dict[str, list[str]] = {}

    def accept(text: str, family: str) -> bool:
        peers = seen.setdefault(family, [])
        if text in texts or any(similarity(text, p) >= 0.7 for p in peers):
            return False
        peers.append(text)
        return True

    for text in fixed:
        if accept(text, "fixed:" + text.split()[0]):
            texts.append(text)
    guard = 0
    while len(texts) + len(planted) < total and guard < total * 50:
        guard += 1
        lang = "id" if rng.random() < INDONESIAN_SHARE else "en"
        template = rng.choice(NOTES_ID if lang == "id" else NOTES_EN)
        text = fill(template, Slots(rng, lang))
        if accept(text, template):
            texts.append(text)
    rng.shuffle(texts)
    order: list[tuple[int | None, str]] = [(None, t) for t in texts]
    for q, text in planted:  # the facts at random places among the distractors
        order.insert(rng.randint(0, len(order)), (q, text))
    notes, owners = [], {}
    for key, (q, text) in enumerate(order):
        scope = "profile" if rng.random() < PROFILE_SHARE else "user"
        notes.append(Note(key, text, scope))
        if q is not None:
            owners.setdefault(q, []).append(key)
    return notes, owners


# --------------------------------------------------------------------------
# The corpus
# --------------------------------------------------------------------------
def generate(sessions: int = 240, messages_per_session: int = 84, notes: int = 2000, seed: int = 7,
             today: date = TODAY, per_kind: int = 0) -> Corpus:
    rng = random.Random(seed)
    chosen: list[Family] = []
    for kind in KINDS:
        families = list(FAMILIES[kind])
        if per_kind:
            picks = sorted(rng.sample(range(len(families)), min(per_kind, len(families))))
            families = [families[i] for i in picks]
        chosen.extend(families)
    used: dict[str, set[str]] = {}
    instances = [_instantiate(f, rng, used) for f in chosen]

    first, last = today - timedelta(days=HISTORY_DAYS), today - timedelta(days=1)
    timeline = _session_days(rng, sessions, _required_days(instances, today), first, last)
    planted = _place(instances, timeline, rng, today, first)
    lengths = _lengths(rng, len(timeline), messages_per_session)
    for session in timeline:  # room for what was planted, plus some filler
        need = 2 * len(planted.get(session.index, [])) + 2
        lengths[session.index] = max(lengths[session.index], need)
    stamps = _timestamps(rng, timeline, lengths)

    key = 0
    for session, length, times in zip(timeline, lengths, stamps, strict=True):
        items = planted.get(session.index, [])
        table = TOPICS_ID if session.lang == "id" else TOPICS_EN
        topics = rng.sample(sorted(table), rng.randint(2, 3))
        slots = list(range(1, length // 2)) if length > 2 else [0]
        positions = dict(zip(sorted(rng.sample(slots, len(items))), rng.sample(items, len(items)), strict=True))
        for pair in range(length // 2):
            item = positions.get(pair)
            user, reply = (item.user, item.reply) if item else _filler_exchange(rng, session.lang, topics, pair == 0)
            if item is not None:
                item.message_key = key
            for role, text in (("user", user), ("assistant", reply)):
                session.messages.append(Msg(key, session.index, role, text, times[len(session.messages)]))
                key += 1

    note_list, note_owner = _notes(rng, notes, instances)
    questions = []
    counters: dict[str, int] = {}
    for q, instance in enumerate(instances):
        family = instance.family
        counters[family.kind] = counters.get(family.kind, 0) + 1
        answer = instance.answer
        if instance.facts:
            answer = answer.replace("{date0}", instance.facts[0].session.day.isoformat())
        evidence = tuple(instance.facts[i].message_key for i in family.evidence_indices) if instance.facts else ()
        questions.append(Question(
            qid=f"{family.kind}-{counters[family.kind]:02d}", kind=family.kind, lang=family.lang,
            text=instance.question, answer=answer, evidence_messages=evidence,
            evidence_notes=tuple(note_owner.get(q, ())),
        ))
    noon = datetime.combine(today, time(12)).astimezone()
    return Corpus(today=noon, sessions=timeline, notes=note_list, questions=questions, seed=seed)


if __name__ == "__main__":
    built = generate()
    messages = built.messages
    print(f"{len(built.sessions)} sessions, {len(messages)} messages "
          f"({messages[0].created:%Y-%m-%d} .. {messages[-1].created:%Y-%m-%d}), "
          f"{len(built.notes)} notes, {len(built.questions)} questions")
