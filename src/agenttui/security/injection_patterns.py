"""Prompt-injection phrases, by language and by view.

WORD rules run on word views (casefolded, punctuation → single spaces, so
`\\w+` and single spaces are the only shapes); PLAIN rules need punctuation
(role markers, colons, URLs). Everything is a literal-led, bounded pattern.

Precision notes (why some obvious phrases are narrower than they could be):
- "ignore … rules" only with a qualifier (previous/above/system/…): "ignore
  eslint rules in vendor/" is an ordinary preference.
- "developer mode" only with act-as/you-are/enable framing: Android has one.
- "mention the user" is not secrecy ("don't mention the user's name in
  commits"); "tell/inform the user" is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .regex_tree import (
    ASSERT,
    ASSERT_NOT,
    AT,
    AT_BOUNDARY,
    ATOMIC_GROUP,
    BRANCH,
    IN,
    LITERAL,
    MAX_REPEAT,
    MIN_REPEAT,
    POSSESSIVE_REPEAT,
    SUBPATTERN,
    Node,
    parse,
)

_F = r"(?: \w+)"  # one filler word in a word view

_PRIOR = r"(?:previous|previously|prior|above|earlier|preceding|former|foregoing|original|initial|system|developer|old)"
_ALLISH = r"(?:all|your|every|any)"
_NOUN_ANY = r"(?:instructions?|prompts?|rules|directives?|guidelines?|commands?|orders|guardrails?|restrictions?|constraints?|programming|context|messages?|polic(?:y|ies)|safety|training)"
_NOUN_STRICT = r"(?:instructions?|prompts?|directives?|guidelines?|guardrails?|restrictions?|programming|polic(?:y|ies)|safety (?:rules|guidelines)|training|previous \w+)"
_OVERRIDE_VERB = r"(?:ignore|disregard|forget|skip|override|bypass|neglect|discard|drop|abandon|nevermind|never mind)"

_YOU_ID = r"(?:kamu|anda|kau|lo|lu|elo|loe|gue|engkau|dirimu)"

WORD_RULES: list[tuple[str, str]] = [
    # --- English -----------------------------------------------------------
    ("instruction override", rf"\b{_OVERRIDE_VERB}{_F}{{0,4}}? {_PRIOR}{_F}{{0,2}}? {_NOUN_ANY}\b"),
    ("instruction override", rf"\b{_OVERRIDE_VERB}{_F}{{0,2}}? {_ALLISH}{_F}{{0,2}}? {_NOUN_STRICT}\b"),
    ("instruction override", r"\b(?:ignore|disregard|forget)(?: the| all| everything| anything| what){0,2} (?:above|before this|said before|you (?:were|have been|ve been) told|i said before)\b"),
    # "you are now able to park in lot B" (an office e-mail) is not a role change
    ("role reassignment", r"\byou are now\b(?! (?:able|allowed|free to|ready|done|signed|logged|registered|subscribed|eligible|connected|set up|enrolled|on the|in the|a member|part of|\d))"),
    ("role reassignment", r"\byou re now (?:a|an|the|my|in|dan|free|called|named)\b"),
    ("role reassignment", r"\bfrom now on(?: \w+)?,? you (?:are|will|must|shall|should|have to|can|re)\b"),
    ("role reassignment", r"\byou are no longer (?:an? |bound|restricted|limited|chatgpt|claude|required)"),
    ("role reassignment", r"\b(?:pretend|imagine) (?:to be|you are|that you are|you re)\b"),
    ("role reassignment", r"\byour new (?:role|persona|identity|name|instructions|rules|task|purpose|goal|directive)s? (?:is|are)\b"),
    ("role reassignment", r"\b(?:act|behave|respond|roleplay|operate|answer) (?:as|like)(?: if you were| if you are)?(?: an?)? (?:unrestricted|unfiltered|uncensored|jailbroken|evil|dan\b|an? ai without|ai with no)"),
    # Phones, TVs and browsers have a developer mode: "enable developer mode on the new phone" is a note.
    ("role reassignment", r"\b(?:act|behave|respond|operate|pretend|you are|you re|enter|enable|activate|switch to|simulate)(?: \w+){0,5}? (?:developer|dan|god|jailbreak|unrestricted|unfiltered) mode\b(?! (?:on|in|for|of) (?:the |my |your |a |an |his |her |our )?(?:new |old |work |test )?(?:phone|android|iphone|ipad|device|pixel|tablet|laptop|tv|browser|chrome|firefox|edge|settings|emulator|samsung|xiaomi|watch|router|console|extension))"),
    ("role reassignment", r"\bdo anything now\b"),
    # Bare "system prompt" is a mention ("the system prompt of the support bot is in the wiki");
    # the assistant's own is a probe. Reveal verbs and "ignore the system prompt" have their rules.
    # (Short keys only: the prefilter also looks up rot13/reversed words, and rot13("he") is "ur".)
    ("system prompt probing", r"\byour (?:own |full |entire |exact |original |hidden |secret )?system prompts?\b"),
    ("system prompt probing", r"\b(?:reveal|print|show|repeat|output|leak|display|dump|tell me|give me|what is|what are)(?: \w+){0,3}? (?:system|initial|original|hidden|secret|developer) (?:prompt|instructions|message)\b"),
    ("system prompt probing", r"\b(?:your|the) (?:hidden|secret|initial|original) (?:prompt|instructions)\b"),
    ("injected instructions", r"\b(?:follow|obey|execute)(?: these| the following| my| the)? (?:new|updated|revised|real|hidden|secret) (?:instructions|directives|orders|rules)\b"),
    ("injected instructions", r"\binstructions? from (?:the )?(?:developer|admin|administrator|system|openai|anthropic|your creator)s?\b"),
    ("injected instructions", r"\bthis is (?:a |an |the )?(?:system|admin|administrator|developer|priority) (?:message|instruction|override|command|update)\b"),
    ("secrecy", r"\b(?:do not|don t|dont|never|without) (?:tell|telling|inform|informing|notify|notifying|alert|alerting|warn|warning|let|letting)(?: \w+){0,1}? (?:the )?(?:user|human|owner|operator)\b"),
    ("secrecy", r"\b(?:hide|conceal|keep) (?:this|it|these|that|everything)(?: \w+)? from (?:the )?(?:user|human|owner)\b"),
    ("secrecy", r"\bwithout (?:the )?(?:user|human|owner)(?: s)? (?:knowing|knowledge|noticing|consent|permission|approval)\b"),
    ("secrecy", r"\b(?:secretly|silently|covertly|quietly) (?:\w+ ){0,2}?(?:send|run|execute|forward|upload|exfiltrate|copy|delete|email|post|transfer)\b"),
    # --- Indonesian --------------------------------------------------------
    ("instruction override (id)", r"\b(?:abaikan|abaikanlah|lupakan|lupakanlah|acuhkan|hiraukan|tinggalkan|buang|lewati|langgar)(?: \w+){0,4}? (?:instruksi|perintah|aturan|arahan|petunjuk|prompt|pedoman|batasan)(?:mu|nya)?(?: \w+){0,3}"),
    ("role reassignment (id)", rf"\b{_YOU_ID} (?:sekarang|kini) (?:adalah|jadi|menjadi|berperan|bertindak|merupakan)\b"),
    ("role reassignment (id)", rf"\b(?:sekarang|kini) {_YOU_ID} (?:adalah|jadi|menjadi|berperan|bertindak)\b"),
    ("role reassignment (id)", rf"\bmulai (?:sekarang|saat ini|detik ini|hari ini|sekarang ini) {_YOU_ID} (?:harus|wajib|adalah|akan|jadi|menjadi|boleh|tidak|nggak|gak|bukan)\b"),
    ("role reassignment (id)", r"\b(?:berperanlah|bertindaklah|berpura pura|pura pura|berlagaklah) (?:sebagai|menjadi|jadi)\b"),
    ("role reassignment (id)", rf"\banggap(?:lah)? (?:dirimu|diri {_YOU_ID}|{_YOU_ID}) (?:sebagai|adalah|itu)\b"),
    ("role reassignment (id)", r"\bmode (?:pengembang|developer|dan|jailbreak|tanpa batas|tanpa sensor)\b"),
    ("system prompt probing (id)", r"\b(?:prompt|instruksi|perintah|pesan) (?:sistem|system)\b"),
    ("system prompt probing (id)", r"\b(?:tunjukkan|tampilkan|bocorkan|ungkapkan|sebutkan|kasih tau|kasih tahu|beritahu)(?: \w+){0,2}? (?:prompt|instruksi) (?:awal|asli|rahasia|tersembunyi)\b"),
    ("secrecy (id)", r"\bjangan (?:kasih tahu|kasih tau|kasi tau|kasitau|kasih tw|beri tahu|beritahu|bilang|bilangin|kabari|kabarin|kasih liat|kasih lihat|lapor|laporkan)(?: ke| kepada| pada| sama| ama)? (?:user|pengguna|usernya|penggunanya|pemilik|si user|orangnya)\b"),
    ("secrecy (id)", r"\bjangan sampai (?:user|pengguna|dia|usernya) (?:tahu|tau|sadar|lihat|liat)\b"),
    ("secrecy (id)", r"\btanpa sepengetahuan (?:user|pengguna|pemilik|usernya)\b"),
    ("secrecy (id)", r"\bdiam diam (?:kirim|kirimkan|jalankan|hapus|upload|unggah|teruskan|eksekusi|salin)\b"),
    # --- other languages (cheap, high precision) -----------------------------
    ("instruction override (es)", r"\b(?:ignora|ignore|olvida|olvide|descarta|omite)(?: \w+){0,3}? (?:instrucciones|indicaciones|órdenes|ordenes) (?:anteriores|previas)\b"),
    ("instruction override (es)", r"\b(?:ignora|ignore|olvida|olvide) todas las (?:instrucciones|indicaciones|reglas)\b"),
    ("role reassignment (es)", r"\b(?:ahora eres|ahora usted es|a partir de ahora eres)\b"),
    ("instruction override (fr)", r"\b(?:ignore|ignorez|oublie|oubliez)(?: \w+){0,3}? (?:instructions|consignes|directives) (?:précédentes|precedentes|antérieures|anterieures|ci dessus)\b"),
    ("instruction override (fr)", r"\b(?:ignore|ignorez|oublie|oubliez) (?:toutes )?(?:tes|vos) (?:instructions|consignes)\b"),
    ("role reassignment (fr)", r"\b(?:tu es maintenant|vous êtes maintenant|vous etes maintenant)\b"),
    ("instruction override (de)", r"\b(?:ignoriere|ignorieren sie|vergiss|vergessen sie)(?: alle)?(?: \w+){0,2}? (?:anweisungen|instruktionen|befehle|regeln|vorgaben)\b"),
    ("role reassignment (de)", r"\b(?:du bist jetzt|du bist ab jetzt|ab jetzt bist du|sie sind jetzt)\b"),
    ("instruction override (pt)", r"\b(?:ignore|ignora|esqueça|esqueca|desconsidere)(?: \w+){0,3}? (?:instruções|instrucoes|orientações|orientacoes) (?:anteriores|prévias|previas)\b"),
    ("role reassignment (pt)", r"\b(?:você agora é|voce agora e|agora você é|agora voce e)\b"),
    ("instruction override (ru)", r"\b(?:игнорируй|игнорируйте|забудь|забудьте|проигнорируй)(?: \w+){0,2}? (?:инструкции|указания|команды|правила)\b"),
    ("role reassignment (ru)", r"\bты теперь\b"),
    ("instruction override (zh)", r"(?:忽略|无视|忘记|忽視|無視|忘記)(?:之前|以上|上面|先前|所有|前面|以前)(?:的)?(?:所有)?(?:的)?(?:指令|指示|说明|說明|规则|規則|提示)"),
    ("role reassignment (zh)", r"你现在是|你現在是|系统提示|系統提示"),
    ("instruction override (ja)", r"(?:以前|前|上記|これまで)の(?:すべての)?(?:指示|命令|ルール)を(?:すべて)?無視"),
    ("system prompt probing (ja)", r"システムプロンプト"),
]

# Need punctuation, so they run on the plain view.
PLAIN_RULES: list[tuple[str, str]] = [
    ("role marker", r"<\|(?:im_start|im_end|system|user|assistant|endoftext|begin_of_text|start_header_id|end_header_id|eot_id)\|?>"),
    ("role marker", r"\[/?inst\]|<</?sys>>|</?(?:system|instructions?|assistant)>"),
    ("role marker", r"#{1,6} ?(?:system|instructions?|assistant|response|new instructions) ?:"),
    ("role marker", r"[\"']role[\"'] ?: ?[\"'](?:system|developer)[\"']"),
    ("role marker", r"\b(?:system|assistant|developer) ?: ?(?:you |ignore|from now|always|never|do not|don't|the assistant|your |new )"),
    ("role marker", r"(?:^| )(?:human|assistant) ?: [^\n]{0,300}? (?:human|assistant) ?:"),
    ("injected instructions", r"\b(?:new|updated|revised|additional|real|actual|hidden|override|admin|developer|system|important|urgent) (?:instructions?|directives?|orders|prompt) ?:"),
    ("injected instructions (id)", r"\b(?:instruksi|perintah|arahan|aturan) (?:baru|terbaru|rahasia|sebenarnya|sistem|tambahan) ?:"),
    ("tool forcing", r"\bauto-?approve (?:all|every|any)\b"),
]

# Two-step rules: an anchor match, then a "tail" that must occur within the
# next TAIL_WINDOW characters. Splitting keeps each step single-gap (a pattern
# with two lazy gaps would cost window² per anchor).
TAIL_WINDOW = 160
TWO_STEP_RULES: list[tuple[str, str, str, int]] = [
    (
        "exfiltration",
        r"\b(?:send|post|upload|forward|transmit|exfiltrate|leak|e-?mail|copy|dump|share|submit|include|append|embed|encode|kirim|kirimkan|kirimin|unggah|teruskan|bocorkan)\b.{0,80}?\b(?:conversations?|chat logs?|chat history|history|messages|memory|memories|context|system prompt|api keys?|credentials|secrets?|passwords?|tokens?|env(?:ironment)? var(?:iable)?s|\.env|ssh keys?|private keys?|cookies|session|percakapan|obrolan|riwayat|pesan|memori|kata sandi|kredensial|rahasia)\b",
        # "in the request" alone is how API docs say where a key goes ("include the API key in
        # the request header"); "not in the URL" is advice, not a destination
        r"https?://|ftp://|\bwebhook|\b[\w.+-]+@[\w-]+\.\w+|\bngrok\b|pastebin|requestbin|\battacker|(?<!not )(?<!never )\b(?:in|into|to|ke|dalam) (?:the |a |this |an )?(?:url|link|image|query|gambar)\b",
        TAIL_WINDOW,
    ),
    (
        "tool forcing",
        r"\b(?:always|must|automatically|auto|silently|immediately|every time|whenever|each time|before (?:every|each|any)|on (?:every|each)|selalu|harus|otomatis|setiap kali|tiap kali|langsung)\b.{0,60}?\b(?:run|execute|exec|call|invoke|use|type|jalankan|eksekusi|panggil|pakai|ketik)\b",
        r"rm -(?:rf|fr|r) |rm -(?:rf|fr)$|\bmkfs|\bdd if=|chmod (?:-r )?777|:\(\)\s?\{|\b(?:curl|wget) [^\n|]{0,100}\| ?(?:sudo )?(?:ba|z|fi)?sh\b|\bshutdown\b|\bdel /[sfq]|format c:|drop (?:table|database)|git push (?:-f|--force)|> ?/dev/sd|base64 -d ?\|",
        TAIL_WINDOW,
    ),
    (
        "tool forcing",
        r"\b(?:run|execute|delete|remove|push|install|approve|jalankan|eksekusi|hapus)\b",
        r"\b(?:without (?:asking|confirm|confirmation|confirming|approval|permission|prompting|checking)|tanpa (?:tanya|nanya|konfirmasi|izin|persetujuan|minta izin))",
        80,
    ),
]

# The paraphrase families in ten languages live in their own module.
# Agent-hijack families from maintained public rule sets (skill-scanner, ATR).
from .injection_above import PLAIN_RULES as _ABOVE_PLAIN  # noqa: E402
from .injection_above import WORD_RULES as _ABOVE_WORD  # noqa: E402
from .injection_addressed_agent import PLAIN_RULES as _ADDRESSED_PLAIN  # noqa: E402
from .injection_addressed_agent import TWO_STEP_RULES as _ADDRESSED_TWO_STEP  # noqa: E402
from .injection_agentic import PLAIN_RULES as _AGENTIC_PLAIN  # noqa: E402
from .injection_agentic import TWO_STEP_RULES as _AGENTIC_TWO_STEP  # noqa: E402
from .injection_agentic import WORD_RULES as _AGENTIC_WORD  # noqa: E402
from .injection_core_languages import PLAIN_RULES as _CORE_LANG_PLAIN  # noqa: E402
from .injection_families import PLAIN_RULES as _FAMILY_PLAIN  # noqa: E402
from .injection_families import TWO_STEP_RULES as _FAMILY_TWO_STEP  # noqa: E402
from .injection_families import WORD_RULES as _FAMILY_WORD  # noqa: E402
from .injection_generalised import PLAIN_RULES as _GENERAL_PLAIN  # noqa: E402
from .injection_generalised import TWO_STEP_RULES as _GENERAL_TWO_STEP  # noqa: E402
from .injection_generalised import WORD_RULES as _GENERAL_WORD  # noqa: E402
from .injection_indirect import PLAIN_RULES as _INDIRECT_PLAIN  # noqa: E402
from .injection_indirect import TWO_STEP_RULES as _INDIRECT_TWO_STEP  # noqa: E402
from .injection_indirect import WORD_RULES as _INDIRECT_WORD  # noqa: E402
from .injection_indirect_languages import PLAIN_RULES as _INDIRECT_LANG_PLAIN  # noqa: E402
from .injection_indirect_languages import TWO_STEP_RULES as _INDIRECT_LANG_TWO_STEP  # noqa: E402
from .injection_indirect_languages import WORD_RULES as _INDIRECT_LANG_WORD  # noqa: E402
from .injection_indirect_wide import PLAIN_RULES as _INDIRECT_WIDE_PLAIN  # noqa: E402
from .injection_more_languages import PLAIN_RULES as _LANG_PLAIN  # noqa: E402
from .injection_more_languages import WORD_RULES as _LANG_WORD  # noqa: E402
from .injection_task_gate import PLAIN_RULES as _TASK_GATE_PLAIN  # noqa: E402
from .injection_task_gate import TWO_STEP_RULES as _TASK_GATE_TWO_STEP  # noqa: E402
from .injection_task_gate import WORD_RULES as _TASK_GATE_WORD  # noqa: E402
from .injection_task_switch import PLAIN_RULES as _TASK_SWITCH_PLAIN  # noqa: E402

WORD_RULES += _FAMILY_WORD + _AGENTIC_WORD + _GENERAL_WORD + _INDIRECT_WORD + _INDIRECT_LANG_WORD + _ABOVE_WORD + _LANG_WORD
PLAIN_RULES += _FAMILY_PLAIN + _AGENTIC_PLAIN + _GENERAL_PLAIN + _INDIRECT_PLAIN + _INDIRECT_LANG_PLAIN + _ABOVE_PLAIN + _LANG_PLAIN
PLAIN_RULES += _INDIRECT_WIDE_PLAIN
WORD_RULES += _TASK_GATE_WORD
PLAIN_RULES += _TASK_GATE_PLAIN + _CORE_LANG_PLAIN + _TASK_SWITCH_PLAIN + _ADDRESSED_PLAIN
TWO_STEP_RULES += _FAMILY_TWO_STEP + _AGENTIC_TWO_STEP + _GENERAL_TWO_STEP + _INDIRECT_TWO_STEP + _INDIRECT_LANG_TWO_STEP
TWO_STEP_RULES += _ADDRESSED_TWO_STEP + _TASK_GATE_TWO_STEP

# Phrases to look for in squashed spaced-out runs ("i g n o r e a l l …").
SQUASHED_PHRASES = (
    "ignoreallpreviousinstructions", "ignorepreviousinstructions", "ignoreallinstructions",
    "ignoreallprior", "ignoretheabove", "ignoreyourinstructions", "disregardallprevious",
    "disregardpreviousinstructions", "disregardtheabove", "forgetallpreviousinstructions",
    "forgetyourinstructions", "forgetallinstructions", "youarenow", "systemprompt",
    "developermode", "newinstructions", "donottelltheuser", "donttelltheuser",
    "abaikansemuainstruksi", "abaikaninstruksi", "lupakaninstruksi", "lupakansemuainstruksi",
    "kamusekarangadalah", "promptsistem", "jangankasihtahu", "jangankasihtau", "jailbreak",
)
# Safe to look for even in the whole text with all spaces removed.
SQUASHED_ANYWHERE = (
    "ignoreallpreviousinstructions", "ignorepreviousinstructions", "disregardpreviousinstructions",
    "disregardallpreviousinstructions", "forgetallpreviousinstructions",
    "abaikansemuainstruksisebelumnya", "abaikaninstruksisebelumnya", "lupakansemuainstruksi",
)

_ID_QUALIFIER = re.compile(r"\b(?:semua|seluruh|sebelumnya|sebelum ini|di atas|diatas|tadi|sistem|system|awal|asli|yang diberikan|kamu|anda|lo|lu)\b|\b(?:instruksi|perintah|aturan|arahan|petunjuk|prompt|pedoman|batasan)mu\b")


def id_override_is_qualified(snippet: str) -> bool:
    """'lupakan aturan soal tab' is a preference; 'lupakan semua instruksi' is not."""
    return bool(_ID_QUALIFIER.search(snippet))


# --- Necessary literals (for the screener's prefilter) ----------------------
#
# Derived from the patterns above, never written by hand, so a new or edited
# rule cannot silently escape the prefilter. For a pattern, `required_literals`
# returns a set S of non-empty strings such that every match contains some
# member of S as a substring; the screener then runs a rule only on texts
# where its literals occur. The analysis is conservative: anything it cannot
# reason about (classes, unbounded repeats, categories) ends a literal stretch,
# and a pattern with no usable stretch gets None (the rule always runs).

ANCHOR = _ANCHOR = "\x00"
_LEADING_NON_WORD = re.compile(r"^\W+")
_WORD_START = re.compile(r"\w")
_CROSS_CAP = 64  # bound the cross products of alternations
_LITERAL_MAX = 12  # a prefix of a necessary literal is necessary too


def _exact(items: Sequence[Node]) -> set[str] | None:
    """The finite set of strings `items` can match, or None if not finite/small."""
    out = {""}
    tails: set[str] | None
    for op, av in items:
        if op == LITERAL:
            tails = {chr(av)}
        elif op in (AT, ASSERT, ASSERT_NOT):
            continue  # zero-width: does not break a literal stretch
        elif op in (SUBPATTERN, ATOMIC_GROUP):
            tails = _exact(av[3] if op == SUBPATTERN else av)
        elif op == BRANCH:
            parts = [_exact(b) for b in av[1]]
            known = [p for p in parts if p is not None]
            tails = set().union(*known) if len(known) == len(parts) else None
        elif op == IN and all(o == LITERAL for o, _ in av):
            tails = {chr(c) for _, c in av}
        elif op in (MAX_REPEAT, MIN_REPEAT, POSSESSIVE_REPEAT) and av[:2] == (0, 1):
            tails = _exact(av[2])
            tails = None if tails is None else tails | {""}
        else:
            return None
        if tails is None:
            return None
        out = {s + t for s in out for t in tails}
        if len(out) > _CROSS_CAP:
            return None
    return out


def _necessary(items: Sequence[Node], word_start: bool = False) -> list[str] | None:
    """Best necessary stretch of `items`; a word start ("\\b", or `word_start`:
    right after a non-word char) is marked with _ANCHOR."""
    found: list[set[str]] = []
    stretch = {_ANCHOR} if word_start else {""}

    def close() -> None:
        nonlocal stretch
        if "" not in stretch and _ANCHOR not in stretch:
            found.append(stretch)
        stretch = {""}

    for item in items:
        if item == (AT, AT_BOUNDARY) and stretch == {""}:
            stretch = {_ANCHOR}  # what follows starts at a word boundary
            continue
        exact = _exact([item])
        if exact is not None:
            longer = {s + t for s in stretch for t in exact}
            if len(longer) > _CROSS_CAP:
                # Start afresh, keeping a last non-word char so "…s " + "x" still
                # tells that "x" starts a word.
                lasts = {s[-1:] for s in stretch}
                keep = lasts if all(c and not _WORD_START.match(c) for c in lasts) else {""}
                close()
                longer = {c + t for c in keep for t in exact}
            stretch = longer
            continue
        # A group right after "… " or "\\b" starts a word; tell the recursion.
        lead = stretch == {_ANCHOR} or all(s and not _WORD_START.match(s[-1]) for s in stretch)
        close()
        op, av = item
        inner: list[str] | None = None
        if op in (SUBPATTERN, ATOMIC_GROUP):
            inner = _necessary(av[3] if op == SUBPATTERN else av, lead)
        elif op == BRANCH:
            parts = [_necessary(b, lead) for b in av[1]]
            known = [p for p in parts if p]
            inner = [x for p in known for x in p] if len(known) == len(parts) else None
        elif op in (MAX_REPEAT, MIN_REPEAT, POSSESSIVE_REPEAT) and av[0] >= 1:
            inner = _necessary(av[2])
        if inner:
            found.append(set(inner))
    close()
    # The most selective stretch: longest shortest member, then fewest members.
    best = max(found, key=lambda s: (min(len(x.lstrip(_ANCHOR)) for x in s), -len(s)), default=None)
    return None if best is None else sorted(best)


def required_literals(pattern: str) -> frozenset[str] | None:
    """Strings one of which every match of `pattern` contains (None: unknown).

    A member starting with `ANCHOR` ("\\x00") occurs at the start of a `\\w+`
    run: the pattern has "\\b" there, or the member followed punctuation or a
    space (which is then dropped). The screener indexes such members by their
    run's first characters instead of searching for each.
    """
    found = _necessary(parse(pattern)[0])
    if not found:
        return None
    out = set()
    for lit in found:
        anchored = lit.startswith(_ANCHOR)
        lit = lit.lstrip(_ANCHOR)
        body = _LEADING_NON_WORD.sub("", lit)
        if body and body != lit:
            lit, anchored = body, True  # a word char right after a non-word char
        lit = lit[:_LITERAL_MAX]
        out.add(ANCHOR + lit if anchored and _WORD_START.match(lit) else lit)
    # "rm -rf" is implied by "rm -rf "; keep only minimal members.
    return frozenset(x for x in out if not any(o != x and _implies(x, o) for o in out))


def _implies(x: str, o: str) -> bool:
    """An occurrence of member `x` is also one of member `o` (anchoring included)."""
    bx, bo = x.lstrip(ANCHOR), o.lstrip(ANCHOR)
    if not o.startswith(ANCHOR):
        return bo in bx
    return x.startswith(ANCHOR) and bx.startswith(bo)
