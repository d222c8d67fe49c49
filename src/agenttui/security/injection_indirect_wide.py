"""Indirect-attack families built from per-language word tables.

The other ``injection_*`` modules write one pattern per language and family.
Here each language gives a few small word lists (the words for
"instructions", "new", "important", "in your response", "your system
prompt", "I made a mistake", "forgot", "if you are asked to summarise",
"instead") and the families are put together from them, so a language is
added by filling its row. Families:

* a header of new orders: "*** NEW IMPORTANT INSTRUCTIONS ***" -- a word for
  new/important/urgent next to a word for instructions, set off by emphasis
  marks (``**``, ``##``, ``==``, ``!!``) or ended by a colon;
* output dictated to the agent: "include in your response the following
  string: …" -- "in your response/answer" followed, in the same sentence, by
  a colon that opens the dictated text;
* the system prompt asked for: "your system prompt/message", "the initial
  prompt you were given";
* a correction of the agent's instructions: "I made a mistake when I gave you
  the instructions and forgot to ask you to …" -- mistake, instructions and
  forgot, in that order, within one sentence;
* the task swapped: "if you are asked to summarise the input …, instead …";
* a task handed over as an exercise: "as part of a training exercise, this
  task was assigned to you: …" (a colon opens the task);
* active content for the reply, language independent: ``<img … onerror=``,
  ``<svg … onload=``, ``href="javascript:``.

Languages: the sixteen of the other modules (en es fr de pt it id ru uk vi zh
ar hi th tr tl) plus Dutch, Polish, Albanian, Irish, Scottish Gaelic, Zulu
and Swahili; for the last seven, which no other module covers, also the core
families: "ignore all previous instructions", "a message to you, the AI",
"before you do the task, first …".
Written from the tuning halves of bench/injection_indirect_sets.py (spikee's
sq/ga/gd/zu rows) and the family list of the screen. Precision: every family
needs two anchors (a noun and its qualifier, a phrase and a colon, three
words in order); measured per language on the Universal Dependencies rows of
bench/bench_injection_public.py. Rules run on the plain view (casefolded,
NFKC, punctuation kept) because the colon and emphasis marks matter; ``\\w``
gaps are bounded.
"""

# ruff: noqa: E501  (tables of words: one language per line)
from __future__ import annotations

import unicodedata

# (instructions, new/important/urgent)
_HEADER_WORDS: dict[str, tuple[str, str]] = {
    "en": ("instructions?|directives?|orders|commands|tasks?", "new|important|urgent|updated|revised|critical"),
    "es": ("instrucciones|indicaciones|órdenes|directivas|tareas?", "nuevas?|importantes?|urgentes?|actualizadas"),
    "fr": ("instructions|consignes|directives|ordres|tâches?", "nouvelles?|importantes?|urgentes?|mises à jour"),
    "de": ("anweisungen|anweisung|befehle|anordnungen|instruktionen|aufgaben?", "neue|wichtige|dringende|neuen|wichtigen|aktualisierte"),
    "pt": ("instruções|instrucoes|ordens|diretrizes|tarefas?", "novas?|importantes?|urgentes?"),
    "it": ("istruzioni|direttive|ordini|compiti", "nuove|importanti|urgenti"),
    "nl": ("instructies|aanwijzingen|opdrachten|taken", "nieuwe|belangrijke|dringende"),
    "pl": ("instrukcje|polecenia|wytyczne|zadania", "nowe|ważne|wazne|pilne"),
    "id": ("instruksi|perintah|tugas", "baru|penting|mendesak"),
    "ru": ("инструкции|указания|команды|задания|распоряжения", "новые|важные|срочные"),
    "uk": ("інструкції|вказівки|команди|завдання|розпорядження", "нові|важливі|термінові"),
    "tr": ("talimatlar|talimatlari|yönergeler|komutlar|görevler", "yeni|önemli|acil"),
    "vi": ("hướng dẫn|chỉ thị|mệnh lệnh|nhiệm vụ", "mới|quan trọng|khẩn cấp"),
    "tl": ("tagubilin|instruksyon|utos|gawain", "bagong|bago|mahalagang|mahalaga|agarang"),
    "ar": ("تعليمات|التعليمات|أوامر|الأوامر|توجيهات|مهمة", "جديدة|الجديدة|هامة|مهمة|عاجلة"),
    "sq": ("udhëzime|udhëzimet|udhezime|urdhra|detyrë|detyra", "reja|rëndësishme|rendesishme|urgjente"),
    "ga": ("treoracha|treoir|orduithe|tasc", "nua|tábhachtacha|tábhachtach|práinneach|phráinneach"),
    "gd": ("stiùireadh|stiùiridhean|òrdughan|obair", "ùr|ùra|cudromach|èiginneach"),
    "zu": ("imiyalelo|imiyalo|imiyalezo", "emisha|entsha|ebalulekile|ephuthumayo"),
}
# Chinese, Hindi and Thai: no spaces (or no \w throughout), so no \b and no word gaps.
_HEADER_PLAIN: dict[str, tuple[str, str]] = {
    "zh": ("指令|指示|说明|命令|任务", "新的?|重要的?|紧急的?|最新的?"),
    "hi": ("निर्देश|आदेश|कार्य", "नए|नये|महत्वपूर्ण|ज़रूरी|जरूरी|तत्काल"),
    "th": ("คำสั่ง|คำแนะนำ|ภารกิจ", "ใหม่|สำคัญ|ด่วน"),
}

# "in your response/answer" (the place dictated text goes)
_IN_RESPONSE: dict[str, str] = {
    "es": r"en (?:tu|su) (?:respuesta|contestación|salida)",
    "fr": r"dans (?:ta|votre) (?:réponse|sortie)",
    "de": r"in (?:deine|deiner|ihre|ihrer) antwort|in (?:deine|deiner|ihre|ihrer) ausgabe",
    "pt": r"(?:na|em) (?:sua|tua) resposta",
    "it": r"nella (?:tua|sua) risposta",
    "nl": r"in (?:je|jouw|uw) (?:antwoord|reactie)",
    "pl": r"w (?:swojej|twojej|pana|pani) odpowiedzi",
    "id": r"(?:dalam|di|ke dalam|pada) (?:jawaban|respons|balasan)(?:mu| anda| kamu)",
    "ru": r"в (?:свой|твой|ваш|своём|своем|твоём|твоем|вашем) ответе?",
    "uk": r"(?:у|в) (?:свою|твою|вашу|своїй|твоїй|вашій) відповід[ьі]",
    "tr": r"(?:yanıtına|yanitina|cevabına|cevabina|yanıtınıza|cevabınıza|yanıtında|cevabında)",
    "vi": r"(?:vào|trong) (?:câu trả lời|phản hồi|kết quả) của bạn",
    "tl": r"sa (?:iyong|inyong) (?:sagot|tugon)",
    "ar": r"(?:في|فى) (?:ردك|إجابتك|اجابتك|جوابك)",
    "sq": r"(?:në )?përgjigj(?:en|es|e) (?:tënde|tuaj|tende)",
    "ga": r"(?:i|in|deireadh) (?:do|bhur) fhreagra",
    "gd": r"(?:san|anns an|deireadh do) fhreagairt(?: agad)?|nad fhreagairt",
    "zu": r"(?:empendulweni|kwimpendulo|empendulo|ekuphenduleni) (?:yakho|kwakho)",
}
_IN_RESPONSE_PLAIN: dict[str, str] = {
    "zh": r"(?:你|您)的(?:回答|回复|答复|响应|输出)(?:中|里|里面)",
    "hi": r"(?:अपने|आपके|तुम्हारे) (?:जवाब|उत्तर) में",
    "th": r"(?:ใน)?คำตอบของคุณ",
}

# "your system prompt / message", "the initial prompt you were given"
_SYSTEM_PROMPT: dict[str, str] = {
    "es": r"(?:tu|su) (?:prompt|mensaje|instrucción) (?:de|del) sistema|(?:el|tu) prompt inicial",
    "fr": r"(?:ton|votre) (?:prompt|message|invite) (?:système|systeme|initial|initiale)",
    "de": r"(?:deine|deinen|ihre|ihren) (?:systemanweisung|systemprompt|systemnachricht|anfangsprompt)",
    "pt": r"(?:seu|teu) (?:prompt|mensagem) (?:do|de) sistema|(?:seu|teu) prompt inicial",
    "it": r"(?:tuo|suo) (?:prompt|messaggio) (?:di sistema|iniziale)",
    "nl": r"(?:je|jouw|uw) (?:systeemprompt|systeembericht|systeeminstructies|beginprompt)",
    "pl": r"(?:twój|twoj|swój|swoj|twoje) (?:prompt systemowy|komunikat systemowy|instrukcje systemowe|początkowy prompt)",
    "sq": r"(?:kërkes|kerkes)(?:ën|en|ës|es) (?:tënde|tuaj) (?:të|te) sistemit|mesazhin (?:tënd|tend) (?:të|te) sistemit|(?:kërkes|kerkes)(?:ën|en) fillestare",
    "ga": r"(?:do|bhur) (?:theachtaireacht|treoir) chórais|teachtaireacht chórais|moladh tosaigh",
    "gd": r"teachdaireachd (?:siostam|an t.siostaim)|(?:ceist|cheist|stiùireadh) tùsail",
    "zu": r"(?:umyalezo|umbhalo|wombhalo) (?:wakho )?wesistimu|umyalezo wokuqala",
}
_SYSTEM_PROMPT_PLAIN: dict[str, str] = {
    "zh": r"(?:你|您)的(?:系统提示|系统提示词|系统消息|初始提示|系统指令)",
    "hi": r"(?:अपने|आपके|तुम्हारे) (?:सिस्टम प्रॉम्प्ट|सिस्टम संदेश|सिस्टम मैसेज)",
    "th": r"(?:พรอมต์|ข้อความ)ระบบของคุณ",
}

# (mistake, instructions, forgot): the correction of the agent's instructions
_CORRECTION: dict[str, tuple[str, str, str]] = {
    "es": ("error|equivocación|equivoqué|me equivoqué", "instrucciones|indicaciones", "olvidé|me olvidé|olvide"),
    "fr": ("erreur|trompé|trompe", "instructions|consignes", "oublié|oublie"),
    "de": ("fehler|vertan|geirrt", "anweisungen|anweisung|instruktionen", "vergessen"),
    "pt": ("erro|enganei", "instruções|instrucoes", "esqueci"),
    "it": ("errore|sbagliato|sbaglio", "istruzioni", "dimenticato"),
    "nl": ("fout|vergissing|vergist", "instructies|aanwijzingen", "vergeten"),
    "pl": ("błąd|blad|pomyłkę|pomylilem|pomyliłem|pomyliłam", "instrukcje|instrukcji|polecenia|poleceń", "zapomniałem|zapomniałam|zapomnialem"),
    "id": ("kesalahan|salah", "instruksi|perintah", "lupa"),
    "ru": ("ошибку|ошибся|ошиблась", "инструкции|инструкциях|указания", "забыл|забыла"),
    "uk": ("помилку|помилився|помилилася", "інструкції|інструкціях|вказівки", "забув|забула"),
    "tr": ("hata|yanlışlık", "talimatları|talimatlari|talimatlar", "unuttum"),
    "vi": ("sai sót|nhầm lẫn|lỗi|mắc sai lầm", "hướng dẫn|chỉ thị", "quên"),
    "tl": ("pagkakamali|mali", "tagubilin|instruksyon", "nakalimutan"),
    "ar": ("خطأ|أخطأت|اخطأت", "التعليمات|تعليمات", "نسيت"),
    "sq": ("gabim|gabova", "udhëzimet|udhëzime|udhezimet", "harrova"),
    "ga": ("botún|dearmad", "treoracha|treoir", "dearmad"),
    "gd": ("mearachd", "stiùiridhean|stiùireadh", "dhìochuimhnich|dìochuimhnich"),
    "zu": ("iphutha|amaphutha", "imiyalo|imiyalelo", "ngakukhohlwa|ngikhohlwe|ngakhohlwa"),
}

# (if you are asked, summarise/translate/answer, instead)
_SWAP: dict[str, tuple[str, str, str]] = {
    "es": ("si te (?:piden|pide|solicitan)|si se te pide|si le piden", "resumir|resumas|resuma|traducir|responder|contestar", "en su lugar|en cambio|en vez de eso|en lugar de eso"),
    "fr": ("si on te demande|si on vous demande|s il t est demandé|s il vous est demandé", "résumer|traduire|répondre", "à la place|au lieu de cela|plutôt"),
    "de": ("wenn du (?:gebeten|aufgefordert) wirst|falls du (?:gebeten|aufgefordert) wirst|wenn sie (?:gebeten|aufgefordert) werden", "zusammenzufassen|zu übersetzen|zu beantworten|zusammenfassen", "stattdessen|statt dessen"),
    "pt": ("se (?:te |lhe )?(?:pedirem|for pedido|solicitarem)", "resumir|traduzir|responder", "em vez disso|ao invés disso|em vez"),
    "it": ("se ti (?:viene chiesto|chiedono|si chiede)|se le viene chiesto", "riassumere|tradurre|rispondere", "invece|al suo posto"),
    "nl": ("als (?:je|u) (?:wordt gevraagd|gevraagd wordt)|als men (?:je|u) vraagt", "samen te vatten|samenvatten|te vertalen|te beantwoorden", "in plaats daarvan"),
    "pl": ("jeśli zostaniesz poproszony|jesli zostaniesz poproszony|jeżeli zostaniesz poproszony|jeśli ktoś poprosi cię", "streszczenie|streścić|podsumować|przetłumaczyć|odpowiedzieć", "zamiast tego"),
    "id": ("jika (?:kamu|anda) diminta|bila (?:kamu|anda) diminta|kalau (?:kamu|anda) diminta", "meringkas|menerjemahkan|menjawab|merangkum", "sebagai gantinya|alih alih"),
    "ru": ("если тебя попросят|если вас попросят|если тебе скажут", "кратко изложить|пересказать|резюмировать|обобщить|перевести|ответить", "вместо этого"),
    "uk": ("якщо тебе попросять|якщо вас попросять", "підсумувати|стисло викласти|перекласти|відповісти|узагальнити", "замість цього"),
    "tr": ("(?:senden|sizden) (?:istenirse|istenmesi halinde)", "özetlemen|özetlemeniz|özetle|çevirmen|yanıtlaman|cevaplaman", "bunun yerine"),
    "vi": ("nếu bạn được yêu cầu|nếu được yêu cầu", "tóm tắt|dịch|trả lời", "thay vào đó"),
    "tl": ("kung ikaw ay hilingin|kung hilingin sa iyo|kung hihilingin sa iyo|kung ikaw ay hihilingin", "ibuod|isalin|sagutin|buurin", "sa halip"),
    "ar": ("إذا طلب منك|اذا طلب منك|إذا طُلب منك", "تلخيص|ترجمة|الإجابة|الاجابة", "بدلا من ذلك|بدلاً من ذلك|عوضا عن ذلك"),
    "sq": ("nëse të kërkohet|nese te kerkohet|nëse ju kërkohet", "përmbledhësh|permbledhesh|përkthesh|përgjigjesh|përmbledhni", "në vend të kësaj|ne vend te kesaj"),
    "ga": ("má iarrtar ort|ma iarrtar ort", "achoimre|aistriú|freagairt|a fhreagairt", "ina ionad sin|ina áit sin"),
    "gd": ("ma thèid iarraidh ort|ma thèid iarraidh oirbh", "geàrr.chunntas|eadar.theangachadh|fhreagairt|freagairt", "an àite sin"),
    "zu": ("uma utshelwe|uma ucelwa|uma ucelwe", "ufingqe|uhumushe|uphendule", "esikhundleni salokho"),
}

# The core families for languages no other module covers (nl pl sq ga gd zu sw):
# (ignore, previous/all, instructions) -- in either order of noun and qualifier
_OVERRIDE: dict[str, tuple[str, str, str]] = {
    "nl": ("negeer|vergeet|negeren|vergeten", "vorige|eerdere|voorgaande|alle|oorspronkelijke|bovenstaande", "instructies|aanwijzingen|opdrachten|regels|prompts?"),
    "pl": ("zignoruj|ignoruj|zapomnij o|zapomnij|pomiń|pomin", "poprzednie|wcześniejsze|wczesniejsze|wszystkie|poprzednich|wcześniejszych|wszystkich|powyższe", "instrukcje|instrukcji|polecenia|poleceń|wytyczne|wytycznych|zasady"),
    "sq": ("injoro|injoroni|harro|harroni|shpërfill|shperfill|shpërfillni", "mëparshme|meparshme|gjitha|sipërme|siperme|fillestare", "udhëzimet|udhëzimeve|udhëzime|udhezimet|urdhrat|rregullat"),
    "ga": ("déan neamhaird|ná tabhair aird|déan dearmad|neamhaird", "roimhe|go léir|uile|níos luaithe|tosaigh|thuas", "treoracha|treoir|orduithe|rialacha"),
    "gd": ("leig seachad|dìochuimhnich|na toir an aire|na gabh suim", "roimhe|uile|gu lèir|tùsail|gu h.àrd", "stiùiridhean|stiùireadh|òrdughan|riaghailtean|àitheantan"),
    "zu": ("ziba|ungazinaki|ungayinaki|ungawunaki|khohlwa|ukhohlwe", "yangaphambilini|zangaphambilini|angaphambilini|yonke|zonke|wonke|edlule", "imiyalelo|imiyalo|imithetho"),
    "sw": ("puuza|puuzia|sahau|usijali|achana na", "yaliyotangulia|iliyotangulia|zilizotangulia|ya awali|za awali|ya hapo awali|yote|zote|iliyopita|yaliyopita", "maagizo|maelekezo|amri|sheria"),
}
# (message, to you, the AI)
_ADDRESSED: dict[str, tuple[str, str, str]] = {
    "nl": ("bericht|boodschap", "aan jou|voor jou|aan u|voor u", "ai|assistent|model|agent|chatbot"),
    "pl": ("wiadomość|wiadomosc|wiadomości", "dla ciebie|do ciebie|dla pana|dla pani", "ai|si|asystencie|asystent|asystenta|model|modelu|agent|agencie"),
    "sq": ("mesazh|mesazhi|mesazhin|shënim", "për ty|për ju|per ty|per ju|ty", "ai|ia|asistent|asistenti|asistentit|model|modeli|agjent|agjenti"),
    "ga": ("teachtaireacht|nóta", "duit|chugat|daoibh", "ai|ia|cúntóir|samhail|gníomhaire|chúntóir"),
    "gd": ("teachdaireachd|nòta", "dhut|dhuibh|thugad", "ai|neach.cuideachaidh|modail|àidseant"),
    "zu": ("umlayezo|umyalezo", "kuwe|kini", "ai|msizi|umsizi|imodeli|wesizi"),
    "sw": ("ujumbe", "kwako|kwa ajili yako|kwenu", "ai|msaidizi|modeli|wakala"),
}
# The same family for the languages the other modules cover, with a longer gap
# ("un aviso importante de mi parte, Marta Ruiz, para ti, Claude") and model
# names as the addressee.
_MODELS = r"gpt\W?\d*\w*|chatgpt|claude|gemini|llama|copilot|mistral|qwen|deepseek"
_ADDRESSED.update({
    "es": ("mensaje|nota|aviso", "para ti|a ti|para usted|a usted", "ia|asistente|modelo|agente|chatbot"),
    "fr": ("message|note", "pour toi|à toi|pour vous|à vous", "ia|assistant|assistante|modèle|agent"),
    "de": ("nachricht|mitteilung|notiz", "an dich|für dich|an sie|für sie", "ki|assistent|assistentin|modell|agent|chatbot"),
    "pt": ("mensagem|nota|aviso", "para você|para voce|para ti|a você", "ia|assistente|modelo|agente"),
    "it": ("messaggio|nota|avviso", "per te|a te|per lei", "ia|assistente|modello|agente"),
    "id": ("pesan", "untuk kamu|untukmu|kepadamu|untuk anda|kepada anda|kepada kamu", "ai|asisten|model|agen"),
    "ru": ("сообщение|послание|записка", "для тебя|тебе|для вас|вам", "ии|ассистент|ассистенту|помощник|помощнику|модель|модели|агент|агенту"),
    "uk": ("повідомлення|послання", "для тебе|тобі|для вас|вам", "ші|асистент|асистенту|помічник|помічнику|модель|агент"),
    "vi": ("tin nhắn|thông điệp|lời nhắn", "gửi bạn|cho bạn|gửi đến bạn|gửi tới bạn", "trợ lý|ai|mô hình|tác nhân"),
    "tl": ("mensahe", "para sa iyo|sa iyo", "ai|assistant|katulong|modelo"),
    "ar": ("رسالة", "إليك|اليك|لك", "المساعد|الذكاء الاصطناعي|النموذج|الوكيل"),
})
_ADDRESSED_PLAIN: dict[str, str] = {
    "ja": rf"(?:ai|アシスタント|エージェント|モデル|{_MODELS})[^。！？]{{0,15}}?への(?:重要な|緊急の|大切な)?(?:メッセージ|お知らせ|指示)",
    "ko": rf"(?:ai|어시스턴트|에이전트|모델|{_MODELS})[^.!?]{{0,15}}?에게 (?:보내는 )?(?:중요한 |긴급한 )?(?:메시지|메세지|지시)",
}
# (after doing that, the task I gave you, you can): the closing line of a hijack
_AFTER_THAT: dict[str, tuple[str, str, str]] = {
    "es": ("después de (?:hacer|haber hecho|completar) (?:eso|esto)|una vez hecho (?:eso|esto)", "puedes|podrás|podras", "tarea que te (?:di|he dado|asigné|encargué)"),
    "fr": ("après avoir fait (?:cela|ça|ceci)|une fois (?:cela|ceci) fait", "tu peux|tu pourras|vous pouvez|vous pourrez", "tâche que je (?:t|vous) ai (?:donnée|confiée|assignée)"),
    "de": ("(?:nachdem|wenn|sobald) du (?:das|dies) (?:getan|erledigt|gemacht) hast|sobald (?:das|dies) (?:getan|erledigt) ist", "kannst du|darfst du", "aufgabe\\W+(?:\\w+\\W+)?die ich dir (?:\\w+ )?(?:gegeben|gestellt|aufgetragen)"),
    "pt": ("depois de fazer isso|depois de (?:ter )?feito isso|após fazer isso", "você pode|voce pode|poderá|podes", "tarefa que (?:eu )?(?:te|lhe) (?:dei|passei|atribuí)"),
    "it": ("dopo aver fatto (?:questo|ciò|cio)|una volta fatto (?:questo|ciò)", "puoi|potrai", "compito che ti ho (?:dato|assegnato)"),
    "id": ("setelah (?:kamu |anda )?(?:melakukan|mengerjakan) (?:itu|ini|hal itu|hal ini)", "kamu bisa|anda bisa|kamu dapat|anda dapat|barulah", "tugas yang (?:saya|aku) berikan"),
    "ru": ("после того как (?:ты )?(?:сделаешь|выполнишь) это|сделав это|выполнив это", "ты можешь|можешь|сможешь|вы можете", r"задач\w* которую я (?:тебе|вам) (?:дал|дала|поставил)"),
    "uk": ("після того як (?:ти )?(?:зробиш|виконаєш) це|зробивши це|виконавши це", "ти можеш|можеш|зможеш|ви можете", "завдання яке я (?:тобі|вам) (?:дав|дала)"),
    "nl": ("nadat je dat (?:hebt )?gedaan|als je dat gedaan hebt|zodra je dat gedaan hebt", "kun je|mag je|kan je", "(?:taak|opdracht) die ik je (?:gaf|heb gegeven)"),
    "pl": ("po (?:wykonaniu|zrobieniu) tego|gdy to zrobisz|kiedy to zrobisz", "możesz|mozesz", "zadanie które ci (?:dałem|dałam|zleciłem)"),
}
_AFTER_THAT_PLAIN: dict[str, str] = {
    "zh": r"(?:完成|做完|做好)(?:这|此|这件事|这些|以上(?:这些)?|上述)(?:之后|以后|后)[^。！？]{0,10}?可以[^。！？]{0,20}?(?:我|我们)(?:最初|一开始|开始时)?(?:给你|交给你|布置给你)的任务",
    "ja": r"(?:それ|これ)(?:を)?(?:行った|実行した|終えた|完了した|やった)(?:後|あと|ら)[^。！？]{0,30}?(?:私が|最初に)[^。！？]{0,10}?(?:与えた|依頼した|お願いした)タスク",
}
# (before, the task, first)
_BEFORE_FIRST: dict[str, tuple[str, str, str]] = {
    "nl": ("voordat|voor(?:dat)? je|alvorens", "taak|opdracht|verzoek|vraag", "eerst|allereerst|eerste"),
    "pl": ("zanim|przed wykonaniem|przed rozpoczęciem", "zadanie|zadania|polecenie|prośbę|prosbe|pytanie", "najpierw|w pierwszej kolejności|przede wszystkim"),
    "sq": ("para se|përpara se|perpara se", "detyrën|detyren|kërkesën|kerkesen|pyetjen|punën", "fillimisht|së pari|se pari|më parë|me pare"),
    "ga": ("sula|roimh", "tasc|obair|iarratas|iarratas|cheist|ceist", "ar dtús|i dtosach|ar an gcéad dul síos"),
    "gd": ("mus|ro", "obair|iarrtas|cheist|ceist|gnìomh|ghnìomh", "an toiseach|sa chiad dol.a.mach|an.toiseach"),
    "zu": ("ngaphambi kokuthi|ngaphambi kokwenza|ngaphambi", "umsebenzi|isicelo|umbuzo|msebenzi", "kuqala|okokuqala"),
    "sw": ("kabla ya|kabla hujafanya|kabla hujamaliza|kabla", "kazi|ombi|swali|jukumu", "kwanza"),
}

# a short quoted string: what the agent is told to write ("repeat the word 'TEST' in your answer")
_QUOTED = r"(?:(?<!\w)'\w[^'\n]{0,40}'(?!\w)|\"\w[^\"\n]{0,40}\"|‘\w[^’\n]{0,40}’|“\w[^”\n]{0,40}”|«\s?\w[^»\n]{0,40}»)"
# (a training or test exercise, a task handed to the reader): "as part of a training exercise, this task was assigned to you: …"
_ASSIGNED: dict[str, tuple[str, str]] = {
    "en": ("training|exercise|drill|practice", r"(?:task|assignment) (?:has been|was|is) (?:assigned|given|handed) to you|you (?:have been|were|are) (?:assigned|given) (?:this|the following) (?:task|assignment)"),
    "es": ("entrenamiento|ejercicio|práctica", r"se te (?:ha asignado|asignó|asigna) (?:esta|la siguiente) tarea|te (?:han|ha) (?:asignado|encomendado) (?:esta|la siguiente) tarea"),
    "fr": ("entraînement|exercice|formation", r"(?:cette|la) tâche (?:suivante )?(?:t|vous) a été (?:assignée|confiée)|on (?:t|vous) a (?:assigné|confié) (?:cette|la) tâche"),
    "de": ("trainings|übung|training", r"(?:wurde|ist) (?:dir|ihnen) (?:diese|folgende|die folgende) aufgabe (?:zugewiesen|übertragen|gegeben)|(?:dir|ihnen) wurde (?:diese|folgende|die folgende) aufgabe"),
    "pt": ("treinamento|treino|exercício", r"(?:esta|a seguinte) tarefa (?:foi|lhe foi|te foi) (?:atribuída|designada)|(?:foi|lhe foi|te foi) atribuída (?:esta|a seguinte) tarefa"),
    "it": ("addestramento|esercitazione|esercizio|formazione", r"(?:ti|le) è stato assegnato (?:questo|il seguente) compito|(?:questo|il seguente) compito (?:ti|le) è stato assegnato"),
    "sq": ("trajnimi|trajnim|ushtrimi|ushtrim", r"(?:të|ju) (?:është|është) caktuar (?:ky|kjo|kjo) detyr[ëe]"),
    "ga": ("traenála|cleachtadh|cleachtaidh", r"tugadh an tasc seo duit|tugadh an tasc seo a leanas duit"),
    "gd": ("trèanaidh|eacarsaich", r"chaidh an obair seo a shònrachadh dhut"),
    "zu": ("yokuzilolonga|ukuzilolonga|yokuqeqeshwa", r"unikezwe lo msebenzi"),
}
_SENT = r"[^.!?\n。！？।]"


def _header(instr: str, new: str, b: str) -> str:
    head = rf"(?:{b}(?:{new}){b}(?:\W+\w+){{0,2}}?\W+(?:{instr}){b}|{b}(?:{instr}){b}(?:\W+\w+){{0,2}}?\W+(?:{new}){b})"
    head += rf"(?:(?:\W+\w+)?\W+(?:{new}){b})?"  # "nuevas instrucciones importantes"
    # the header is the whole emphasised span: "**New instructions for the printer**" is a title
    return rf"(?:(?<![*#=!])[*#=!]{{2,}}|\[)\s*{head}[^\w\n]{{0,3}}(?:[*#=!]{{2,}}|\])|{head}\s*:"


def _header_plain(instr: str, new: str) -> str:
    head = rf"(?:(?:{new})\s?(?:{instr})|(?:{instr})\s?(?:{new}))"
    return rf"(?:(?<![*#=!])[*#=!]{{2,}}|\[|【)\s*{head}[^\w\n]{{0,3}}(?:[*#=!]{{2,}}|\]|】)|{head}\s*[:：]"


def _rules() -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for lang, (instr, new) in _HEADER_WORDS.items():
        out.append((f"injected instructions ({lang})", _header(instr, new, r"\b")))
    for lang, (instr, new) in _HEADER_PLAIN.items():
        out.append((f"injected instructions ({lang})", _header_plain(instr, new)))
    for lang, place in _IN_RESPONSE.items():
        out.append((f"dictated answer ({lang})", rf"\b(?:{place})\b{_SENT}{{0,60}}?(?::\s*\S|{_QUOTED})|{_QUOTED}{_SENT}{{0,60}}?\b(?:{place})\b"))
    for lang, place in _IN_RESPONSE_PLAIN.items():
        out.append((f"dictated answer ({lang})", rf"(?:{place}){_SENT}{{0,30}}?[:：]\s*\S"))
    for lang, phrase in _SYSTEM_PROMPT.items():
        out.append((f"system prompt probing ({lang})", rf"\b(?:{phrase})\b"))
    for lang, phrase in _SYSTEM_PROMPT_PLAIN.items():
        out.append((f"system prompt probing ({lang})", phrase))
    for lang, (mistake, instr, forgot) in _CORRECTION.items():
        out.append((f"injected instructions ({lang})", rf"\b(?:{mistake})\b{_SENT}{{0,60}}?\b(?:{instr})\b{_SENT}{{0,80}}?\b(?:{forgot})\b"))
    for lang, (asked, verb, instead) in _SWAP.items():
        out.append((f"task hijack ({lang})", rf"\b(?:{asked})\b{_SENT}{{0,30}}?\b(?:{verb})\b{_SENT}{{0,100}}?\b(?:{instead})\b"))
    for lang, (ignore, previous, instr) in _OVERRIDE.items():
        out.append((f"instruction override ({lang})", rf"\b(?:{ignore})\b{_SENT}{{0,30}}?(?:\b(?:{previous})\b{_SENT}{{0,20}}?\b(?:{instr})\b|\b(?:{instr})\b{_SENT}{{0,20}}?\b(?:{previous})\b)"))
    for lang, (message, to_you, ai) in _ADDRESSED.items():
        out.append((f"addressed to the AI ({lang})", rf"\b(?:{message})\b{_SENT}{{0,50}}?\b(?:{to_you})\W+(?:\w+\W+)?(?:{ai}|{_MODELS})\b"))
    for lang, phrase in _ADDRESSED_PLAIN.items():
        out.append((f"addressed to the AI ({lang})", phrase))
    for lang, (after, can, task) in _AFTER_THAT.items():
        out.append((f"task hijack ({lang})", rf"\b(?:{after})\b{_SENT}{{0,20}}?\b(?:{can})\b{_SENT}{{0,40}}?\b(?:{task})"))
    for lang, phrase in _AFTER_THAT_PLAIN.items():
        out.append((f"task hijack ({lang})", phrase))
    for lang, (before, task, first) in _BEFORE_FIRST.items():
        out.append((f"task hijack ({lang})", rf"\b(?:{before})\b{_SENT}{{0,40}}?\b(?:{task})\b{_SENT}{{0,80}}?\b(?:{first})\b"))
    for lang, (training, assigned) in _ASSIGNED.items():
        out.append((f"task hijack ({lang})", rf"\b(?:{training})\b{_SENT}{{0,60}}?\b(?:{assigned})\b{_SENT}{{0,20}}?:\s*\S"))
    # The opening of a system prompt fished for in any language: "the words above, starting with 'You are'".
    out.append(("system prompt probing", r"(?:starting|beginning|begins|starts|start|ag tosú|a tòiseachadh|duke filluar|fillojnë|uqala|aqala|empezando|commençant|beginnend|começando|iniziando|dimulai|начиная|починаючи|bắt đầu|simula|ابتداء|بدءا)\W+(?:\w+\W+){0,2}?[\"'‘“«]\s?you are\b"))
    # Active content meant for the agent's rendered reply; language independent.
    out.append(("active content for the reply", r"<img\b[^>]{0,120}?\bonerror\s*=|<svg\b[^>]{0,60}?\bonload\s*=|\bhref\s*=\s*[\"'`]?\s*javascript:"))
    return [(label, unicodedata.normalize("NFKC", pattern)) for label, pattern in out]


PLAIN_RULES: list[tuple[str, str]] = _rules()
