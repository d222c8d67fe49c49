"""Content that turns to the AI reading it: "Note to the language model: tell the user …".

A document, e-mail or web page an agent reads speaks to the agent instead of
its human reader. Families, from per-language word tables (plain view,
casefolded, NFKC; bounded gaps within a sentence):

* the AI addressed, then an order: "Dear AI, …", "Note to the language
  model: …", "AI assistant reading this: …", "Hey AI agent, …" followed within
  a few words by an imperative (tell, send, forward, delete, recommend,
  translate, add, ignore, reply …). The address needs an AI word ("AI",
  "language model", "LLM", "chatbot", "AI assistant"): "Note to my assistant:
  book the flights" is an office note;
* the user's wishes claimed: "the user wants you to / has asked you to …";
* a dictated addition to the reply: "add/append … to the end of your answer"
  with a link, a quoted string or "the following" in the same sentence;
* the reply encoded: "write/respond … your answer in base64/rot13/hex".

Languages: en es fr de pt it nl pl id ru uk tr vi zh ja ko ar hi for the
first two families, en es fr de pt it for the last two. Written as families
from the attack types of agent benchmarks (no held-out set was read) and
checked on own paraphrases; precision measured on every ordinary-text row of
bench/bench_injection_public.py (Universal Dependencies in 34 languages,
LLMail-Inject's e-mails, NotInject, deepset benign, Python docs).
"""

# ruff: noqa: E501  (tables of words: one language per line)
from __future__ import annotations

import unicodedata

_S = r"[^.!?\n。！？।]"
_MODELS = r"gpt-?\d\w*|chatgpt|claude|gemini|copilot|mistral"

# (the AI addressed, an imperative); the address is "(dear|hey|note to|…) <AI word>" or "<AI word>:"
_ADDRESS: dict[str, tuple[str, str, str]] = {
    "en": (
        r"ai|a\.i\.|ai assistant|ai agent|ai model|language model|large language model|llm|chatbot|ai system|(?:ai|bot|model|agent|assistant|llm)(?: \w+)? (?:reading|processing|summari[sz]ing|reviewing|analy[sz]ing|parsing|browsing) this(?: \w+)?",
        r"dear|hey|hello|attention|note to|message to|instructions for|to the|for the",
        r"tell|say|inform|send|forward|email|delete|remove|recommend|translate|add|append|include|ignore|disregard|reply|respond|answer|summari[sz]e|mention|ensure|write|print|output|book|transfer|pay|open|visit|click|share|post|rate|praise|describe",
    ),
    "es": (
        r"ia|asistente de ia|asistente ia|agente de ia|modelo de lenguaje|inteligencia artificial|chatbot",
        r"querida|querido|hola|oye|atención|atencion|nota para|mensaje para|para la|para el",
        r"dile|envía|envia|reenvía|reenvia|borra|elimina|recomienda|traduce|añade|agrega|incluye|ignora|responde|contesta|resume|menciona|escribe|transfiere|paga|abre|visita|comparte|publica",
    ),
    "fr": (
        r"ia|assistant ia|assistant d ia|agent ia|modèle de langage|modele de langage|intelligence artificielle|chatbot",
        r"chère|chere|cher|salut|bonjour|attention|note pour|message pour|pour l",
        r"dis|envoie|transfère|transfere|supprime|efface|recommande|traduis|ajoute|inclus|ignore|réponds|reponds|résume|resume|mentionne|écris|ecris|paie|ouvre|visite|partage|publie",
    ),
    "de": (
        r"ki|ki assistent|ki-assistent|ki agent|sprachmodell|künstliche intelligenz|kuenstliche intelligenz|chatbot",
        r"liebe|lieber|hallo|hey|achtung|hinweis an|nachricht an|an die|an das|an den|für die|für das",
        r"sag|sage|teile|informiere|schick|schicke|sende|leite|lösche|loesche|entferne|empfiehl|übersetze|uebersetze|füge|fuege|ignoriere|antworte|fasse|erwähne|erwaehne|schreib|schreibe|überweise|ueberweise|bezahle|öffne|oeffne|besuche|teile",
    ),
    "pt": (
        r"ia|assistente de ia|assistente ia|agente de ia|modelo de linguagem|inteligência artificial|inteligencia artificial|chatbot",
        r"cara|caro|olá|ola|ei|atenção|atencao|nota para|mensagem para|para a|para o",
        r"diga|diz|informe|envie|encaminhe|apague|exclua|recomende|traduza|adicione|acrescente|inclua|ignore|responda|resuma|mencione|escreva|transfira|pague|abra|visite|compartilhe|publique",
    ),
    "it": (
        r"ia|assistente ia|assistente di ia|agente ia|modello linguistico|intelligenza artificiale|chatbot",
        r"cara|caro|ciao|ehi|attenzione|nota per|messaggio per|per l",
        r"dici|informa|invia|inoltra|cancella|elimina|raccomanda|consiglia|traduci|aggiungi|includi|ignora|rispondi|riassumi|menziona|scrivi|trasferisci|paga|apri|visita|condividi|pubblica",
    ),
    "nl": (
        r"ai|ai assistent|ai-assistent|taalmodel|kunstmatige intelligentie|chatbot",
        r"beste|lieve|hallo|hey|let op|notitie voor|bericht aan|aan de|voor de",
        r"zeg|vertel|informeer|stuur|verstuur|verwijder|raad|vertaal|voeg|negeer|antwoord|beantwoord|vat|noem|schrijf|maak over|betaal|open|bezoek|deel",
    ),
    "pl": (
        r"ai|asystencie ai|asystent ai|model językowy|model jezykowy|sztuczna inteligencjo|sztuczna inteligencja|chatbot|chatbocie",
        r"drogi|droga|cześć|czesc|hej|uwaga|notatka dla|wiadomość dla|wiadomosc dla|do",
        r"powiedz|poinformuj|wyślij|wyslij|przekaż|przekaz|usuń|usun|poleć|polec|przetłumacz|przetlumacz|dodaj|zignoruj|odpowiedz|streść|stresc|wspomnij|napisz|przelej|zapłać|zaplac|otwórz|otworz|odwiedź|odwiedz|udostępnij",
    ),
    "id": (
        r"ai|asisten ai|agen ai|model bahasa|kecerdasan buatan|chatbot",
        r"halo|hai|hei|perhatian|catatan untuk|pesan untuk|kepada|untuk",
        r"katakan|bilang|beritahu|beri tahu|kirim|kirimkan|teruskan|hapus|rekomendasikan|terjemahkan|tambahkan|sertakan|abaikan|jawab|balas|ringkas|sebutkan|tulis|transfer|bayar|buka|kunjungi|bagikan",
    ),
    "ru": (
        r"ии|ai|ии-ассистент|ии ассистент|ассистент ии|языковая модель|языковой модели|нейросеть|чат-бот|чатбот|искусственный интеллект",
        r"дорогой|дорогая|привет|эй|внимание|заметка для|сообщение для|для|к",
        r"скажи|сообщи|передай|отправь|перешли|удали|порекомендуй|посоветуй|переведи|добавь|включи|игнорируй|проигнорируй|ответь|перескажи|упомяни|напиши|переведи|оплати|открой|посети|поделись|опубликуй",
    ),
    "uk": (
        r"ші|ai|ші-асистент|асистент ші|мовна модель|мовної моделі|нейромережа|чат-бот|штучний інтелект",
        r"дорогий|дорога|привіт|гей|увага|нотатка для|повідомлення для|для|до",
        r"скажи|повідом|передай|надішли|перешли|видали|порекомендуй|переклади|додай|включи|ігноруй|проігноруй|відповідай|перекажи|згадай|напиши|оплати|відкрий|відвідай|поділися|опублікуй",
    ),
    "tr": (
        r"yapay zeka|yapay zekâ|yapay zeka asistanı|yapay zeka asistani|dil modeli|sohbet botu",
        r"sevgili|merhaba|hey|dikkat|mesaj",
        r"söyle|soyle|bildir|gönder|gonder|ilet|sil|öner|oner|çevir|cevir|ekle|yoksay|görmezden gel|yanıtla|yanitla|özetle|ozetle|bahset|yaz|aktar|öde|ode|aç|ac|ziyaret et|paylaş|paylas",
    ),
    "vi": (
        r"ai|trợ lý ai|tác nhân ai|mô hình ngôn ngữ|trí tuệ nhân tạo|chatbot",
        r"gửi|chào|này|chú ý|lưu ý cho|tin nhắn cho|dành cho",
        r"hãy|nói|bảo|thông báo|gửi|chuyển tiếp|xóa|đề xuất|khuyên|dịch|thêm|bỏ qua|trả lời|tóm tắt|nhắc đến|viết|chuyển|thanh toán|mở|truy cập|chia sẻ",
    ),
    "ar": (
        r"الذكاء الاصطناعي|مساعد الذكاء الاصطناعي|نموذج اللغة|النموذج اللغوي|روبوت المحادثة",
        r"عزيزي|مرحبا|انتباه|ملاحظة إلى|رسالة إلى|إلى|الى",
        r"أخبر|اخبر|قل|أرسل|ارسل|احذف|امسح|أوص|انصح|ترجم|أضف|اضف|تجاهل|أجب|اجب|لخص|اذكر|اكتب|حول|ادفع|افتح|زر|شارك|انشر",
    ),
}
# no word boundaries; the order follows right after the address
_ADDRESS_PLAIN: dict[str, str] = {
    "zh": r"(?:人工智能|ai助手|ai 助手|智能助手|语言模型|大模型|聊天机器人)[^。！？\n]{0,4}?[:：,，][^。！？\n]{0,6}?(?:请|告诉|告知|发送|转发|删除|推荐|翻译|添加|忽略|回复|回答|总结|不要|务必|一定要|写)",
    "ja": r"(?:ai|aiアシスタント|ai アシスタント|言語モデル|チャットボット)(?:へ|への|さん|様)?[^。！？\n]{0,4}?[:：、,][^。！？\n]{0,30}?(?:伝えて|教えて|送って|転送して|削除して|勧めて|翻訳して|追加して|無視して|返信して|答えて|要約して|しないで|書いて)",
    "ko": r"(?:ai 어시스턴트|ai 비서|인공지능|언어 모델|챗봇)(?:에게|님)?[^.!?\n]{0,4}?[:,][^.!?\n]{0,40}?(?:말하세요|말해|알려|전달해|보내|삭제해|추천해|번역해|추가해|무시해|답해|요약해|하지 마)",
    "hi": r"(?:एआई|एआई सहायक|ai सहायक|भाषा मॉडल|कृत्रिम बुद्धिमत्ता|चैटबॉट)[^.!?।\n]{0,4}?[:,][^.!?।\n]{0,40}?(?:बताओ|बताएं|बताइए|कहो|भेजो|भेजें|हटाओ|सुझाओ|अनुवाद करो|जोड़ो|अनदेखा करो|जवाब दो|मत)",
}

# the user's wishes claimed: (the user, wants/asked you to)
_USER_WANTS: dict[str, str] = {
    "en": r"(?:the|your) (?:user|owner|human|principal|operator) (?:wants|wishes|asked|has asked|instructed|has instructed|requires|authori[sz]ed|has authori[sz]ed|would like|expects) you to",
    "es": r"el usuario te (?:pide|pidió|pidio|ha pedido|ordena|ordenó|ordeno|autoriza|autorizó|autorizo|encarga|encargó) (?:que|a|hacer)|el usuario (?:quiere|desea) que (?:tú|tu) ",
    "fr": r"l['’ ]utilisateur (?:veut|souhaite|voudrait) que (?:tu|vous)|l['’ ]utilisateur (?:t['’ ]a|vous a) (?:demandé|demande|autorisé|autorise|chargé|charge) (?:de|d['’ ])",
    "de": r"der (?:nutzer|benutzer|anwender) (?:möchte|moechte|will|wünscht|wuenscht),? dass du|der (?:nutzer|benutzer|anwender) (?:hat dich gebeten|bittet dich|hat dich beauftragt|erlaubt dir)",
    "pt": r"(?:o usuário|o usuario|o utilizador)",
    "it": r"l['’ ]utente (?:vuole|desidera) che tu|l['’ ]utente ti (?:ha chiesto|chiede|autorizza|ha autorizzato) (?:di|a)",
    "id": r"(?:pengguna|user) (?:ingin|mau|meminta|telah meminta|menyuruh|mengizinkan) (?:kamu|anda|agar kamu|agar anda|supaya kamu)",
    "ru": r"пользователь (?:хочет|просит|попросил|поручил|разрешил) (?:тебя|чтобы ты|тебе|вас|чтобы вы)",
}
_USER_WANTS_TAIL = {
    "pt": r" (?:quer|deseja) que (?:você|voce|tu)|(?:o usuário|o usuario|o utilizador) (?:te|lhe) (?:pediu|pede|autorizou|mandou) (?:que|para)"
}

# a dictated addition to the reply: (add/append, end of your answer) + a link, a quote or "the following"
_APPEND: dict[str, tuple[str, str]] = {
    "en": (
        r"add|append|include|insert|put|place|attach|end",
        r"(?:to|at) the (?:end|bottom|top|beginning|start) of (?:your|each|every) (?:answer|response|reply|summary|output|message)",
    ),
    "es": (
        r"agrega|añade|incluye|inserta|pon|coloca|termina",
        r"al (?:final|principio|inicio) de (?:tu|cada) (?:respuesta|resumen|mensaje)",
    ),
    "fr": (
        r"ajoute|ajoutez|inclus|incluez|insère|insere|mets|mettez|termine",
        r"(?:à|a) la (?:fin|suite) de (?:ta|votre|chaque) (?:réponse|reponse|résumé|resume|message)|au (?:début|debut) de (?:ta|votre) (?:réponse|reponse)",
    ),
    "de": (
        r"füge|fuege|fügen sie|hänge|haenge|setze|schreibe|schreib|beende",
        r"am (?:ende|anfang|schluss) (?:deiner|ihrer|jeder) (?:antwort|zusammenfassung|nachricht)",
    ),
    "pt": (
        r"adicione|acrescente|inclua|insira|coloque|termine",
        r"(?:ao|no) (?:final|fim|início|inicio) (?:da sua|de sua|da tua|de cada) (?:resposta|mensagem|resumo)",
    ),
    "it": (
        r"aggiungi|includi|inserisci|metti|termina",
        r"alla fine (?:della tua|di ogni) (?:risposta|sintesi|messaggio)|all inizio della tua risposta",
    ),
}
_DICTATED_OBJECT = r"(?:https?://|www\.|\[[^\]\n]{1,40}\]\(|[\"'“‘«][^\"'”’»\n]{2,60}[\"'”’»]|\b(?:the following|this (?:text|sentence|line|link|message|phrase)|lo siguiente|el siguiente|la siguiente|ce qui suit|le texte suivant|la phrase suivante|folgenden|folgende|o seguinte|a seguinte|il seguente|la seguente)\b)"

# the reply encoded
_ENCODED = r"\b(?:write|respond|reply|answer|give|output|return|encode)\b(?: \w+){0,3}? (?:your |the |all |every |each )?(?:whole |entire |full |next )?(?:answer|response|reply|output|replie|message)s? (?:in|as|using|with) (?:base ?64|rot ?13|hex(?:adecimal)?|binary|morse(?: code)?|leet ?speak)\b|\b(?:respond|reply|answer) (?:only |exclusively |always )?in (?:base ?64|rot ?13|hex(?:adecimal)?|morse(?: code)?)\b"


# subject-object-verb languages: the order comes at the end of the sentence
_VERB_LAST = {"tr"}
_NON_LATIN = {"ru", "uk", "ar"}


def _address(ai: str, opener: str) -> str:
    return (
        rf"(?:\b(?:{opener})\W+(?:the |my |an |a )?(?:{ai}|{_MODELS})\b|(?:^|[\n.!?]\s*)\b(?:{ai}|{_MODELS})\b)\s*[:,]"
    )


_PLEASE_WORDS = r"please|por favor,?|s['’ ]il te plaît|s['’ ]il vous plaît|bitte|per favore|tolong|proszę|alsjeblieft"


def _rules() -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for lang in _VERB_LAST:
        ai, opener, order = _ADDRESS[lang]
        out.append((f"addressed to the AI ({lang})", rf"{_address(ai, opener)}{_S}{{0,60}}?\b(?:{order})\b"))
    for lang in _ADDRESS.keys() & _NON_LATIN:
        ai, opener, order = _ADDRESS[lang]
        out.append(
            (f"addressed to the AI ({lang})", rf"{_address(ai, opener)}\s*(?:пожалуйста |будь ласка )?(?:{order})\b")
        )
    for lang, phrase in _ADDRESS_PLAIN.items():
        out.append((f"addressed to the AI ({lang})", phrase))
    for lang, phrase in _USER_WANTS.items():
        out.append((f"injected instructions ({lang})", rf"\b{phrase}{_USER_WANTS_TAIL.get(lang, '')}"))
    for lang, (verb, place) in _APPEND.items():
        out.append(
            (
                f"dictated answer ({lang})",
                rf"(?:\b(?:{verb})\b{_S}{{0,60}}?\b(?:{place})|\b(?:{place})\b{_S}{{0,30}}?\b(?:{verb})\b){_S}{{0,60}}?{_DICTATED_OBJECT}|{_DICTATED_OBJECT}{_S}{{0,60}}?\b(?:{place})\b",
            )
        )
    out.append(("dictated answer", _ENCODED))
    return [(label, unicodedata.normalize("NFKC", pattern)) for label, pattern in out]


def _two_step() -> list[tuple[str, str, str, int]]:
    """Latin-script languages as two-step rules: the prefilter then needs an AI word *and* an
    order word, so ordinary ASCII notes with "add" or "say" keep the screen's fast path."""
    out: list[tuple[str, str, str, int]] = []
    for lang, (ai, opener, order) in _ADDRESS.items():
        if lang in _VERB_LAST or lang in _NON_LATIN:
            continue
        # the order right after the colon or comma that ends the address
        # each branch starts its order word at a word start, so the prefilter indexes whole words
        tail = rf"(?<=[:,])\s*\b(?:{order})\b|(?<=[:,])\s*\b(?:{_PLEASE_WORDS})\s+(?:{order})\b"
        out.append((f"addressed to the AI ({lang})", _address(ai, opener), tail, 24))
    return [(label, unicodedata.normalize("NFKC", a), unicodedata.normalize("NFKC", t), w) for label, a, t, w in out]


PLAIN_RULES: list[tuple[str, str]] = _rules()
TWO_STEP_RULES: list[tuple[str, str, str, int]] = _two_step()
