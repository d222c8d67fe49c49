"""Paraphrase families of prompt injection in ten languages.

``injection_patterns`` holds the first rules (English, Indonesian, single
phrases elsewhere); this module widens them by *family* — each family is a
way of saying one thing, phrased the ways people phrase it, per language:

* override: "ignore / forget your (previous) instructions";
* void: "all earlier instructions are void / no longer apply";
* follow only: "disregard that and follow only this";
* new task: "new instructions follow", "focus on your new task";
* you are now: "from now on you are / act as an AI without …";
* reveal: "repeat your initial prompt", "what was written above";
* fake system blocks, exfiltration (markdown images with data in the URL,
  ``curl … | sh``, "send the chat history to URL"), hidden HTML.

Languages: en, id, es, fr, de, pt, uk, ru, vi, zh. Word rules run on word
views (casefolded, punctuation → single spaces, see ``injection_patterns``);
plain rules need punctuation. Every pattern is literal-led and bounded (the
screen's prefilter derives each rule's literals, and the screen stays linear).

Precision: each family needs a qualifier an ordinary note lacks — a
"previous/your/all" before "instructions", "only this/these" after "follow",
a role noun after "now you are" — so "ignore the flaky test", "follow only
the official docs", "now it's your turn" (de "jetzt bist du dran") stay
clean. Measured on public ordinary text in all ten languages by
``bench/eval_injection.py``.
"""

from __future__ import annotations

_W = r"(?: \w+)"  # one filler word

WORD_RULES: list[tuple[str, str]] = [
    # --- English ---------------------------------------------------------------
    ("instruction override", r"\b(?:previous|prior|earlier|above|preceding|former|old|original|initial) (?:instructions?|directives?|rules|prompts?|guidelines|orders|commands|tasks|assignments)(?: \w+){0,3}? (?:are|is|were|have been|become|becomes)(?: now| hereby| all)? (?:void|null|invalid|cancelled|canceled|revoked|obsolete|irrelevant|overridden|superseded|no longer (?:valid|apply|applicable|in effect|relevant))\b"),
    ("instruction override", r"\b(?:your|the|all) (?:previous |prior |earlier |original |old |initial )?(?:instructions|rules|directives|guidelines) (?:no longer apply|do not apply any ?more|don t apply any ?more|are (?:now )?(?:void|cancelled|canceled|revoked|obsolete|irrelevant))\b"),
    ("instruction override", r"\b(?:forget|ignore|disregard|drop|abandon|leave|remove)(?: about)? all(?: of)?(?: the| your| my)?(?: previous| prior| earlier| provided| given| other| above)? (?:assignments|tasks|information|context|documents|articles|thoughts|conversations?)\b"),
    ("instruction override", r"\b(?:ignore|disregard) everything\b(?! (?:in|under|inside|from|that|except|but|else in))"),
    ("instruction override", r"\b(?:previous|prior|earlier|above) (?:tasks|information|assignments|instructions) (?:out of|from) your (?:head|mind|memory)\b"),
    ("instruction override", r"\bleave all(?: the)? (?:previous|prior|earlier) \w+ behind\b"),
    ("instruction override", r"\bpay no attention to (?:what|anything|everything)(?: \w+){0,3}? (?:told|said|instructed)\b"),
    ("instruction override", r"\bdisregarding (?:the|all|any|your) (?:articles|documents|context|instructions|rules|above)\b"),
    ("instruction override", r"\b(?:change|update|replace) your (?:instructions|rules|directives|system prompt)\b"),
    ("injected instructions", r"\b(?:follow|obey|heed|comply with)(?: \w+){0,2}? only (?:this|these|me|my \w+|the (?:text|instructions?|message|note|rules?) (?:below|here|in this))\b"),
    ("injected instructions", r"\b(?:listen|answer|respond|reply) only to me\b"),
    ("injected instructions", r"\b(?:now )?(?:focus|concentrate) on (?:your|the|this) new task\b"),
    ("injected instructions", r"\b(?:new|further|additional) (?:instructions|tasks|orders) (?:follow|are as follows|below)\b"),
    ("injected instructions", r"\byour (?:new )?instructions are now\b"),
    ("injected instructions", r"\bhere are your new (?:orders|instructions|rules|directives|commands)\b"),
    ("injected instructions", r"\b(?:new|updated|revised) (?:instructions|orders|rules) for (?:the )?(?:assistant|ai|model|bot|llm)\b"),
    ("role reassignment", r"\bfrom (?:this moment|this point|here on|now)(?: on)?,? you (?:are|will|must|shall|act|re)\b"),
    ("role reassignment", r"\bi want you to (?:act|behave|pretend|respond|answer|play|roleplay|serve)(?: \w+)? as\b"),
    ("role reassignment", r"\bact as (?:an? |the )?(?:linux |python |javascript |sql |unix |bash |windows )?(?:terminal|interpreter|shell|console)\b"),
    ("role reassignment", r"\bnow you are (?:an? |the )?(?:\w+ )?(?:ai|assistant|bot|chatbot|model|character|role|persona|dan|hacker)\b"),
    ("system prompt probing", r"\b(?:print|repeat|show|output|display|reveal|write|spell check and display)(?: \w+){0,2}? (?:everything|all|the text|all the text|what (?:was|is) written) (?:above|before|at the beginning)\b"),
    ("system prompt probing", r"\bwhat (?:was|is) written (?:above|at the beginning|before)\b"),
    ("system prompt probing", r"\b(?:show|display|print|reveal|output|give|list)(?: \w+){0,3}? prompt texts?\b"),
    ("system prompt probing", r"\b(?:repeat|reveal|print|show|tell me|output|list)(?: \w+){0,2}? (?:your|the) (?:exact |full |complete )?(?:initial |original |first |starting )?(?:instructions|directives|guidelines|prompt)\b(?! (?:for|on|about|to) (?:the )?(?:recipe|assembly|setup|install))"),
    ("system prompt probing", r"\bwhat are your (?:instructions|rules|directives|guidelines)\b"),
    ("role reassignment", r"\b(?:an? )?(?:ai|assistant|model|chatbot|language model) (?:with no|without any|without) (?:real )?(?:restrictions|limits|limitations|rules|filters|censorship|guidelines|ethics|capabilities)\b"),
    ("injected instructions", r"\brespond to every (?:prompt|message|question|request) i give you\b"),
    ("system prompt probing", r"\b(?:share|reveal|show|print|dump|output)(?: \w+){0,2}? your (?:configuration|config|system configuration|hidden settings)\b"),
    ("role reassignment", r"\b(?:stay|stays|remain|remains|staying) (?:fully |always |completely )?in (?:their|his|her|your) roles?\b|\b(?:do not|don t|never|not) break(?: out of)? character\b|\bfalling out of (?:the )?(?:figure|character|role)\b"),
    ("role reassignment", r"\bnow you (?:are|act as)\b(?! (?:able|done|ready|free|allowed|in|on|at|going|getting|the owner|a member|registered|signed|logged|set))"),
    ("role reassignment", r"\byou are (?:role ?playing|roleplaying|playing the role of|now playing)\b"),
    ("role reassignment", r"\bpretend (?:you can|you have|that you can|that you have|to have)\b"),
    ("instruction override", r"\b(?:not|instead of)(?: \w+)? (?:by|from|according to|in) the (?:articles|documents|provided documents|documents provided|context provided|provided context)\b"),
    ("instruction override", r"\b(?:do not|don t|dont) (?:look (?:in|at)|use|read|consult)(?: \w+){0,2}? (?:documents|articles|context)(?: provided| given)?\b"),
    ("instruction override", r"\b(?:do not|don t|dont) answer (?:this|the) question but\b"),
    ("system prompt probing", r"\bwhat (?:are|is|were|was) the(?: \w+){0,2}? (?:sentences?|words?|lines?|text) (?:before|above) (?:the|this)\b|\binformation in the prompt\b"),
    ("fake system block", r"\b(?:system|admin|administrator|developer|security|root) override\b"),
    # --- Indonesian ------------------------------------------------------------
    ("instruction override (id)", r"\b(?:instruksi|perintah|arahan|aturan|petunjuk)(?: \w+){0,2}? (?:sebelumnya|tadi|sebelum ini|di atas)(?: \w+){0,2}? (?:tidak berlaku|batal|dibatalkan|hangus|tidak berlaku lagi|sudah tidak berlaku)\b"),
    ("injected instructions (id)", r"\b(?:ikuti|patuhi|turuti|jalankan|ikutilah|patuhilah)(?: \w+)? (?:hanya|cuma)(?: \w+){0,2}? (?:perintah|instruksi|catatan|teks|pesan|arahan)(?: \w+){0,2}? ini\b"),
    ("injected instructions (id)", r"\b(?:hanya|cuma) (?:ikuti|patuhi|turuti)(?: \w+){0,2}? (?:perintah|instruksi|catatan|teks|pesan|arahan)(?: \w+){0,2}? ini\b"),
    ("injected instructions (id)", r"\b(?:perintah|instruksi|aturan) (?:baru|terbaru)(?: \w+){0,2}? (?:menggantikan|mengganti|menimpa)\b"),
    ("role reassignment (id)", r"\bmulai (?:sekarang|saat ini|detik ini|hari ini) (?:kamu|anda|kau|lo|lu) (?:berperan|bertindak|berlaku)\b"),
    ("system prompt probing (id)", r"\b(?:ulangi|tampilkan|tunjukkan|bocorkan|sebutkan|tuliskan)(?: \w+){0,2}? (?:instruksi|prompt|perintah|arahan) (?:awal|asli|sistem|rahasia|pertama)\b"),
    # --- Spanish ---------------------------------------------------------------
    ("instruction override (es)", r"\b(?:ignora|ignore|ignorad|olvida|olvide|olvidad|olvidar|descarta|omite|desatiende)(?: \w+){0,4}? (?:instrucciones|indicaciones|órdenes|ordenes|directrices|(?:tus|sus|todas las) (?:reglas|normas)|lo que te (?:dijeron|han dicho|dije|dijo))\b"),
    ("instruction override (es)", r"\b(?:olvida|olvide|olvidar|ignora) todo (?:lo )?que\b"),
    ("instruction override (es)", r"\b(?:instrucciones|indicaciones|órdenes|ordenes|reglas) (?:anteriores|previas)(?: \w+){0,3}? (?:quedan|están|estan|son|ya no)(?: \w+){0,2}? (?:anuladas|anulados|canceladas|invalidadas|sin efecto|válidas|validas|vigentes|aplican)\b"),
    ("injected instructions (es)", r"\b(?:sigue|siga|obedece|obedezca|haz caso a)(?: \w+){0,2}? (?:solo|sólo|solamente|únicamente|unicamente)(?: \w+){0,2}? (?:estas|este|esta|mis) (?:instrucciones|mensaje|nota|órdenes|ordenes|indicaciones)\b"),
    ("injected instructions (es)", r"\b(?:estas son|aquí tienes|aqui tienes) tus nuevas (?:instrucciones|órdenes|ordenes|reglas)\b"),
    ("role reassignment (es)", r"\b(?:desde (?:este momento|ahora)|a partir de ahora|de ahora en adelante),? (?:eres|actúas como|actuas como|actuarás como|actuaras como|serás|seras|vas a actuar)\b"),
    ("system prompt probing (es)", r"\b(?:prompt|instrucciones) (?:del sistema|de sistema|iniciales|originales|ocultas)\b"),
    # --- French ----------------------------------------------------------------
    ("instruction override (fr)", r"\b(?:ignore|ignorez|oublie|oubliez)(?: \w+){0,4}? (?:instructions|consignes|directives|(?:tes|vos|toutes les) (?:règles|regles)|ce qu on t a dit|ce qu on vous a dit)\b"),
    ("instruction override (fr)", r"\b(?:instructions|consignes|directives|règles|regles) (?:précédentes|precedentes|antérieures|anterieures)(?: \w+){0,2}? (?:sont (?:annulées|annulees|caduques|nulles|invalides)|ne s appliquent plus|ne comptent plus|n ont plus cours)\b"),
    ("injected instructions (fr)", r"\b(?:suis|suivez|obéis|obeis|obéissez|obeissez)(?: \w+){0,2}? (?:uniquement|seulement|exclusivement)(?: \w+){0,2}? (?:ces|cette|ce|mes) (?:instructions|consignes|message|note|ordres)\b"),
    ("injected instructions (fr)", r"\b(?:voici|ce sont) (?:tes|vos) nouve(?:aux|lles) (?:ordres|instructions|consignes|règles|regles)\b"),
    ("role reassignment (fr)", r"\b(?:tu es|vous êtes|vous etes) désormais (?:une?|l|le|la)\b|\b(?:à|a) partir de maintenant,? (?:tu|vous) (?:es|êtes|etes|joues|jouez|seras|serez|agis|agissez)\b|\b(?:tu joues|vous jouez) le rôle d (?:une?) (?:ia|intelligence|assistant|robot)\b"),
    ("system prompt probing (fr)", r"\b(?:prompt|instructions|consignes) (?:système|systeme|initiales|originales|cachées|cachees)\b"),
    # --- German ----------------------------------------------------------------
    ("instruction override (de)", r"\bvergiss(?:t)?(?: nun| jetzt| bitte)? (?:alles|alle (?:vorherigen |bisherigen |früheren |fruheren )?(?:aufgaben|aufträge|auftrage|angaben|informationen|anweisungen|instruktionen|regeln|vorgaben))\b"),
    ("instruction override (de)", r"\b(?:bisherigen|vorherigen|früheren|fruheren|vorangegangenen|obigen) (?:anweisungen|vorgaben|instruktionen|regeln|befehle|aufgaben|informationen|ausführungen|ausfuhrungen)(?: \w+){0,4}? (?:sind|gelten)(?: \w+){0,3}? (?:ungültig|ungultig|nichtig|aufgehoben|irrelevant|hinfällig|hinfallig|nicht mehr|nicht ganz grossartig)\b"),
    ("instruction override (de)", r"\babweichend (?:zu|von) (?:den )?(?:vorherigen|bisherigen|obigen) (?:instruktionen|anweisungen|vorgaben)\b"),
    ("instruction override (de)", r"\b(?:obigen|vorherigen|bisherigen) (?:ausführungen|ausfuhrungen|anweisungen|angaben|instruktionen|informationen) (?:ignorieren|vergessen|hinter sich)\b"),
    ("instruction override (de)", r"\b(?:aufgaben|anweisungen|informationen) aus dem kopf (?:zu )?streichen\b"),
    ("injected instructions (de)", r"\b(?:befolge|gehorche|folge)(?: \w+){0,3}? (?:nur|ausschliesslich|allein)(?: \w+){0,2}? (?:dieser|diesem|diese|meinen|meiner) (?:anweisung|anweisungen|text|nachricht|notiz|befehle|befehlen)\b"),
    ("injected instructions (de)", r"\b(?:konzentriere dich|konzentrieren sie sich)(?: \w+){0,3}? auf (?:deine|ihre|die) neue aufgabe\b"),
    ("injected instructions (de)", r"\b(?:nun|jetzt) folgen (?:neue|weitere) (?:anweisungen|aufgaben|befehle)\b"),
    ("injected instructions (de)", r"\bhier sind deine neuen (?:befehle|anweisungen|regeln)\b"),
    ("role reassignment (de)", r"\bdu bist ab sofort\b|\bab (?:jetzt|sofort) spielst du\b|\b(?:nun|jetzt) bist du (?:ein|eine|der|die|das)\b"),
    ("role reassignment (de)", r"\bstell dir vor,? du bist (?:eine?|ein) (?:\w+ )?(?:ki|ai|bot)\b"),
    ("role reassignment (de)", r"\bbleiben (?:immer |voll |vollkommen )?in ihren rollen\b|\baus (?:der|ihrer) rolle (?:zu )?fallen\b|\b(?:nun|jetzt) bist du\b(?! (?:dran|an der reihe|gefragt|fertig|da|hier|wieder|dabei|sicher|bereit|zu hause|online|angemeldet))"),
    ("role reassignment (de)", r"\bich möchte dass (?:sie|du) als(?: \w+){1,6}? (?:fungieren|fungierst|agieren|agierst|auftreten|auftrittst)\b"),
    ("system prompt probing (de)", r"\bsystemprompts?\b|\b(?:dein|deine|deinen|deines) system ?prompts?\b|\b(?:zeig|zeige|gib|wiederhole|verrate|nenne)(?: \w+){0,3}? (?:prompt texte?|ursprünglichen anweisungen|ursprunglichen anweisungen|anfänglichen anweisungen)\b"),
    # --- Portuguese ------------------------------------------------------------
    ("instruction override (pt)", r"\b(?:ignore|ignora|ignorem|esqueça|esqueca|esquece|desconsidere|desconsidera)(?: \w+){0,4}? (?:instruções|instrucoes|orientações|orientacoes|diretrizes|(?:tuas|suas|todas as) regras|o que te disseram|o que lhe disseram)\b"),
    ("instruction override (pt)", r"\b(?:instruções|instrucoes|orientações|orientacoes|ordens|regras) anteriores(?: \w+){0,3}? (?:estão|estao|são|sao|foram|não valem|nao valem)(?: \w+){0,2}? (?:anuladas|canceladas|revogadas|inválidas|invalidas|sem efeito|mais)\b"),
    ("injected instructions (pt)", r"\b(?:siga|sigam|segue|obedeça|obedeca|obedece)(?: \w+){0,2}? (?:somente|apenas|só|so|unicamente)(?: \w+){0,2}? (?:estas|esta|este|minhas) (?:instruções|instrucoes|mensagem|nota|ordens)\b"),
    ("injected instructions (pt)", r"\b(?:estas são|estas sao|aqui estão|aqui estao) (?:as )?(?:suas|tuas) novas (?:ordens|instruções|instrucoes|regras)\b"),
    ("role reassignment (pt)", r"\b(?:de agora em diante|a partir de agora),? (?:você|voce|tu) (?:é|e|age|atua|será|sera|vai agir)\b"),
    ("system prompt probing (pt)", r"\b(?:prompt|instruções|instrucoes) (?:do sistema|de sistema|iniciais|originais|ocultas)\b"),
    # --- Ukrainian -------------------------------------------------------------
    ("instruction override (uk)", r"\b(?:ігноруй|ігноруйте|забудь|забудьте|проігноруй)(?: \w+){0,4}? (?:інструкції|вказівки|команди|(?:свої|усі|всі) правила|що тобі (?:казали|говорили|сказали))\b"),
    ("instruction override (uk)", r"\b(?:попередні|минулі|старі) (?:інструкції|вказівки|правила|команди)(?: \w+){0,2}? (?:скасовано|скасовані|недійсні|більше не діють|не діють)\b"),
    ("injected instructions (uk)", r"\b(?:виконуй|слухайся|дотримуйся|слухай)(?: \w+){0,2}? (?:лише|тільки|виключно)(?: \w+){0,2}? (?:ці|цих|цього|цієї|мої|моїх) (?:інструкції|інструкцій|повідомлення|вказівки|вказівок|наказів)\b"),
    ("injected instructions (uk)", r"\bось (?:твої|ваші) нові (?:накази|інструкції|правила)\b"),
    ("role reassignment (uk)", r"\b(?:тепер|відтепер|віднині) ти (?:асистент|помічник|бот|ші|штучний|граєш|виконуєш роль|є ші)\b"),
    ("system prompt probing (uk)", r"\bсистемн\w* промпт\w*|\b(?:покажи|повтори|виведи|розкрий)(?: \w+){0,3}? (?:початкові|системні|приховані|оригінальні) (?:інструкції|вказівки)\b"),
    # --- Russian ---------------------------------------------------------------
    ("instruction override (ru)", r"\b(?:забудь|забудьте|игнорируй|игнорируйте)(?: \w+){0,3}? (?:что тебе (?:говорили|сказали)|свои правила|все правила)\b"),
    ("instruction override (ru)", r"\b(?:предыдущие|прежние|прошлые|старые) (?:инструкции|указания|правила|команды)(?: \w+){0,2}? (?:отменены|недействительны|больше не действуют|не действуют|аннулированы)\b"),
    ("injected instructions (ru)", r"\b(?:выполняй|подчиняйся|слушайся|следуй)(?: \w+){0,2}? (?:только|лишь|исключительно)(?: \w+){0,2}? (?:эти|этим|этому|этой|моим|мои) (?:инструкции|инструкциям|сообщению|указаниям|указания|приказам)\b"),
    ("injected instructions (ru)", r"\bвот (?:твои|ваши) новые (?:приказы|инструкции|правила)\b"),
    ("role reassignment (ru)", r"\b(?:теперь|отныне|с этого момента) ты (?:ассистент|помощник|бот|ии|играешь|выполняешь роль|являешься)\b"),
    ("system prompt probing (ru)", r"\bсистемн\w* промпт\w*|\b(?:покажи|повтори|выведи|раскрой)(?: \w+){0,3}? (?:начальные|системные|скрытые|исходные) (?:инструкции|указания)\b"),
    ("instruction override (hr)", r"\bzaboravi sve (?:instrukcije|upute|naredbe)\b"),
    # --- Vietnamese ------------------------------------------------------------
    ("instruction override (vi)", r"\b(?:bỏ qua|phớt lờ|quên|quên đi|lờ đi)(?: \w+){0,4}? (?:hướng dẫn|chỉ dẫn|chỉ thị|quy tắc|mệnh lệnh)(?: \w+){0,2}? (?:trước|trước đó|trước đây|cũ|ban đầu|của bạn)\b"),
    ("instruction override (vi)", r"\b(?:hướng dẫn|chỉ dẫn|chỉ thị|quy tắc|mệnh lệnh)(?: \w+){0,2}? (?:trước|trước đó|trước đây|cũ)(?: \w+){0,2}? (?:vô hiệu|bị hủy|không còn (?:áp dụng|hiệu lực|giá trị))\b"),
    ("injected instructions (vi)", r"\bchỉ (?:làm theo|tuân theo|nghe theo|tuân thủ)(?: \w+){0,2}? (?:hướng dẫn|tin nhắn|chỉ dẫn|lệnh|ghi chú|văn bản) này\b"),
    ("injected instructions (vi)", r"\bđây là (?:mệnh lệnh|hướng dẫn|quy tắc|chỉ thị) mới của bạn\b"),
    ("role reassignment (vi)", r"\b(?:bây giờ|từ bây giờ|từ giờ|kể từ bây giờ|từ nay) bạn (?:là|sẽ là) (?:một )?(?:trợ lý|ai|bot|chatbot|hệ thống|mô hình)\b|\bbạn (?:hãy )?(?:đóng vai|vào vai) (?:một )?(?:ai|trợ lý|hệ thống|hacker)\b"),
    ("system prompt probing (vi)", r"\b(?:lời nhắc|prompt|chỉ dẫn|hướng dẫn|chỉ thị) (?:hệ thống|ban đầu|gốc)\b"),
    # --- Chinese (no word boundaries) -------------------------------------------
    ("instruction override (zh)", r"(?:忽略|无视|忘记|忘掉|不要理会|别理会|忽視|無視|忘記)\S{0,3}?(?:之前|以上|上面|先前|前面|以前|此前|刚才|所有|全部|一切|你的)\S{0,6}?(?:指令|指示|规则|規則|提示|设定|設定|命令|要求)"),
    ("instruction override (zh)", r"(?:之前|以上|上面|先前|前面|以前|此前)\S{0,4}?(?:指令|指示|规则|規則|提示|设定|命令|要求)\S{0,4}?(?:作废|作廢|无效|無效|失效|不再有效|取消)"),
    ("injected instructions (zh)", r"只(?:按照|遵守|服从|服從|听从|聽從|执行|執行)(?:这|這)(?:条|條|段|个|個)?(?:指令|指示|文字|消息|命令|说明)"),
    ("injected instructions (zh)", r"(?:这|這)是你的新(?:命令|指令|规则|規則)"),
    ("role reassignment (zh)", r"从现在(?:开始|起)你(?:是|扮演|将|要扮演)|你(?:现在)?扮演一个"),
    ("system prompt probing (zh)", r"(?:重复|输出|显示|告诉我|泄露|複述|輸出)\S{0,6}?(?:初始|原始|系统|系統)(?:指令|提示|设定|設定)"),
]

PLAIN_RULES: list[tuple[str, str]] = [
    ("instruction override", r"(?:^|[.!?:;,\")] ?)(?:forget|ignore|disregard) (?:about )?(?:everything|all (?:of )?(?:that|this|the above))\b(?! (?:in|under|inside|from|that|except|but|else in))"),
    ("injected instructions", r"\badditional instructions? ?[-:]"),
    ("fake system block", r"(?:^| )\[ ?(?:system|sys|admin|developer|sistem|sistema|système|systeme|система|hệ thống|系统|系統) ?\](?! ?(?:section|table|block|header|key))"),
    ("fake system block", r"【(?:系统|系統|system)】"),
    ("injected instructions", r"\b(?:attention|achtung) ?[-–:] ?(?:stop|stopp)\b|(?:^|[\s.!?])(?:stop|stopp) ?[-:] ?(?:write|schreib|schreibe|say|sag)\b"),
    ("fake system block", r"(?:system ?message|system ?override|systemnachricht|message syst[eè]me|mensagem do sistema|mensaje del sistema|anulaci[oó]n del sistema|pesan sistem|системн(?:е|ое) повідомлення|системное сообщение|thông báo hệ thống|系统通知|系統通知|系统消息) ?[:：]"),
    ("injected instructions", r"(?:nuevas instrucciones|nouvelles instructions|neue anweisungen|novas instruções|novas instrucoes|нові інструкції|новые инструкции|hướng dẫn mới|新的指令|新指令) ?[:：]"),
    ("exfiltration", r"!\[[^\]]{0,200}\] ?\( ?https?://[^\s)?]{1,300}\?[^\s)]{1,500}"),
    ("tool forcing", r"\b(?:curl|wget)\b[^|;&]{0,300}\| ?(?:sudo )?(?:ba|z|da|k|fi)?sh\b"),
    ("tool forcing", r"\b(?:iwr|irm|invoke-webrequest|invoke-restmethod)\b[^|;]{0,300}\| ?(?:iex|invoke-expression)\b"),
    ("hidden html", r"<(?:div|span|p|font|section|td)\b[^>]{0,200}(?:display ?: ?none|visibility ?: ?hidden|font-size ?: ?0|opacity ?: ?0\b|color ?: ?(?:white|#fff))"),
]

TWO_STEP_RULES: list[tuple[str, str, str, int]] = [
    (
        "hidden html",
        r"<!--",
        r"\b(?:assistant|ai|llm|model|chatbot|system|ignore|disregard|instructions?|prompt|you (?:must|should|will|are))\b",
        300,
    ),
    (
        "exfiltration",
        r"\b(?:envía|envia|envíe|envie|enviar|envoie|envoyez|envoyer|schick|schicke|sende|senden|надішли|надішліть|надіслати|відправ|отправь|отправьте|отправить|перешли|gửi|chuyển)\b.{0,80}?\b(?:historial|conversación|conversacion|mensajes|historique|conversation|messages|verlauf|gesprächsverlauf|gesprachsverlauf|nachrichten|histórico|historico|conversa|mensagens|історію|розмови|листування|повідомлення|историю|переписки|переписку|сообщения|lịch sử|cuộc trò chuyện|tin nhắn|contraseña|contrasena|mot de passe|passwort|senha|пароль|mật khẩu)\b",
        r"https?://|\bwebhook|\b[\w.+-]+@[\w-]+\.\w+",
        160,
    ),
    (
        "exfiltration",
        r"(?:聊天记录|对话记录|聊天内容|对话内容|历史记录|聊天記錄|對話記錄|密码|密碼|密钥)",
        r"(?:发送|发给|发到|上传|转发|傳送|發送|上傳)\S{0,4}?\s?(?:https?://|[\w.+-]+@)",
        40,
    ),
]
