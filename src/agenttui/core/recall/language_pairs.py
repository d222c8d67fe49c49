"""The calibration table of :mod:`agenttui.core.recall.language_probe`: sentence pairs per language.

Per language, six pairs of sentences that say the same thing in other words (a
cat adopted, a brother who is a doctor, a trip to the sea, a headache, a
meeting moved, guitar lessons: the kind of thing a chat history holds). The
unrelated pairs are the same sentences re-paired (the first of pair ``i`` with
the second of every other pair), so length and style are alike on both sides and
only meaning differs. Words are shared inside a pair as little as the language
allows: a model that sees only the words, not the meaning, should find the
related pairs no closer than the unrelated ones. A calibration table, not a
benchmark: it tells a model that reads a language from one that does not.
"""

from __future__ import annotations

PAIRS: dict[str, tuple[tuple[str, str], ...]] = {
    "en": (
        ("I adopted a cat last month.", "A few weeks ago we brought home a little kitten."),
        ("My brother works as a doctor.", "My sibling is a physician at the clinic."),
        ("We are planning a trip to the sea this summer.", "In July we want to go on holiday to the beach."),
        ("I have a headache and feel very tired.", "My head hurts and I am exhausted."),
        ("The meeting was moved to Friday morning.", "The appointment has been postponed to the end of the week."),
        ("I started learning to play the guitar.", "These days I practise a string instrument."),
    ),
    "zh": (
        ("我上个月领养了一只猫。", "几周前我们把一只小猫带回了家。"),
        ("我哥哥是一名医生。", "我的兄弟在诊所里给病人看病。"),
        ("我们打算今年夏天去海边旅行。", "七月份我们想去沙滩度假。"),
        ("我头疼，感觉非常累。", "我的脑袋很痛，整个人筋疲力尽。"),
        ("会议改到了星期五上午。", "开会时间往后推到了这周的最后一个工作日。"),
        ("我开始学弹吉他了。", "最近我在练习一种弦乐器。"),
    ),
    "ja": (
        ("先月、猫を一匹飼い始めました。", "数週間前に子猫を家に連れて帰りました。"),
        ("兄は医者として働いています。", "私の兄弟は診療所で患者を診ています。"),
        ("今年の夏は海へ旅行する予定です。", "七月にビーチで休暇を過ごしたいです。"),
        ("頭が痛くて、とても疲れています。", "頭痛がひどく、へとへとです。"),
        ("会議は金曜日の朝に変更されました。", "打ち合わせは週の終わりに延期になりました。"),
        ("ギターを習い始めました。", "最近、弦楽器の練習をしています。"),
    ),
    "ko": (
        ("지난달에 고양이를 입양했어요.", "몇 주 전에 새끼 고양이를 집에 데려왔어요."),
        ("우리 형은 의사로 일해요.", "제 형제는 병원에서 환자를 진료해요."),
        ("이번 여름에 바다로 여행을 갈 계획이에요.", "칠월에 해변에서 휴가를 보내고 싶어요."),
        ("머리가 아프고 너무 피곤해요.", "두통이 심하고 완전히 지쳤어요."),
        ("회의가 금요일 아침으로 옮겨졌어요.", "미팅이 주말 직전으로 연기되었어요."),
        ("기타를 배우기 시작했어요.", "요즘 현악기 연습을 하고 있어요."),
    ),
    "id": (
        ("Bulan lalu saya mengadopsi seekor kucing.", "Beberapa minggu yang lalu kami membawa pulang anak kucing."),
        ("Kakak laki-laki saya bekerja sebagai dokter.", "Saudara saya merawat pasien di klinik."),
        ("Kami berencana berlibur ke laut bulan depan.", "Bulan depan kami ingin bersantai di pantai."),
        ("Kepala saya sakit dan saya merasa sangat lelah.", "Saya pusing dan benar-benar kecapekan."),
        ("Rapatnya dipindah ke hari Jumat pagi.", "Pertemuan itu diundur ke akhir minggu."),
        ("Saya mulai belajar bermain gitar.", "Akhir-akhir ini saya berlatih alat musik petik."),
    ),
    "es": (
        ("El mes pasado adopté un gato.", "Hace unas semanas trajimos a casa un gatito."),
        ("Mi hermano trabaja de médico.", "Un familiar mío atiende a pacientes en una clínica."),
        ("Este verano pensamos viajar al mar.", "En julio queremos irnos de vacaciones a la playa."),
        ("Me duele la cabeza y estoy muy cansado.", "Tengo jaqueca y me siento agotado."),
        ("La reunión se cambió al viernes por la mañana.", "La cita se aplazó hasta el final de la semana."),
        ("Empecé a aprender a tocar la guitarra.", "Últimamente practico un instrumento de cuerda."),
    ),
    "fr": (
        ("J'ai adopté un chat le mois dernier.", "Il y a quelques semaines, nous avons ramené un chaton à la maison."),
        ("Mon frère travaille comme médecin.", "Quelqu'un de ma famille soigne des patients dans une clinique."),
        ("Nous prévoyons un voyage à la mer cet été.", "En juillet, nous voulons partir en vacances à la plage."),
        ("J'ai mal à la tête et je suis très fatigué.", "J'ai une migraine et je suis épuisé."),
        ("La réunion a été déplacée à vendredi matin.", "Le rendez-vous a été reporté à la fin de la semaine."),
        ("J'ai commencé à apprendre la guitare.", "Ces temps-ci, je m'exerce sur un instrument à cordes."),
    ),
    "de": (
        (
            "Letzten Monat habe ich eine Katze adoptiert.",
            "Vor ein paar Wochen haben wir ein Kätzchen nach Hause geholt.",
        ),
        ("Mein Bruder arbeitet als Arzt.", "Ein Verwandter von mir behandelt Patienten in einer Klinik."),
        ("Wir planen diesen Sommer eine Reise ans Meer.", "Im Juli wollen wir am Strand Urlaub machen."),
        ("Ich habe Kopfschmerzen und bin sehr müde.", "Mir brummt der Schädel und ich bin erschöpft."),
        ("Das Meeting wurde auf Freitagmorgen verschoben.", "Der Termin wurde auf das Ende der Woche vertagt."),
        ("Ich habe angefangen, Gitarre zu lernen.", "Zurzeit übe ich ein Saiteninstrument."),
    ),
    "pt": (
        ("No mês passado adotei um gato.", "Há algumas semanas trouxemos um gatinho para casa."),
        ("Meu irmão trabalha como médico.", "Um parente meu atende pacientes numa clínica."),
        ("Neste verão planejamos uma viagem para o mar.", "Em julho queremos passar as férias na praia."),
        ("Estou com dor de cabeça e muito cansado.", "Tenho enxaqueca e estou exausto."),
        ("A reunião foi transferida para sexta de manhã.", "O compromisso foi adiado para o fim da semana."),
        ("Comecei a aprender a tocar violão.", "Ultimamente pratico um instrumento de cordas."),
    ),
    "ru": (
        ("В прошлом месяце я взял кошку из приюта.", "Несколько недель назад мы принесли домой котёнка."),
        ("Мой брат работает врачом.", "Мой родственник лечит пациентов в клинике."),
        ("Этим летом мы собираемся поехать на море.", "В июле мы хотим отдохнуть на пляже."),
        ("У меня болит голова, и я очень устал.", "Мучает мигрень, я совершенно вымотан."),
        ("Совещание перенесли на утро пятницы.", "Встречу отложили на конец недели."),
        ("Я начал учиться играть на гитаре.", "В последнее время я занимаюсь на струнном инструменте."),
    ),
    "uk": (
        ("Минулого місяця я взяв кота з притулку.", "Кілька тижнів тому ми принесли додому кошеня."),
        ("Мій брат працює лікарем.", "Мій родич лікує пацієнтів у клініці."),
        ("Цього літа ми плануємо поїхати на море.", "У липні ми хочемо відпочити на пляжі."),
        ("У мене болить голова, і я дуже втомився.", "Мене мучить мігрень, я зовсім виснажений."),
        ("Нараду перенесли на ранок п'ятниці.", "Зустріч відклали на кінець тижня."),
        ("Я почав вчитися грати на гітарі.", "Останнім часом я займаюся на струнному інструменті."),
    ),
    "vi": (
        ("Tháng trước tôi đã nhận nuôi một con mèo.", "Vài tuần trước chúng tôi mang một chú mèo con về nhà."),
        ("Anh trai tôi làm bác sĩ.", "Người thân của tôi khám bệnh cho bệnh nhân ở phòng khám."),
        ("Mùa hè này chúng tôi dự định đi du lịch biển.", "Tháng bảy chúng tôi muốn nghỉ mát ở bãi biển."),
        ("Tôi bị đau đầu và cảm thấy rất mệt.", "Tôi nhức đầu và kiệt sức."),
        ("Cuộc họp đã được dời sang sáng thứ Sáu.", "Buổi gặp mặt bị hoãn đến cuối tuần."),
        ("Tôi bắt đầu học chơi đàn ghi-ta.", "Dạo này tôi tập một loại nhạc cụ dây."),
    ),
}
