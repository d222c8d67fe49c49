"""Task switch after praise: "Well done, that's enough. Now I have a new task for you."

Goal hijacking that never says "ignore": the text closes the assistant's
current job with praise or "that's enough", then hands it another one. One
family from per-language word tables (plain view, casefolded): a closing
word (well done / that's enough / great / that was fine), then within the
next sentence or two "now/but now", then, in that sentence, a word for
new/another/the following next to a word for task/challenge and the reader
addressed ("for you", "help me"). Precision: four anchors in order; "great,
now the next step is the API" has no task word, "the next task is to paint
the fence" no praise before it, "excellent results; now another task force
will review it" no one addressed.

Languages: en de es fr pt it nl pl ru id. Written from the German tuning half
of deepset's attacks (bench/bench_injection_public.py ``deepset-de/tune``) as a
family, with the other languages as translations of it.
"""

# ruff: noqa: E501  (tables of words: one language per line)
from __future__ import annotations

# (closing praise, now, new/another/following, task/challenge)
_SWITCH: dict[str, tuple[str, str, str, str]] = {
    "en": (
        r"well done|good job|great job|nice work|that s enough|that's enough|that’s enough|thats enough|that will do|that was (?:ok|okay|fine|good|great)|excellent|perfect|awesome|brilliant",
        r"now|next",
        r"new|another|next|following|different|further",
        r"task|challenge|assignment|job|request",
    ),
    "de": (
        r"(?:sehr )?gut gemacht|das genügt|das reicht|großartig|grossartig|super|perfekt|ausgezeichnet|prima|toll|das war (?:schon mal |schon |sehr )?(?:ok|okay|gut|prima|toll)",
        r"nun|jetzt",
        r"folgende[rn]?|weitere[rn]?|neue[rn]?|nächste[rn]?|andere[rn]?",
        r"aufgabe|herausforderung|auftrag",
    ),
    "es": (
        r"bien hecho|buen trabajo|excelente|perfecto|genial|es suficiente|suficiente|eso (?:estuvo|fue) (?:bien|genial)",
        r"ahora",
        r"nueva|otra|siguiente|diferente",
        r"tarea|misión|mision|desafío|desafio|reto",
    ),
    "fr": (
        r"bien joué|bien joue|bon travail|excellent|parfait|génial|genial|ça suffit|ca suffit|c était|c'était|c’était (?:bien|parfait|ok)",
        r"maintenant",
        r"nouvelle|autre|suivante|prochaine",
        r"tâche|tache|mission|défi|defi",
    ),
    "pt": (
        r"muito bem|bom trabalho|excelente|perfeito|ótimo|otimo|isso basta|já chega|ja chega|foi (?:bom|ótimo|otimo)",
        r"agora",
        r"nova|outra|seguinte|próxima|proxima",
        r"tarefa|missão|missao|desafio",
    ),
    "it": (
        r"ben fatto|ottimo lavoro|eccellente|perfetto|fantastico|basta così|basta cosi|è sufficiente",
        r"ora|adesso",
        r"nuovo|nuova|altro|altra|seguente|prossimo|prossima",
        r"compito|sfida|incarico|missione",
    ),
    "nl": (
        r"goed gedaan|goed werk|uitstekend|perfect|geweldig|dat is genoeg|dat was (?:prima|goed|ok)",
        r"nu",
        r"nieuwe|andere|volgende",
        r"taak|opdracht|uitdaging",
    ),
    "pl": (
        r"dobra robota|świetnie|swietnie|doskonale|idealnie|wystarczy|to było (?:dobre|ok|świetne)",
        r"teraz",
        r"nowe|nowe|kolejne|następne|nastepne|inne",
        r"zadanie|wyzwanie|polecenie",
    ),
    "ru": (
        r"молодец|отлично|прекрасно|хорошая работа|хватит|достаточно|это было (?:хорошо|отлично)",
        r"теперь|сейчас|а теперь",
        r"новое|новая|другое|следующее|ещё одно|еще одно",
        r"задание|задача|задачу|вызов",
    ),
    "id": (
        r"bagus sekali|kerja bagus|hebat|sempurna|luar biasa|cukup|itu sudah cukup",
        r"sekarang",
        r"baru|lain|berikutnya|selanjutnya",
        r"tugas|tantangan",
    ),
}

# the reader addressed next to the new task: "for you", "help me", "your help"
_YOU: dict[str, str] = {
    "en": r"for you|you|your help|help me",
    "de": r"für dich|fuer dich|dich|dir|du|deine hilfe|hilf mir",
    "es": r"para ti|te|tú|tu ayuda|ayúdame|ayudame",
    "fr": r"pour toi|pour vous|te|tu|vous|ton aide|aide moi|aide-moi",
    "pt": r"para você|para voce|para ti|você|voce|te|sua ajuda|ajude me|ajude-me|me ajude",
    "it": r"per te|ti|tu|il tuo aiuto|aiutami",
    "nl": r"voor jou|voor je|je|jij|u|help me|jouw hulp",
    "pl": r"dla ciebie|ci|ty|twojej pomocy|pomóż mi|pomoz mi",
    "ru": r"для тебя|тебе|ты|тебя|помоги мне|твоя помощь|твоей помощи",
    "id": r"untukmu|untuk kamu|untuk anda|kamu|anda|bantu aku|bantu saya",
}
_S = r"[^.!?\n]"


def _rules() -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for lang, (praise, now, new, task) in _SWITCH.items():
        # "new task" or "task new" (Indonesian puts the adjective after the noun)
        pair = rf"(?:\b(?:{new})\b(?:\W+\w+){{0,2}}?\W+(?:{task})\b|\b(?:{task})\b\W+(?:\w+\W+)?(?:{new})\b)"
        you = rf"\b(?:{_YOU[lang]})\b"
        after_now = rf"(?:{pair}{_S}{{0,40}}?{you}|{you}{_S}{{0,50}}?{pair})"
        out.append((f"task hijack ({lang})", rf"\b(?:{praise})\b[^\n]{{0,100}}?\b(?:{now})\b{_S}{{0,40}}?{after_now}"))
    return out


PLAIN_RULES: list[tuple[str, str]] = _rules()
