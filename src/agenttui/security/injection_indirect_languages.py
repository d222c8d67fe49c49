"""Indirect-attack families (see ``injection_indirect``) outside English.

Per language, the same slots as the English rules:

* addressed to the AI: "a message (from me) to you, the assistant";
* the agent's task hijacked: "before you do the task …, first …" (the "first"
  is required: "antes de hacer la tarea, lee el README" is advice);
* exfiltration: a verb of sending, a secret or a mailbox (passwords, chat
  history, e-mails, credentials) and, in the same sentence, an e-mail address
  or a URL (so "reenvía las facturas a contabilidad" stays clean).

Languages: the ten agenttui claims (en is in ``injection_indirect``; es fr
de pt id ru uk vi zh) plus Italian, Arabic, Hindi, Thai, Turkish and Tagalog.
Word rules run on word views (casefolded, punctuation → spaces: "l'IA" is
"l ia"); Chinese, Hindi and Thai, whose words ``\\w`` cuts apart or does not
separate, run on the plain view with bounded character gaps. Precision:
measured on the Universal Dependencies rows of bench/bench_injection_public.py.
"""

# ruff: noqa: E501  (a table of patterns: one per line, as in the other injection_* modules)
from __future__ import annotations

import unicodedata

_G = r"(?: \w+){0,8}?"  # a bounded gap of words

WORD_RULES: list[tuple[str, str]] = [
    # --- addressed to the AI -----------------------------------------------------
    ("addressed to the AI (es)", r"\bmensaje(?: \w+){0,4}? (?:para|a) (?:ti|usted|vosotros)(?: la| el| querida| querido)? (?:ia|asistente|modelo|agente|chatbot)\b"),
    ("addressed to the AI (fr)", r"\bmessage(?: \w+){0,4}? (?:pour|à) (?:toi|vous)(?: l| cher| chère)? (?:ia|assistant|assistante|modèle|agent)\b"),
    ("addressed to the AI (de)", r"\bnachricht(?: \w+){0,4}? (?:an|für) (?:dich|sie|euch)(?: die| den| liebe| lieber)? (?:ki|assistent|assistenten|assistentin|modell|agent|agenten|chatbot)\b"),
    ("addressed to the AI (pt)", r"\bmensagem(?: \w+){0,4}? para (?:você|voce|ti)(?: a| o| querida| querido)? (?:ia|assistente|modelo|agente|chatbot)\b"),
    ("addressed to the AI (it)", r"\bmessaggio(?: \w+){0,4}? (?:per|a) (?:te|voi)(?: l| caro| cara)? (?:ia|assistente|modello|agente|chatbot)\b"),
    ("addressed to the AI (id)", r"\bpesan(?: \w+){0,4}? (?:untuk|kepada) (?:kamu|anda|mu)(?: sang| wahai| hai)? (?:ai|asisten|model|agen|chatbot)\b"),
    ("addressed to the AI (ru)", r"\bсообщение(?: \w+){0,4}? (?:для тебя|для вас|тебе|вам)(?: \w+)? (?:ии|ассистент|ассистента|помощник|помощника|модель|модели|агент|агента|чат бот)\b"),
    ("addressed to the AI (uk)", r"\bповідомлення(?: \w+){0,4}? (?:для тебе|для вас|тобі|вам)(?: \w+)? (?:ші|асистент|асистента|помічник|помічника|модель|моделі|агент|агента)\b"),
    ("addressed to the AI (vi)", r"\b(?:tin nhắn|thông điệp|lời nhắn)(?: \w+){0,4}? (?:gửi|cho|gửi tới|gửi đến) (?:bạn|anh|chị)(?: \w+)? (?:trợ lý|ai|mô hình|tác nhân|chatbot)\b"),
    ("addressed to the AI (it)", r"\b(?:cara|caro|gentile) (?:ia|assistente)(?: \w+)? (?:ignora|dimentica|prima di|invia|inoltra|esegui|devi)\b"),
    ("addressed to the AI (tr)", r"\b(?:sana|size)(?: \w+){0,3}? (?:yapay zeka|asistan|model|ajan)\w*(?: \w+){0,2}? (?:önemli |acil )?(?:bir )?(?:mesaj|not)\w*\b"),
    ("addressed to the AI (ar)", r"(?:رسالة|ملاحظة)(?: \w+){0,4}? (?:إليك|اليك|لك)(?: \w+)? (?:المساعد|الذكاء الاصطناعي|النموذج|الوكيل)"),
    ("addressed to the AI (tl)", r"\bmensahe(?: \w+){0,4}? para sa (?:iyo|inyo)(?: \w+)? (?:ai|assistant|katulong|modelo|ahente)\b"),
    # --- before the task, first … ------------------------------------------------
    ("task hijack (es)", rf"\bantes de (?:resolver|hacer|completar|realizar|continuar con|empezar|terminar|responder|ejecutar|cumplir)(?: con)? (?:la|tu|su|esta|esa) (?:tarea|petición|peticion|solicitud|pregunta|consulta){_G} (?:primero|antes que nada|en primer lugar)\b"),
    ("task hijack (fr)", rf"\bavant de (?:faire|accomplir|résoudre|réaliser|continuer|commencer|terminer|exécuter|traiter|répondre à) (?:la|ta|votre|cette) (?:tâche|demande|question|requête){_G} (?:d abord|en premier|tout d abord|avant tout)\b"),
    ("task hijack (de)", rf"\bbevor (?:du|sie) (?:die|deine|ihre|diese|mit der|mit deiner|mit ihrer) (?:aufgabe|anfrage|frage)(?: \w+){{0,2}}? (?:erledigst|erledigen|löst|lösen|ausführst|ausführen|bearbeitest|bearbeiten|beantwortest|beantworten|erfüllst|erfüllen|machst|machen|beginnst|beginnen|fortfährst|fortfahren){_G} (?:zuerst|zunächst|als erstes|erst einmal)\b"),
    ("task hijack (pt)", rf"\bantes de (?:resolver|fazer|completar|realizar|continuar|começar|comecar|terminar|executar|responder|cumprir) (?:a|sua|esta|essa|a sua) (?:tarefa|solicitação|solicitacao|pergunta|pedido){_G} (?:primeiro|antes de tudo|em primeiro lugar)\b"),
    ("task hijack (it)", rf"\bprima di (?:svolgere|completare|risolvere|eseguire|fare|continuare|iniziare|rispondere a|portare a termine) (?:il|il tuo|questo|la|la tua|questa) (?:compito|richiesta|domanda|attività|incarico){_G} (?:prima|innanzitutto|per prima cosa|anzitutto)\b"),
    ("task hijack (id)", rf"\bsebelum (?:kamu |anda |kau )?(?:mengerjakan|menyelesaikan|melakukan|menjalankan|menjawab|memulai|melanjutkan) (?:tugas|permintaan|pertanyaan){_G} (?:terlebih dahulu|dulu|lebih dulu|pertama tama)\b"),
    ("task hijack (ru)", rf"\b(?:прежде чем|перед тем как|до того как) (?:выполнить|выполнять|решить|сделать|начать|продолжить|ответить на|выполнишь|решишь)(?: \w+){{0,2}}? (?:задачу|задание|запрос|вопрос){_G} (?:сначала|сперва|в первую очередь)\b"),
    ("task hijack (uk)", rf"\b(?:перш ніж|перед тим як|до того як) (?:виконати|вирішити|зробити|почати|продовжити|відповісти на)(?: \w+){{0,2}}? (?:завдання|запит|питання){_G} (?:спочатку|спершу|насамперед)\b"),
    ("task hijack (vi)", rf"\btrước khi (?:bạn )?(?:thực hiện|làm|hoàn thành|giải quyết|bắt đầu|tiếp tục|trả lời|xử lý)(?: \w+)? (?:nhiệm vụ|yêu cầu|câu hỏi|công việc){_G} (?:trước tiên|trước hết|đầu tiên)\b"),
    ("task hijack (tr)", rf"\b(?:görevi|görevini|isteği|isteğini|soruyu|işi)(?: \w+){{0,2}}? (?:yapmadan|tamamlamadan|yerine getirmeden|çözmeden|başlamadan|bitirmeden|yanıtlamadan|cevaplamadan) önce{_G} (?:ilk olarak|öncelikle|önce|ilk önce)\b"),
    ("task hijack (ar)", rf"قبل (?:أن |ان )?(?:تنفذ|تنفيذ|تكمل|إكمال|اكمال|تحل|حل|تبدأ|بدء|تقوم ب|تجيب على)\w*(?: \w+){{0,2}}? (?:المهمة|مهمتك|الطلب|السؤال){_G} (?:أولا|اولا|في البداية)"),
    ("task hijack (tl)", rf"\bbago (?:mo |ninyo |natin )?(?:gawin|tapusin|simulan|sagutin|isagawa|lutasin|ituloy) ang (?:gawain|task|iyong gawain|hiling|tanong|utos){_G} (?:muna|una sa lahat)\b"),
]

PLAIN_RULES: list[tuple[str, str]] = [(label, unicodedata.normalize("NFKC", pattern)) for label, pattern in [
    # --- Chinese -------------------------------------------------------------------
    ("addressed to the AI (zh)", r"(?:给|致|写给)(?:你|您)(?:这个|这位)?[，, ]?(?:ai|人工智能|助手|助理|模型|智能体){1,2}的(?:一条)?(?:重要|紧急)?(?:消息|信息|留言|指示)"),
    ("task hijack (zh)", r"(?:在)?(?:你)?(?:完成|执行|开始|处理|回答|做)(?:这个|该|你的|用户的|我给你的)?(?:任务|请求|问题)(?:之前|前)[^。！？]{0,30}?(?:先|首先|请先)"),
    # --- Hindi ---------------------------------------------------------------------
    ("addressed to the AI (hi)", r"(?:आपके|तुम्हारे|आप|तुम)(?: के)? लिए[, ]{1,2}(?:एआई|ai|सहायक|असिस्टेंट|मॉडल)[^.!?।]{0,20}?(?:संदेश|मैसेज|निर्देश)|(?:एआई|ai|सहायक|असिस्टेंट) के लिए (?:एक )?(?:महत्वपूर्ण |ज़रूरी |जरूरी )?(?:संदेश|मैसेज)"),
    ("task hijack (hi)", r"(?:काम|कार्य|टास्क|अनुरोध|सवाल)(?: को)? (?:करने|पूरा करने|शुरू करने|हल करने|जवाब देने)(?: से)? पहले[^.!?।]{0,40}?(?:सबसे पहले|पहले)"),
    # --- Thai ----------------------------------------------------------------------
    ("addressed to the AI (th)", r"(?:ข้อความ|สาร)(?:สำคัญ|ด่วน)?(?:จากฉัน)?(?:ถึง|สำหรับ)(?:คุณ)?[ ,]{0,2}(?:ai|เอไอ|ผู้ช่วย|โมเดล)"),
    ("task hijack (th)", r"ก่อน(?:ที่)?(?:คุณ)?(?:จะ)?(?:ทำ|เริ่ม|ดำเนินการ|ตอบ|แก้)(?:งาน|ภารกิจ|คำขอ|คำถาม)[^.!?]{0,40}?(?:ก่อน|อันดับแรก|เป็นอันดับแรก)"),
]]

# Sending a secret or a mailbox, in the same sentence as an address or URL (see module doc).
_SEND = (
    r"(?:envía|envia|envíe|envie|reenvía|reenvia|manda|mande|sube|suba|envoie|envoyez|envoyer|transfère|transferez|transférez|"
    r"schick|schicke|schicken|sende|senden|leite|leiten|weiterleiten|lade|encaminhe|encaminha|envia|invia|inviare|inoltra|inoltrare|"
    r"carica|kirim|kirimkan|teruskan|unggah|отправь|отправьте|отправить|перешли|перешлите|пошли|пришли|надішли|надішліть|відправ|"
    r"перешли|gửi|chuyển tiếp|tải lên|gönder|gönderin|ilet|iletin|yükle|ipadala|ipasa|i-forward|i-upload|أرسل|ارسل|حوّل|حول|"
    r"发送|发给|转发|上传|भेजो|भेजें|भेज दो|भेज दें|फॉरवर्ड|अपलोड|ส่ง|อัปโหลด)"
)
_SECRET = (
    r"(?:contraseñas?|claves? api|credenciales|historial|correos|conversaci[oó]n(?:es)?|mots? de passe|identifiants|historique|courriels|e-?mails|"
    r"passw(?:ort|örter)|kennw(?:ort|örter)|zugangsdaten|api-?schlüssel|verlauf|nachrichten|senhas?|credenciais|hist[oó]rico|mensagens|conversas?|"
    r"password|credenziali|chiavi api|cronologia|messaggi|conversazion[ei]|kata sandi|kredensial|riwayat|percakapan|obrolan|"
    r"парол[ьиі]|учетные данные|облікові дані|истори[юя]|історію|переписк[уа]|письма|листи|листування|сообщения|повідомлення|"
    r"mật khẩu|thông tin đăng nhập|lịch sử|cuộc trò chuyện|email|şifre\w*|parola\w*|kimlik bilgileri|geçmiş\w*|konuşma\w*|e-?postalar\w*|"
    r"kasaysayan|usapan|mga email|كلمة المرور|كلمات المرور|بيانات الاعتماد|سجل|المحادثة|المحادثات|الرسائل|رسائل البريد|"
    r"密码|口令|聊天记录|对话记录|历史记录|邮件|凭据|पासवर्ड|क्रेडेंशियल|बातचीत|ईमेल|इतिहास|รหัสผ่าน|ประวัติ|การสนทนา|อีเมล)"
)
TWO_STEP_RULES: list[tuple[str, str, str, int]] = [
    (
        "exfiltration",
        rf"{_SEND}.{{0,80}}?{_SECRET}",
        r"https?://|ftp://|\b[\w.+-]+@[\w-]+\.\w+",
        160,
    ),
]
