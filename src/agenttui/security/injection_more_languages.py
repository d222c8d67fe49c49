"""Injection families in Arabic, Hindi, Italian, Thai, Turkish and Tagalog.

The same families as ``injection_families`` (override, void, new
instructions, role change, reveal the system prompt, addressed to the AI),
per language. Arabic, Italian, Turkish and Tagalog run on word views;
Hindi (Devanagari vowel signs) and Thai (no spaces, combining vowels) are not
``\\w`` throughout, so the word view would cut their words apart: their rules
run on the plain view (NFKC, casefolded) with bounded character gaps. Thai and
Hindi patterns are NFKC-normalised here, as the text is (NFKC rewrites Thai
SARA AM).

Precision: each rule needs an instruction noun plus a "previous/all/system"
qualifier or a verb of ignoring, as in the other languages; measured on the
Universal Dependencies PUD sentences of each language by
``bench/bench_injection_public.py``.
"""

from __future__ import annotations

import unicodedata


def _nfkc(rules: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(label, unicodedata.normalize("NFKC", pattern)) for label, pattern in rules]


WORD_RULES: list[tuple[str, str]] = [
    # --- Italian ---------------------------------------------------------------
    ("instruction override (it)", r"\b(?:ignora|ignorate|ignori|ignorare|dimentica|dimenticate|dimentichi|dimenticare|trascura|tralascia|non considerare|non tenere conto d\w*|non seguire|lascia perdere)(?: \w+){0,4}? (?:istruzioni|indicazioni|direttive|regole|ordini|comandi|prompt)\b"),
    ("instruction override (it)", r"\b(?:istruzioni|indicazioni|direttive|regole) (?:precedenti|originali|iniziali|di sistema)(?: \w+){0,3}? (?:sono|vanno|devono essere|non sono più|non valgono più)(?: \w+)? (?:annullate|ignorate|nulle|revocate|valide|superate|dimenticate)\b"),
    ("injected instructions (it)", r"\b(?:ecco|queste sono) (?:le )?(?:tue|sue) nuove (?:istruzioni|regole|direttive|ordini)\b|\bsegui (?:solo|soltanto|unicamente) (?:queste|le mie|questa) (?:istruzioni|istruzione|indicazioni|nota)\b"),
    ("role reassignment (it)", r"\b(?:da ora in poi|d ora in poi|da adesso|a partire da ora),? (?:tu )?(?:sei|sarai|agisci|ti comporterai|rispondi)\b|\bora sei (?:un|una|il|la) (?:ia|assistente|bot|modello|intelligenza)\b"),
    ("system prompt probing (it)", r"\b(?:prompt|istruzioni|messaggio) (?:di sistema|iniziali|originali|nascoste|segrete)\b"),
    # --- Turkish (casefolded: "İ" is "i̇", whose dot the word view drops) --------
    ("instruction override (tr)", r"\b(?:önceki|yukarıdaki|yukarıda ki|daha önceki|önceden verilen|verilen|tüm|bütün|sistem|orijinal|ilk|eski)(?: \w+){0,2}? (?:talimatları|talimatlari|talimatlarını|talimatlarin[ıi]|yönergeleri|yonergeleri|kuralları|kurallari|komutları|komutlari|emirleri|direktifleri|istemi|istemleri)(?: \w+){0,2}? (?:yok say|yoksay|görmezden gel|gormezden gel|unut|dikkate alma|umursama|boşver|bosver|göz ardı et|goz ardi et|iptal et|geçersiz say|gecersiz say|atla)\w*"),
    ("instruction override (tr)", r"\b(?:önceki|yukarıdaki|tüm|bütün|eski) (?:talimatlar|kurallar|yönergeler|komutlar)(?: \w+){0,2}? (?:geçersiz|gecersiz|iptal edildi|artık geçerli değil|artik gecerli degil|geçerli değil|hükümsüz)\b"),
    ("injected instructions (tr)", r"\b(?:işte|iste) (?:senin )?yeni (?:talimatların|talimatlarin|kuralların|kurallarin|görevin|gorevin)\b|\byeni talimatlar\b"),
    ("role reassignment (tr)", r"\b(?:bundan sonra|bundan böyle|şu andan itibaren|su andan itibaren|artık|artik) (?:sen )?(?:bir )?(?:yapay zeka|asistan|bot|model|sınırsız|sinirsiz|kısıtlamasız|kisitlamasiz|filtresiz)\w*"),
    ("system prompt probing (tr)", r"\b(?:sistem (?:istemini|istemi|talimatlarını|talimatlarini|mesajını|mesajini|promptunu|promptu)|gizli talimatlarını|ilk talimatlarını|orijinal talimatlarını)\b"),
    # --- Arabic ----------------------------------------------------------------
    ("instruction override (ar)", r"(?:تجاهل|تجاهلي|تجاهلوا|اتجاهل|انس|انسى|انسي|اهمل|أهمل|لا تتبع|لا تلتزم ب|تخط|تخطى|تخطي|الغ|ألغ)(?: \w+){0,3}? (?:التعليمات|تعليمات|الأوامر|الاوامر|أوامر|اوامر|القواعد|قواعد|الإرشادات|الارشادات|التوجيهات|توجيهات)\w*"),
    ("instruction override (ar)", r"(?:التعليمات|الأوامر|الاوامر|القواعد|الإرشادات|الارشادات|التوجيهات) (?:السابقة|الأصلية|الاصلية|القديمة|الأولى|السابقه)(?: \w+){0,3}? (?:ملغاة|ملغية|لاغية|باطلة|غير صالحة|لم تعد سارية|لم تعد صالحة|لا تنطبق)\b"),
    ("injected instructions (ar)", r"(?:هذه|إليك|اليك) (?:هي )?(?:تعليماتك|أوامرك|اوامرك|قواعدك) الجديدة|تعليمات جديدة"),
    ("role reassignment (ar)", r"(?:من الآن فصاعدا|من الان فصاعدا|من الآن|من الان|ابتداء من الآن|اعتبارا من الآن),? (?:أنت|انت|ستكون|ستتصرف|تصرف)\b|\bأنت الآن (?:مساعد|ذكاء|نموذج|بوت|روبوت)"),
    ("system prompt probing (ar)", r"(?:موجه|تعليمات|رسالة|أوامر|اوامر) (?:النظام|الأولية|الاولية|الأصلية|الاصلية|السرية|المخفية)\b"),
    # --- Tagalog ---------------------------------------------------------------
    ("instruction override (tl)", r"\b(?:huwag (?:mong |nang |na )?(?:pansinin|intindihin|sundin|sundan|pakinggan)|kalimutan(?: mo)?|balewalain(?: mo)?|ipagwalang bahala(?: mo)?|isantabi(?: mo)?|laktawan(?: mo)?)(?: \w+){0,4}? (?:tagubilin|mga tagubilin|instruksyon|instruksiyon|instructions|utos|mga utos|panuntunan|patakaran|alituntunin|direksyon)\w*"),
    ("instruction override (tl)", r"\b(?:naunang|nakaraang|dating|lahat ng) (?:mga )?(?:tagubilin|instruksyon|instruksiyon|utos|panuntunan|patakaran|alituntunin)(?: \w+){0,3}? (?:ay )?(?:wala nang bisa|hindi na (?:valid|wasto|balido|epektibo|sinusunod)|kanselado|walang bisa|binabawi)\b"),
    ("injected instructions (tl)", r"\b(?:ito ang|narito ang|heto ang) (?:iyong |mga )?(?:bagong|bago mong) (?:tagubilin|instruksyon|utos|panuntunan)\b|\bbagong (?:mga )?tagubilin\b"),
    ("role reassignment (tl)", r"\b(?:mula ngayon|simula ngayon|magmula ngayon),? (?:ikaw ay|ikaw ang|ikaw na|ika y|ka ay|kumilos ka|magpanggap ka)\b|\bikaw (?:ay )?(?:ngayon )?(?:isang|ang) (?:ai|assistant|bot|chatbot)(?: na)? (?:walang|hindi)\b"),
    ("system prompt probing (tl)", r"\b(?:ipakita|sabihin|ibigay|ulitin|ilabas|isulat|ibunyag)(?: mo| sa akin| mo sa akin){0,1}(?: \w+){0,2}? (?:system prompt|prompt ng sistema|orihinal na (?:tagubilin|instruksyon)|lihim na (?:tagubilin|instruksyon))\b|\bsystem prompt mo\b|\bprompt ng sistema\b"),
]

# Hindi and Thai: plain view, character gaps (see the module doc).
PLAIN_RULES: list[tuple[str, str]] = _nfkc([
    # --- Hindi -------------------------------------------------------------------
    ("instruction override (hi)", r"(?:पिछले|पिछली|पहले के|पहले दिए|ऊपर के|ऊपर दिए|सभी|सारे|सारी|मूल|सिस्टम)[^.!?।]{0,30}?(?:निर्देशों|निर्देश|आदेशों|आदेश|नियमों|नियम|हिदायतों|इंस्ट्रक्शन्स|इंस्ट्रक्शंस|प्रॉम्प्ट)[^.!?।]{0,20}?(?:अनदेखा|अनदेखी|नज़रअंदाज़|नजरअंदाज|नजरअंदाज़|भूल जा|भूल जाओ|भूल जाइए|भूलो|मत मानो|न मानें|मत मानें|रद्द|अमान्य|लागू नहीं)"),
    ("instruction override (hi)", r"(?:अनदेखा करो|अनदेखा करें|नज़रअंदाज़ करो|नजरअंदाज करो|नजरअंदाज करें|भूल जाओ|भूल जाइए)[^.!?।]{0,30}?(?:निर्देशों|निर्देश|आदेशों|आदेश|नियमों|नियम)"),
    ("injected instructions (hi)", r"(?:ये|यह) (?:तुम्हारे|आपके|तेरे) नए (?:निर्देश|आदेश|नियम) (?:हैं|है)|नए निर्देश ?[:：]"),
    ("role reassignment (hi)", r"(?:अब से|आज से|इस पल से)[ ,]{1,2}(?:तुम|आप|तू)[^.!?।]{0,40}?(?:हो|हैं|है|बनो|बनें|करोगे|करेंगे)"),
    ("system prompt probing (hi)", r"(?:सिस्टम प्रॉम्प्ट|सिस्टम प्रोम्प्ट|सिस्टम निर्देश|मूल निर्देश|गुप्त निर्देश|छिपे हुए निर्देश)"),
    # --- Thai --------------------------------------------------------------------
    ("instruction override (th)", r"(?:ไม่ต้องสนใจ|เพิกเฉย|ลืม|ละเว้น|ละทิ้ง|ไม่ต้องทำตาม|อย่าทำตาม|ข้าม)[^.!?]{0,12}?(?:คำสั่ง|คําสั่ง|คำแนะนำ|คําแนะนํา|กฎ|ข้อกำหนด|ข้อกําหนด|พรอมต์|พรอมท์)[^.!?]{0,12}?(?:ก่อนหน้า|ก่อนนี้|ข้างบน|ด้านบน|ทั้งหมด|เดิม|ของระบบ|ที่ได้รับ)"),
    ("instruction override (th)", r"(?:คำสั่ง|คําสั่ง|คำแนะนำ|คําแนะนํา|กฎ)(?:ก่อนหน้า|ก่อนหน้านี้|ทั้งหมด|เดิม)[^.!?]{0,20}?(?:ไม่ต้องสนใจ|ยกเลิก|เป็นโมฆะ|ไม่มีผล|ใช้ไม่ได้)"),
    ("injected instructions (th)", r"(?:นี่คือ|ต่อไปนี้คือ)(?:คำสั่ง|คําสั่ง|กฎ)ใหม่(?:ของคุณ)?|คำสั่งใหม่ ?[:：]"),
    ("role reassignment (th)", r"(?:ตั้งแต่นี้ไป|ต่อจากนี้ไป|จากนี้ไป|นับจากนี้)[ ,]{0,2}(?:คุณ|เธอ|แก)(?:คือ|เป็น|จะเป็น|ต้อง|จะต้อง|ไม่ต้อง|ไม่มี)"),
    ("system prompt probing (th)", r"(?:พรอมต์ระบบ|พรอมท์ระบบ|คำสั่งระบบ|คําสั่งระบบ|คำสั่งเริ่มต้น|คําสั่งเริ่มต้น|คำสั่งลับ|คําสั่งลับ)"),
])
