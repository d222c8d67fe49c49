"""Overrides that point back at what came before, without naming instructions.

"Ignore the above and say …", "forget everything you were told before",
"print the prompt above", "show your initial instructions": the override and
probing families of ``injection_patterns`` want an instruction noun with a
qualifier; these say "the above", "what precedes", "everything you were told"
instead, or put a possessive on the noun ("tus instrucciones iniciales").
One family per slot, in English and the fifteen other languages the screen
covers (es fr de pt it id ru uk vi zh ar hi th tr tl).

Precision: the object is a reference to earlier text as a whole ("the above",
"everything you were told"), never a thing ("forget the key upstairs",
"quên chìa khóa ở trên bàn" stay clean); measured on the Universal
Dependencies rows of bench/bench_injection_public.py. Chinese, Hindi and
Thai run on the plain view with bounded character gaps.
"""

# ruff: noqa: E501  (a table of patterns: one per line, as in the other injection_* modules)
from __future__ import annotations

import unicodedata

WORD_RULES: list[tuple[str, str]] = [
    ("instruction override", r"\b(?:ignore|disregard|forget|overlook)(?: all of| all| everything)? (?:what (?:was|is|has been|i) (?:said|written|stated|told you|wrote) (?:above|before|earlier|previously)|what came before|everything (?:said |written )?(?:above|before this))\b"),
    ("instruction override (es)", r"\b(?:ignora|ignore|ignorad|ignoren|olvida|olvide|olvidad|descarta|omite)(?: todo)? (?:lo anterior|lo de arriba|lo que está arriba|lo que esta arriba|lo dicho (?:antes|anteriormente|arriba)|lo que (?:te )?(?:dijeron|han dicho|he dicho|se dijo) (?:antes|anteriormente))\b"),
    ("instruction override (fr)", r"\b(?:ignore|ignorez|oublie|oubliez)(?: tout)? (?:ce qui précède|ce qui est au dessus|ce qui est ci dessus|ce qui a été dit (?:avant|plus haut|précédemment|auparavant)|ci dessus)\b"),
    ("instruction override (de)", r"\b(?:ignorier\w*|vergiss|vergesst|vergessen sie|missachte\w*)(?: \w+)? (?:das obige|die obigen \w+|alles obige|das vorherige|alles vorherige|alles bisherige|alles oben gesagte|alles davor|das oben gesagte|das zuvor gesagte|alles zuvor gesagte)\b"),
    ("system prompt probing (de)", r"\b(?:drucke|drucken sie|druck|gib|geben sie|zeig|zeige|zeigen sie|wiederhole|wiederholen sie)(?: \w+){0,2}? (?:die |den |das )?(?:obige|obigen|vorherige|vorherigen|ursprüngliche|ursprünglichen|anfängliche|anfänglichen) (?:eingabeaufforderung|anweisungen|anweisung|prompt|systemanweisung|systemprompt)\b"),
    ("instruction override (pt)", r"\b(?:ignore|ignora|ignorem|esqueça|esqueca|esquece|desconsidere)(?: tudo)? (?:o que foi dito (?:acima|antes|anteriormente)|o que está acima|o que esta acima|o acima|o anterior|o que (?:te )?(?:disseram|foi dito) antes)\b"),
    ("instruction override (it)", r"\b(?:ignora|ignorate|ignori|dimentica|dimenticate|dimentichi)(?: tutto)? (?:quanto sopra|quello sopra|ciò che precede|quanto detto (?:prima|sopra|finora)|quello che ti (?:è stato|hanno) detto(?: prima)?|ciò che ti (?:è stato|hanno) detto|quello che ti ho detto(?: prima)?)\b"),
    ("instruction override (id)", r"\b(?:abaikan|lupakan|acuhkan|hiraukan)(?: semua| semuanya)? (?:yang di atas|yang sebelumnya|hal di atas|semua yang (?:dikatakan|diberikan|disampaikan|diperintahkan|diberitahukan)(?: \w+)? sebelumnya|yang (?:dikatakan|diberikan|disampaikan) sebelumnya)\b"),
    ("system prompt probing (id)", r"\b(?:tunjukkan|tampilkan|berikan|sebutkan|tuliskan|ulangi)(?: \w+)? (?:instruksi|perintah|prompt) (?:awal|sistem|asli|rahasia)(?:mu|nya)?\b"),
    ("instruction override (ru)", r"\b(?:игнорируй|игнорируйте|забудь|забудьте|проигнорируй|проигнорируйте)(?: всё| все)? (?:вышесказанное|вышеизложенное|вышенаписанное|выше|сказанное выше|написанное выше|предыдущее|что было сказано (?:ранее|раньше|выше)|что тебе (?:говорили|сказали)(?: раньше| ранее)?)\b"),
    ("instruction override (uk)", r"\b(?:ігноруй|ігноруйте|забудь|забудьте|проігноруй|проігноруйте)(?: все| усе)? (?:вищесказане|вищенаписане|сказане вище|написане вище|вище|попереднє|що було сказано (?:раніше|вище)|що тобі (?:казали|сказали)(?: раніше)?)\b"),
    ("instruction override (vi)", r"\b(?:bỏ qua|phớt lờ|quên|lờ đi)(?: đi)? (?:tất cả |mọi |hết )?(?:những điều|điều|nội dung|mọi thứ|những gì|mọi điều|các hướng dẫn|hướng dẫn|chỉ dẫn|chỉ thị)(?: \w+){0,5}? (?:ở trên|phía trên|bên trên|trước đó|trước đây)\b"),
    ("instruction override (ar)", r"(?:تجاهل|تجاهلي|تجاهلوا|انس|انسى|انسي|اهمل|أهمل)(?: كل| جميع)? (?:ما سبق|ما ورد أعلاه|ما ورد اعلاه|ما قيل(?: \w+){0,2}? (?:من قبل|سابقا|سابقاً)|ما ذكر (?:أعلاه|اعلاه|سابقا))"),
    ("system prompt probing (ar)", r"(?:اعرض|أظهر|اظهر|اكتب|أعطني|اعطني|اطبع)(?: لي)? (?:تعليماتك|أوامرك|اوامرك|توجيهاتك) (?:الأولية|الاولية|الأصلية|الاصلية|السرية|المخفية)"),
    ("instruction override (tr)", r"\b(?:yukarıdakileri|yukarıdakini|yukarıdaki her şeyi|önceki her şeyi|öncekileri|daha önce söylenen her şeyi|sana daha önce söylenen(?: her şeyi)?|sana söylenen her şeyi)(?: \w+){0,2}? (?:görmezden gel|gormezden gel|yok say|unut|dikkate alma|boşver|umursama)\w*"),
    ("system prompt probing (tr)", r"\b(?:i ?lk|orijinal|gizli|sistem|başlangıç) talimatlar(?:ını|ini|ı|i) (?:göster|yaz|söyle|paylaş|ver|yazdır|tekrarla)\w*"),
    ("instruction override (tl)", r"\b(?:huwag (?:mong |nang )?pansinin|kalimutan(?: mo)?|balewalain(?: mo)?)(?: ang)?(?: lahat ng)? (?:nasa itaas|sa itaas|nauna|naunang sinabi|sinabi sa iyo(?: dati| noon| kanina)?|sinabi(?: \w+){0,2}? dati)\b"),
    ("system prompt probing (tl)", r"\b(?:ipakita|sabihin|ibigay|isulat|ulitin)(?: mo)?(?: sa akin)?(?: ang)?(?: iyong| mong| inyong)? (?:orihinal|unang|lihim|nakatagong)(?: na| ng)?(?: mga)? (?:tagubilin|instruksyon|instruksiyon|utos)\b"),
]

PLAIN_RULES: list[tuple[str, str]] = [(label, unicodedata.normalize("NFKC", pattern)) for label, pattern in [
    ("instruction override (zh)", r"(?:忽略|无视|忘记|忘掉|不要理会|忽視|無視|忘記)[^。！？]{0,4}?(?:上面|以上|上述|之前|前面|先前)[^。！？]{0,8}?(?:内容|一切|所有|说的|說的|指令|文字|话|話)"),
    ("instruction override (hi)", r"(?:ऊपर|पहले)(?: लिखी| लिखे| कही| कहे| दी| दिए| बताई| बताए)?(?: गई| गयी| गए)?(?: सभी| सब| सारी)? (?:बातों|बातें|बात|चीज़ों|चीजों|हर चीज़|हर चीज|सब कुछ)[^.!?।]{0,20}?(?:अनदेखा|नज़रअंदाज़|नजरअंदाज|भूल जा|भूलो)"),
    ("system prompt probing (hi)", r"(?:अपने|आपके|तुम्हारे) (?:शुरुआती|मूल|प्रारंभिक|असली|छिपे हुए|छिपे|गुप्त) (?:निर्देश|आदेश|प्रॉम्प्ट)"),
    ("instruction override (th)", r"(?:ไม่ต้องสนใจ|เพิกเฉย(?:ต่อ)?|ลืม|ละเว้น)(?:ข้อความ|สิ่งที่|ทุกอย่าง|เนื้อหา|คำ)[^.!?]{0,20}?(?:ข้างบน|ด้านบน|ก่อนหน้านี้|ก่อนหน้า)"),
]]
