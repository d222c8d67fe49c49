"""Auto-detected corrections (docs/memory.md), English and Indonesian. Pure.

``detect_correction(text)`` looks for a user telling the assistant how to
behave from now on -- "stop adding emojis", "don't summarise", "I prefer tabs,
not spaces", "jangan pakai emoji", "gue prefer lo/gue bukan saya/Anda",
"kalo gue bilang gas, kasih langsung kodenya" -- and returns the note to
remember (source ``correction``): preferences are rewritten as "User prefers
X over Y" / "When the user says X, give Y"; everything else is the user's own
clause, tidied (leading fillers such as "ok," dropped, capitalised, full stop).

Precision over recall: a hit is offered to the user (or saved with an undo),
so a false hit is an annoyance on an ordinary message. Therefore:

* the text is split into clauses and each is judged alone;
* questions (a clause ending in "?") never count, except polite requests
  "can/could/would you (please) stop/always/never ..." and "bisa jangan ...";
* English imperatives must open the clause (after fillers such as "ok",
  "please", "also"): "what does stop do" and "I don't know" are no hits;
* "stop" needs a gerund ("stop adding", not "stop the server"), "don't"
  must not be followed by a pronoun ("don't you think"), idioms are skipped
  ("never mind", "don't worry", "jangan-jangan", "jangan khawatir").
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Correction:
    note: str  # what to remember
    pattern: str  # which rule matched, e.g. "en.dont", "id.prefer_over"
    language: str  # "en" | "id"
    clause: str  # the part of the message that matched


_FILLERS = (
    r"ok(?:ay)?|no|nope|nah|hey|oh|and|also|but|so|anyway|anyways|btw|by the way|actually|thanks|please|pls|plz|kindly|seriously|again|"
    r"from now on|going forward|in future|in the future|"
    r"tolong|mohon|plis|ya|yah|yang penting|pokoknya|udah|dah|dan|terus|trus|eh|bro|sis|"
    r"guys|bang|mas|mbak|mulai sekarang|lain kali|ke depannya|oke|oke deh|sekali lagi"
)
_LEAD = rf"^(?:(?:{_FILLERS})\b[\s,!:]*)*"
_POLITE = re.compile(
    r"^(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|"
    r"(?:bisa|bisakah|boleh)\s+(?:(?:ga|gak|nggak|ngga|enggak|tidak)\s+)?(?:tolong\s+)?)",
    re.I,
)
_POLITE_OK = re.compile(r"^(?:stop|quit|always|never|not|jangan|berhenti|selalu|ga usah|gak usah)\b", re.I)

_GERUND_STOPWORDS = {
    "nothing", "something", "everything", "anything", "thing", "things", "bring", "string",
    "ring", "king", "morning", "evening", "ping", "spring", "sing", "swing", "wing",
}
_DONT_NOT = r"(?!(?:you|we|i|they|he|she|it|worry|mind|know|care|panic|sweat)\b)"
_NEVER_NOT = r"(?!(?:mind|heard|seen|been|thought|knew|did|had|got|said|told|saw|was|were|really|mind)\b)(?!\w+ed\b)"
_ALWAYS_NOT = r"(?!(?:been|was|were|is|are|has|had|the|a|an|so|true|here|there|welcome)\b)(?!\w+ed\b)"
_ID_NOT = r"(?!(?:khawatir|kuatir|sedih|takut|marah|panik|gitu|begitu)\b)"
_ID_SUBJ = r"(?:gue|gua|gw|aku|aq|saya|ak)"
_ID_STOP_VERBS = (
    r"pake|pakai|ngasih|kasih|bikin|buat|nulis|menulis|ngomong|bilang|jawab|manggil|panggil|"
    r"nambah|nambahin|menambahkan|ngulang|mengulang|minta|nanya|tanya|kirim|ngirim|basa-basi|"
    r"ngejelasin|jelasin|menjelaskan|nyaranin|menyarankan"
)


def _rule(name: str, pattern: str) -> tuple[str, re.Pattern[str]]:
    return name, re.compile(pattern, re.I)


# Order matters: the specific preference shapes before the generic imperatives.
_RULES = [
    _rule("en.prefer_over", _LEAD + r"(?P<core>(?:i|we)(?:(?:\s*['’]d|\s+would)\s+(?:much\s+)?rather(?:\s+(?:have|use|get|see))?|\s+(?:much\s+|really\s+|do\s+)?prefer)\s+"
          r"(?P<x>.+?)(?:\s*,\s*|\s+)(?:not|over|instead\s+of|rather\s+than|than)\s+(?P<y>.+))$"),
    _rule("en.prefer", _LEAD + r"(?P<core>(?:i|we)\s+(?:much\s+|really\s+|do\s+)?prefer\s+(?P<x>.+))$"),
    _rule("en.when_i_say", _LEAD + r"(?P<core>(?:when|whenever|if)\s+i\s+say\s+(?P<x>.+?)\s*,\s*"
          r"(?:then\s+)?(?:give(?:\s+me)?|use|do|send|show(?:\s+me)?|i\s+mean)\s+(?P<y>.+))$"),
    _rule("en.stop", _LEAD + r"(?P<core>(?:stop|quit)\s+(?P<x>(?P<verb>\w+ing)\b.*))$"),
    _rule("en.dont", _LEAD + r"(?P<core>(?:don['’]?t|do\s+not|not)\s+" + _DONT_NOT + r"(?P<x>\w.*))$"),
    _rule("en.never", _LEAD + r"(?P<core>never\s+(?:ever\s+)?" + _NEVER_NOT + r"(?P<x>\w.*))$"),
    _rule("en.always", _LEAD + r"(?P<core>always\s+" + _ALWAYS_NOT + r"(?P<x>\w.*))$"),
    _rule("id.prefer_over", r"(?:^|\s)(?P<core>" + _ID_SUBJ + r"\s+(?:lebih\s+)?(?:prefer|suka|mau|pilih|demen|milih)\s+"
          r"(?P<x>.+?)\s*,?\s+(?:bukan|daripada|drpd|dibanding(?:kan)?|ketimbang)\s+(?P<y>.+))$"),
    _rule("id.prefer", r"(?:^|\s)(?P<core>" + _ID_SUBJ + r"\s+(?:prefer|lebih\s+suka|lebih\s+milih|lebih\s+pilih)\s+(?P<x>.+))$"),
    _rule("id.kalo_bilang", r"(?:^|\s)(?P<core>(?:kalo|kalau|klo|kl|jika|jikalau|misal)\s+" + _ID_SUBJ +
          r"\s+bilang\s+(?P<x>.+?)\s*,\s*(?:(?:tolong|langsung)\s+)?(?:kasih|kasi|berarti|artinya|maksudnya|jawab(?:nya)?|kirim)\s+(?P<y>.+))$"),
    _rule("id.jangan", r"(?:^|\s)(?P<core>(?<![\w-])jangan(?!-)\s+" + _ID_NOT + r"(?P<x>\w.*))$"),
    _rule("id.ga_usah", r"(?:^|\s)(?P<core>(?:(?:ga|gak|nggak|ngga|enggak|tidak|ndak|gk|g)\s+usah|gausah|gaush)\s+"
          + _ID_NOT + r"(?P<x>\w.*))$"),
    _rule("id.selalu", _LEAD + r"(?P<core>selalu\s+(?P<x>\w.*))$"),
    _rule("id.berhenti", _LEAD + r"(?P<core>(?:berhenti|stop|setop)\s+(?P<x>(?:" + _ID_STOP_VERBS + r")\b.*))$"),
    _rule("id.berhenti_any", _LEAD + r"(?P<core>berhenti\s+(?P<x>\w.*))$"),
]

_QUESTION_WORD = re.compile(
    r"^(?:what|why|how|where|who|which|whose|is|are|was|were|does|did|do\s+you|"
    r"when(?!\s+i\s+say)|apa|apakah|kenapa|mengapa|gimana|bagaimana|kapan|dimana|di\s+mana|siapa)\b",
    re.I,
)
_CLAUSE = re.compile(r"[^.!?\n;]+[.!?;]*")


def _tidy(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip(" ,.;:!")
    return text


def _sentence(text: str) -> str:
    text = _tidy(text)
    return text[:1].upper() + text[1:] + "." if text else text


def _note(name: str, match: re.Match[str]) -> str:
    if name.endswith("prefer_over"):
        return f"User prefers {_tidy(match['x'])} over {_tidy(match['y'])}."
    if name.endswith("prefer"):
        return f"User prefers {_tidy(match['x'])}."
    if name in ("en.when_i_say", "id.kalo_bilang"):
        return f"When the user says {_tidy(match['x'])}, give {_tidy(match['y'])}."
    return _sentence(match["core"])


def _judge(clause: str) -> Correction | None:
    body = clause.strip()
    question = body.endswith("?")
    body = _tidy(body.rstrip("?"))
    if not body or _QUESTION_WORD.match(body):
        return None
    if question:
        polite = _POLITE.match(body)
        if not polite or not _POLITE_OK.match(body[polite.end():]):
            return None
        body = body[polite.end():]
        if body.lower().startswith("not "):
            body = "do " + body  # "could you not X?" -> "do not X"
    for name, rule in _RULES:
        match = rule.search(body)
        if match is None:
            continue
        if name == "en.stop" and match["verb"].lower() in _GERUND_STOPWORDS:
            continue
        if name == "en.dont" and re.match(r"not\b", match["core"], re.I) and not question:
            continue  # a bare "not X" is only a request in "could you not X?"
        x = match["x"] if "x" in rule.groupindex else ""
        if len(_tidy(x)) < 2:
            continue
        return Correction(_note(name, match), name, name.split(".")[0], _tidy(clause))
    return None


def detect_correction(text: str) -> Correction | None:
    """The first clause of ``text`` that corrects the assistant, or None."""
    if not text or len(text) > 4000:  # a pasted document is not a correction
        return None
    for clause in _CLAUSE.findall(text):
        found = _judge(clause)
        if found:
            return found
    return None
