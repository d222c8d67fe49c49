"""The core injection families in languages no other module covers, and paraphrase gaps in those it does.

Families (from per-language word tables, plain view: casefolded, NFKC,
punctuation kept, gaps bounded within a sentence):

* override: a verb of ignoring/forgetting, an instruction noun and a
  "previous/all/system/original" qualifier, in either order after the verb;
  for verb-final languages (Japanese, Korean, Persian, Bengali, Hungarian,
  Finnish) also with the verb after them;
* forget what you were told: "ignore everything you were told before";
* not to follow: "do not follow / pay no attention to the previous
  instructions" (a negated verb of obeying);
* the system prompt asked for: a verb of showing/revealing, then "system
  prompt/message/instructions".

Languages added: Japanese and Korean (override), Greek, Czech, Slovak,
Swedish, Danish, Norwegian, Finnish, Hungarian, Romanian, Bulgarian, Hebrew,
Persian, Bengali; paraphrases added for German, Dutch, Polish, Spanish,
French, Russian and Ukrainian. Written as translations of the families (no
attack set in these languages was read). Greek final sigma casefolds to σ,
hence ``[σς]``. Scripts whose words take attached particles or prefixes
(Hebrew, Persian, Bengali, Japanese, Korean) match without word boundaries.
Precision: three anchors (verb, noun, qualifier) or verb plus a two-word
name; measured per language on Universal Dependencies rows of
bench/bench_injection_public.py.
"""

# ruff: noqa: E501  (tables of words: one language per line)
from __future__ import annotations

import unicodedata

_SENT = r"[^.!?\n。！？।]"

# (ignore/forget, previous/all/system, instructions); word boundaries apply
_OVERRIDE: dict[str, tuple[str, str, str]] = {
    "el": (
        "αγνόησε|αγνοήστε|αγνόησέ|ξέχασε|ξεχάστε|παράβλεψε|παραβλέψτε|αγνοείστε",
        "προηγούμενε[σς]|παλιέ[σς]|αρχικέ[σς]|όλε[σς]|του συστήματο[σς]",
        "οδηγίε[σς]|εντολέ[σς]|κανόνε[σς]|οδηγιε[σς]",
    ),
    "cs": (
        "ignoruj|ignorujte|zapomeň|zapomeňte|zapomen|nevšímej si|nevšímejte si|přehlédni",
        "předchozí|dřívější|všechny|veškeré|původní|systémové|výše uvedené",
        "pokyny|instrukce|příkazy|pravidla|pokynů|instrukcí",
    ),
    "sk": (
        "ignoruj|ignorujte|zabudni|zabudnite|nevšímaj si|nevšímajte si",
        "predchádzajúce|predošlé|všetky|pôvodné|systémové|vyššie uvedené",
        "pokyny|inštrukcie|príkazy|pravidlá",
    ),
    "sv": (
        "ignorera|strunta i|glöm|bortse från|bortse ifrån|åsidosätt",
        "tidigare|föregående|alla|ursprungliga|systemets",
        "instruktioner|instruktionerna|anvisningar|anvisningarna|regler|reglerna|direktiv|kommandon",
    ),
    "da": (
        "ignorer|glem|se bort fra|tilsidesæt",
        "tidligere|forrige|alle|oprindelige|systemets",
        "instruktioner|instruktionerne|anvisninger|anvisningerne|regler|reglerne|kommandoer",
    ),
    "no": (
        "ignorer|glem|se bort fra|overse|tilsidesett",
        "tidligere|forrige|alle|opprinnelige|systemets",
        "instruksjoner|instruksjonene|instrukser|instruksene|regler|reglene|kommandoer",
    ),
    "fi": (
        "ohita|ohittakaa|unohda|unohtakaa|sivuuta|jätä huomiotta|älä välitä",
        "aiemmat|aikaisemmat|edelliset|kaikki|alkuperäiset|järjestelmän",
        "ohjeet|ohjeesi|ohjeita|ohjeista|käskyt|säännöt|määräykset",
    ),
    "hu": (
        "hagyd figyelmen kívül|hagyja figyelmen kívül|felejtsd el|felejtse el|ne vedd figyelembe|ne törődj",
        "korábbi|előző|összes|minden|eredeti|rendszer",
        "utasítást|utasításokat|utasítás|utasításaidat|parancsokat|szabályokat",
    ),
    "ro": (
        "ignoră|ignora|ignorați|ignorati|uită|uitați|uitati|nu ține cont de|nu tine cont de|nu lua în seamă",
        "anterioare|precedente|toate|inițiale|initiale|de sistem|sistemului|de mai sus",
        "instrucțiunile|instructiunile|instrucțiuni|instructiuni|comenzile|regulile|indicațiile|indicatiile",
    ),
    "bg": (
        "игнорирай|игнорирайте|забрави|забравете|пренебрегни|пренебрегнете",
        "предишните|предходните|всички|първоначалните|системните|горните",
        "инструкции|указания|команди|правила|инструкциите|указанията",
    ),
    # paraphrases missing in modules that cover these languages
    "ru": (
        "не обращай внимания на|не обращайте внимания на|пренебреги|пренебрегите|отбрось|отбросьте|не слушай",
        "предыдущие|прежние|все|системные|изначальные|первоначальные|вышеуказанные",
        "инструкции|указания|команды|правила|установки",
    ),
    "uk": (
        "не звертай уваги на|не звертайте уваги на|знехтуй|знехтуйте|відкинь",
        "попередні|усі|всі|системні|початкові|первісні",
        "інструкції|вказівки|команди|правила",
    ),
}
# the same without word boundaries: prefixes and particles are attached to the words
_OVERRIDE_BARE: dict[str, tuple[str, str, str]] = {
    "he": (
        "התעלם|התעלמי|התעלמו|תתעלם|תתעלמי|תתעלמו|שכח|שכחי|שכחו|תשכח|תשכחי|אל תתייחס|אל תתייחסי",
        "הקודמות|הקודמים|הקודמת|המקוריות|של המערכת|כל ה",
        "הוראות|הנחיות|פקודות|כללים|ההוראות|ההנחיות",
    ),
}
# verb-final: (previous/all/system, instructions, ignore/forget), either noun order, the verb last
_OVERRIDE_VERB_LAST: dict[str, tuple[str, str, str]] = {
    "ja": (
        "以前|前の|上記|これまで|先ほど|最初|システム|すべて|全て",
        "指示|命令|ルール|指令|プロンプト|設定",
        "無視|忘れ",
    ),
    "ko": (
        "이전|앞의|위의|기존|모든|시스템|처음",
        "지시|지침|명령|규칙|프롬프트|설정",
        "무시|잊어|잊고|잊으|따르지 마",
    ),
    "fa": (
        "قبلی|پیشین|همه|تمام|اصلی|سیستم",
        "دستورالعمل|دستورات|دستور|قوانین|راهنمایی|فرمان",
        "نادیده بگیر|فراموش کن|توجه نکن|نادیده بگیرید|فراموش کنید",
    ),
    "bn": (
        "আগের|পূর্ববর্তী|পূর্বের|সব|সকল|সিস্টেম",
        "নির্দেশ|নির্দেশনা|নির্দেশাবলী|আদেশ|নিয়ম",
        "উপেক্ষা|ভুলে যাও|ভুলে যান|অগ্রাহ্য|মানবে না|মেনো না",
    ),
    "hu": (
        "korábbi|előző|összes|eredeti|rendszer",
        "utasítás|parancs|szabály",
        "hagyd figyelmen kívül|hagyja figyelmen kívül|felejtsd el|felejtse el|ne vedd figyelembe",
    ),
    "fi": ("aiemmat|aikaisemmat|edelliset|kaikki|alkuperäiset", "ohjeet|käskyt|säännöt", "huomiotta|unohda|unohtakaa"),
}

# (ignore/forget, everything, what you were told)
_TOLD: dict[str, tuple[str, str, str]] = {
    "de": (
        "ignoriere|ignorieren sie|vergiss|vergessen sie",
        "alles",
        r"was (?:man )?(?:dir|ihnen|du|sie)\W+(?:\w+\W+){0,2}?(?:gesagt|mitgeteilt|aufgetragen|erzählt|befohlen|gegeben)",
    ),
    "nl": (
        "negeer|vergeet",
        "alles",
        r"wat (?:je|jou|u|men je)\W+(?:\w+\W+){0,2}?(?:verteld|gezegd|opgedragen|gegeven)",
    ),
    "pl": (
        "zignoruj|zapomnij|zignorujcie|zapomnijcie",
        "wszystko|o wszystkim",
        r"co (?:ci|tobie|wam|pani|panu)\W+(?:\w+\W+){0,2}?(?:powiedziano|kazano|mówiono|przekazano|polecono)",
    ),
    "sv": (
        "ignorera|glöm",
        "allt",
        r"(?:du|ni) (?:har |fått |blivit )*(?:fått höra|blivit tillsagd|sagts|ombetts|fått veta)|som (?:har )?sagts till (?:dig|er)",
    ),
    "da": (
        "ignorer|glem",
        "alt",
        r"(?:du|i) (?:har |er )*(?:fået at vide|blevet fortalt|blevet bedt om)|hvad (?:du|i) (?:har )?fået at vide",
    ),
    "no": (
        "ignorer|glem",
        "alt",
        r"(?:du|dere) (?:har |er )*(?:fått beskjed om|blitt fortalt|fått vite)|det (?:du|dere) (?:har )?fått (?:beskjed om|vite)",
    ),
    "cs": (
        "ignoruj|zapomeň|ignorujte|zapomeňte",
        "vše|všechno|na vše|na všechno",
        r"co (?:ti|vám) (?:bylo|kdo|kdy)?\W*(?:\w+\W+){0,2}?(?:řečeno|řekl|sděleno|přikázáno)",
    ),
    "el": (
        "αγνόησε|ξέχασε|αγνοήστε|ξεχάστε",
        "ό,τι|οτιδήποτε|όλα όσα|όλα",
        r"(?:σου|σας) (?:έχουν |είχαν |έχει )?(?:πει|ειπωθεί|ζητήσει)",
    ),
}

# (do not follow / pay no attention, previous, instructions): negated obeying; word boundaries apply
_NOT_FOLLOW: dict[str, tuple[str, str, str]] = {
    "es": (
        r"(?<=\bno )(?:sigas|obedezcas|cumplas|hagas caso (?:a|de))|deja de seguir",
        "del sistema|anteriores|previas|originales|iniciales",
        "instrucciones|reglas|indicaciones|directrices|normas",
    ),
    "fr": (
        "ne tiens (?:plus |pas )?compte|ne tenez (?:plus |pas )?compte|fais abstraction|faites abstraction|ne suis (?:plus|pas)|ne suivez (?:plus|pas)",
        "précédentes|precedentes|antérieures|anterieures|initiales|du système|du systeme|ci dessus|ci-dessus",
        "consignes|instructions|règles|regles|directives",
    ),
    "de": (
        "befolge nicht|folge nicht|halte dich nicht an|beachte nicht|missachte|missachten sie",
        "vorherigen|bisherigen|früheren|ursprünglichen|obigen|system",
        "anweisungen|regeln|vorgaben|befehle|instruktionen",
    ),
    "it": (
        r"(?<=\bnon )(?:seguire|rispettare|obbedire a|dare retta a)",
        "precedenti|di sistema|originali|iniziali",
        "istruzioni|regole|indicazioni|direttive",
    ),
    "pt": (
        r"(?<=\bnão )(?:siga|obedeça|cumpra)|(?<=\bnao )(?:siga|obedeca|cumpra)|deixe de seguir",
        "anteriores|do sistema|originais|iniciais|prévias|previas",
        "instruções|instrucoes|regras|diretrizes|orientações",
    ),
}

# (show/reveal, system prompt): the system prompt asked for
_REVEAL: dict[str, tuple[str, str]] = {
    "ko": ("보여|알려|출력|공개|말해|보내", "시스템 프롬프트|시스템 메시지|시스템 지침|초기 지시|초기 프롬프트"),
    "el": (
        "δείξε|δείξτε|αποκάλυψε|αποκαλύψτε|τύπωσε|πες μου|γράψε|εμφάνισε",
        "μήνυμα του συστήματο[σς]|προτροπή του συστήματο[σς]|οδηγίε[σς] του συστήματο[σς]|system prompt|αρχικέ[σς] οδηγίε[σς]",
    ),
    "cs": (
        "ukaž|ukažte|vypiš|vypište|prozraď|prozraďte|řekni mi|zobraz|zobrazte",
        "systémový prompt|systémové pokyny|systémovou výzvu|systémové instrukce|původní pokyny",
    ),
    "sk": (
        "ukáž|ukážte|vypíš|vypíšte|prezraď|povedz mi|zobraz",
        "systémový prompt|systémové pokyny|systémové inštrukcie|pôvodné pokyny",
    ),
    "sv": (
        "visa|avslöja|skriv ut|berätta|återge",
        "systemprompt|systemmeddelande|systeminstruktioner|ursprungliga instruktioner",
    ),
    "da": (
        "vis|afslør|udskriv|fortæl|gengiv",
        "systemprompt|systembesked|systeminstruktioner|oprindelige instruktioner",
    ),
    "no": (
        "vis|avslør|skriv ut|fortell|gjengi",
        "systemprompt|systemmelding|systeminstruksjoner|opprinnelige instruksjoner",
    ),
    "fi": ("näytä|paljasta|tulosta|kerro", "järjestelmäkehote|järjestelmäohje|järjestelmäviesti|alkuperäiset ohjeet"),
    "hu": (
        "mutasd|mutassa|írd ki|írja ki|árulj el|áruld el|mondd el",
        "rendszerprompt|rendszerüzenet|rendszerutasítás|eredeti utasítás",
    ),
    "ro": (
        "arată|arata|afișează|afiseaza|dezvăluie|dezvaluie|spune[- ]mi|scrie",
        "promptul de sistem|promptul sistemului|mesajul de sistem|instrucțiunile de sistem|instructiunile de sistem|instrucțiunile inițiale",
    ),
    "bg": (
        "покажи|покажете|разкрий|разкрийте|изпиши|кажи ми",
        "системния промпт|системните инструкции|системното съобщение|първоначалните инструкции",
    ),
    "he": (
        "הצג|תראה|הראה|חשוף|תגיד לי|הדפס|גלה",
        "הנחיית המערכת|פרומפט המערכת|הוראות המערכת|הודעת המערכת|ההנחיות המקוריות",
    ),
    "fa": (
        "نشان بده|نمایش بده|فاش کن|بگو|چاپ کن|نشان دهید",
        "پرامپت سیستم|دستورالعمل سیستم|پیام سیستم|دستورات سیستم|پرامپت سیستمی",
    ),
    "bn": ("দেখাও|দেখান|প্রকাশ কর|বলো|বলুন|লিখে দাও", "সিস্টেম প্রম্পট|সিস্টেম নির্দেশ|সিস্টেম বার্তা"),
}
_NO_BOUNDARY = {"he", "fa", "bn", "ja", "ko"}


def _b(lang: str) -> str:
    return "" if lang in _NO_BOUNDARY else r"\b"


def _either(first: str, second: str, b: str, gap: int) -> str:
    return (
        rf"(?:{b}(?:{first}){b}{_SENT}{{0,{gap}}}?{b}(?:{second})|{b}(?:{second}){b}{_SENT}{{0,{gap}}}?{b}(?:{first}))"
    )


def _rules() -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for lang, (verb, prior, noun) in {**_OVERRIDE, **_OVERRIDE_BARE}.items():
        b = _b(lang) if lang not in _OVERRIDE_BARE else ""
        out.append(
            (f"instruction override ({lang})", rf"{b}(?:{verb}){b}{_SENT}{{0,30}}?{_either(prior, noun, b, 20)}")
        )
    for lang, (prior, noun, verb) in _OVERRIDE_VERB_LAST.items():
        b = _b(lang)
        out.append((f"instruction override ({lang})", rf"{_either(prior, noun, b, 20)}{_SENT}{{0,25}}?{b}(?:{verb})"))
    for lang, (verb, everything, told) in _TOLD.items():
        out.append((f"instruction override ({lang})", rf"\b(?:{verb})\b\W+(?:{everything})\b\W+(?:{told})\b"))
    for lang, (verb, prior, noun) in _NOT_FOLLOW.items():
        both = _either(prior, noun, r"\b", 20)
        out.append((f"instruction override ({lang})", rf"\b(?:{verb})\b{_SENT}{{0,20}}?{both}\b"))
    for lang, (verb, prompt) in _REVEAL.items():
        b = _b(lang)
        out.append(
            (
                f"system prompt probing ({lang})",
                rf"(?:{b}(?:{verb}){b}{_SENT}{{0,40}}?{b}(?:{prompt})|{b}(?:{prompt}){_SENT}{{0,30}}?(?:{verb}))",
            )
        )
    return [(label, unicodedata.normalize("NFKC", pattern)) for label, pattern in out]


PLAIN_RULES: list[tuple[str, str]] = _rules()
