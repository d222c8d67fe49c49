"""Auto-detected corrections, English and Indonesian, both ways."""

from __future__ import annotations

import pytest

from agenttui.core.memory.corrections import detect_correction

HITS = [
    # (message, expected rule, expected substring of the note)
    ("stop adding emojis to every answer", "en.stop", "Stop adding emojis"),
    ("Stop doing that, it's annoying", "en.stop", "Stop doing that"),
    ("ok, stop using bullet points.", "en.stop", "Stop using bullet points"),
    ("don't summarise the diff", "en.dont", "Don't summarise the diff"),
    ("Don’t use semicolons in JS", "en.dont", "Don’t use semicolons"),
    ("Please do not push to main", "en.dont", "Do not push to main"),
    ("dont explain basic git commands", "en.dont", "Dont explain basic git"),
    ("I prefer tabs, not spaces", "en.prefer_over", "User prefers tabs over spaces."),
    ("I prefer pytest over unittest", "en.prefer_over", "User prefers pytest over unittest."),
    ("I'd rather have short answers than long essays", "en.prefer_over",
     "User prefers short answers over long essays."),
    ("I really prefer British spelling", "en.prefer", "User prefers British spelling."),
    ("please always run the tests before committing", "en.always", "Always run the tests"),
    ("Always answer in Indonesian!", "en.always", "Always answer in Indonesian."),
    ("never use sudo without asking", "en.never", "Never use sudo"),
    ("From now on, never add trailing summaries", "en.never", "Never add trailing summaries"),
    ("Thanks. Also, don't repeat my question back to me.", "en.dont", "Don't repeat my question"),
    ("can you stop using so many headings?", "en.stop", "Stop using so many headings"),
    ("could you not use emojis?", "en.dont", "Do not use emojis"),
    ("when I say ship it, give me the final diff only", "en.when_i_say",
     "When the user says ship it, give the final diff only."),
    ("jangan pakai emoji", "id.jangan", "Jangan pakai emoji"),
    ("Jawabnya jangan panjang-panjang ya", "id.jangan", "Jangan panjang-panjang"),
    ("tolong jangan jelasin ulang dari awal", "id.jangan", "Jangan jelasin ulang"),
    ("ga usah pakai basa-basi", "id.ga_usah", "Ga usah pakai basa-basi"),
    ("gausah kasih kesimpulan di akhir", "id.ga_usah", "Gausah kasih kesimpulan"),
    ("gue prefer lo/gue bukan saya/Anda", "id.prefer_over", "User prefers lo/gue over saya/Anda."),
    ("gue prefer bahasa santai, bukan formal", "id.prefer_over", "User prefers bahasa santai over formal."),
    ("aku lebih suka jawaban singkat daripada penjelasan panjang", "id.prefer_over",
     "User prefers jawaban singkat over penjelasan panjang."),
    ("saya lebih suka pakai pnpm", "id.prefer", "User prefers pakai pnpm."),
    ("kalo gue bilang gas, kasih langsung kodenya", "id.kalo_bilang",
     "When the user says gas, give langsung kodenya."),
    ("kalau saya bilang ringkas, berarti maksimal tiga kalimat", "id.kalo_bilang",
     "When the user says ringkas, give maksimal tiga kalimat."),
    ("tolong selalu pakai bahasa Indonesia", "id.selalu", "Selalu pakai bahasa Indonesia"),
    ("mulai sekarang selalu kasih contoh kode", "id.selalu", "Selalu kasih contoh kode"),
    ("berhenti pakai bahasa formal", "id.berhenti", "Berhenti pakai bahasa formal"),
    ("stop pake emoji dong", "id.berhenti", "Stop pake emoji dong"),
    ("berhenti nambahin komentar di kode", "id.berhenti", "Berhenti nambahin komentar"),
    ("bisa jangan pakai markdown?", "id.jangan", "Jangan pakai markdown"),
]

MISSES = [
    "don't you think this is slow?",
    "what does stop do?",
    "What does `git stash` do?",
    "I don't know why the build fails",
    "Never mind, I found it",
    "never heard of that library",
    "stop the server please",
    "Stop everything",
    "stop",
    "Don't worry about it",
    "don't you have a better idea",
    "Why do I always get this error?",
    "It always has been like this",
    "Do you prefer Python or Go?",
    "Which one do I prefer?",
    "How do I stop a running container?",
    "can you explain how stop works?",
    "Let's use tabs for this file",
    "Please summarise the README",
    "The bus stops at the corner",
    "jangan-jangan ini bug di versi lama",
    "jangan khawatir, nanti aku cek",
    "kenapa jangan pakai emoji?",
    "apa bedanya stop sama kill?",
    "gimana cara berhenti dari vim?",
    "aku mau bikin website pakai Django",
    "bus berhenti di halte depan",
    "hari ini selalu hujan?",
    "",
    "   ",
]


@pytest.mark.parametrize(("message", "rule", "note"), HITS)
def test_detects_correction(message, rule, note):
    found = detect_correction(message)
    assert found is not None, message
    assert found.pattern == rule
    assert note in found.note
    assert found.language == rule.split(".")[0]
    assert found.note.endswith(".")


@pytest.mark.parametrize("message", MISSES)
def test_ordinary_messages_are_not_corrections(message):
    assert detect_correction(message) is None


def test_preference_is_rewritten_in_third_person():
    found = detect_correction("I prefer Black, not autopep8.")
    assert found.note == "User prefers Black over autopep8."
    assert found.clause.startswith("I prefer Black")


def test_leading_fillers_are_dropped_from_the_note():
    found = detect_correction("Ok, please don't paste the whole file")
    assert found.note == "Don't paste the whole file."


def test_first_correcting_clause_wins_and_questions_are_skipped():
    found = detect_correction("What is this? Anyway, never commit generated files.")
    assert found is not None and found.pattern == "en.never"
    assert found.note == "Never commit generated files."


def test_huge_paste_is_not_scanned():
    assert detect_correction("don't do that. " * 400) is None


@pytest.mark.parametrize(("message", "rule", "note"), HITS)
def test_detected_notes_pass_the_write_gate(message, rule, note):
    from agenttui.core.config.settings import MemorySettings
    from agenttui.core.memory.gate import check_write

    found = detect_correction(message)
    decision = check_write("note", "user", "correction", settings=MemorySettings(), text=found.note)
    assert decision.action == "add", decision.reason
