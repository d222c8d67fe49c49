"""Slot pools and slot filling for the recall corpus (bench/recall_corpus.py).

Templates name slots as ``{name}``, ``{name2}``, ``{city}`` …: a trailing
number asks for another value of the same pool, distinct from the ones the
template already used. Indonesian sessions take a pool's ``_id`` variant when
there is one (``dish_id`` for ``{dish}``). Pools are plain tuples so the
corpus is the same under any ``PYTHONHASHSEED``.
"""

from __future__ import annotations

import random

NAMES = (
    "Rina Budi Sari Agus Dewi Andi Putri Joko Wulan Dimas Fitri Hendra Lestari Rizky Ayu Bayu "
    "Indah Fajar Nadia Yusuf Mega Teguh Citra Eko Intan Galih Ratna Arif Sinta Bima Yogi Anisa "
    "Reza Tika Hadi Vina Ilham Nita Wahyu Dian Gilang Maya Rudi Laras Taufik Nur Kevin Siska "
    "Emma Jake Sophie Daniel Laura Mark Olivia Tom Hannah Lucas Chloe Ben Grace Ryan Mia Peter "
    "Julia Sam Nora Alex Irene Marco"
).split()
FEMALE = frozenset(
    "Rina Sari Dewi Putri Wulan Fitri Lestari Ayu Indah Nadia Mega Citra Intan Ratna Sinta Anisa Tika "
    "Vina Nita Dian Maya Laras Nur Siska Emma Sophie Laura Olivia Hannah Chloe Grace Mia Julia Nora "
    "Irene".split()
)
CITIES = (
    "Surabaya", "Bandung", "Yogyakarta", "Semarang", "Medan", "Makassar", "Denpasar", "Malang",
    "Bogor", "Depok", "Palembang", "Balikpapan", "Solo", "Cirebon", "Manado", "Pontianak",
    "Padang", "Pekanbaru", "Batam", "Kupang", "Singapore", "Kuala Lumpur", "Melbourne", "Tokyo",
    "Berlin", "Amsterdam", "Seoul", "Bangkok", "Perth", "Osaka",
)
STREETS = (
    "Jalan Riau", "Jalan Sudirman", "Jalan Dago", "Jalan Braga", "Jalan Cihampelas",
    "Jalan Kemang Raya", "Jalan Gatot Subroto", "Jalan Diponegoro", "Jalan Thamrin",
    "Jalan Asia Afrika", "Jalan Pajajaran", "Jalan Setiabudi", "Jalan Merdeka", "Jalan Veteran",
    "Jalan Pemuda", "Jalan Gajah Mada", "Jalan Kaliurang", "Jalan Cikini Raya", "Jalan Wijaya",
    "Jalan Sukajadi", "Jalan Buah Batu", "Jalan Tebet Barat",
)
AREAS = (
    "Kemang", "Menteng", "Kebayoran Baru", "Dago", "Antapani", "Buah Batu", "Cibubur", "BSD",
    "Bintaro", "Tebet", "Rawamangun", "Ciumbuleuit", "Sukajadi", "Cipete", "Pasteur", "Arcamanik",
)
PLACES = (
    "Lombok", "Labuan Bajo", "Kyoto", "Penang", "Hanoi", "Raja Ampat", "Bromo", "Toraja",
    "Belitung", "Chiang Mai", "Ubud", "Karimunjawa", "Dieng", "Flores", "Sumba", "Phuket",
    "Taipei", "Da Nang", "Wakatobi", "Bukittinggi", "Lake Toba", "Nusa Penida",
)
DISHES = (
    "lasagna", "chicken curry", "banana bread", "fried rice", "ramen", "shakshuka", "beef stew",
    "pad thai", "mushroom risotto", "fish tacos", "pancakes", "carbonara", "butter chicken",
    "tom yum", "bibimbap", "minestrone", "chili con carne", "sourdough", "teriyaki salmon",
    "lentil soup", "cheesecake", "dumplings", "green curry", "roast chicken", "apple pie",
)
DISHES_ID = (
    "rendang", "soto ayam", "nasi goreng kampung", "sayur asem", "opor ayam", "gulai kambing",
    "pepes ikan", "rawon", "sop buntut", "tumis kangkung", "ayam betutu", "pindang bandeng",
    "perkedel kentang", "semur daging", "gado-gado", "capcay", "bakwan jagung", "sambal goreng ati",
    "ikan bakar", "tempe mendoan", "sayur lodeh", "ayam geprek", "bubur ayam", "pempek",
)
INGREDIENTS = (
    "garlic", "shallots", "lemongrass", "coconut milk", "galangal", "bird's eye chili", "ginger",
    "tamarind", "soy sauce", "turmeric", "Thai basil", "eggplant", "tofu", "tempeh", "palm sugar",
    "lime leaves", "butter", "bread flour", "yeast", "chickpeas", "spinach", "feta", "parmesan",
    "sweet potato", "cauliflower", "oyster sauce", "sesame oil", "miso", "zucchini", "anchovies",
)
INGREDIENTS_ID = (
    "bawang putih", "bawang merah", "serai", "santan", "lengkuas", "cabai rawit", "jahe",
    "asam jawa", "kecap manis", "kunyit", "kemangi", "terong", "tahu", "tempe", "gula merah",
    "daun jeruk", "kemiri", "ketumbar", "terasi", "daun salam", "kentang", "wortel", "buncis",
)
PROG_LANGS = ("Python", "TypeScript", "Go", "Rust", "Kotlin", "SQL", "Bash", "Java", "Elixir")
TOOLS = (
    "Docker", "Kubernetes", "PostgreSQL", "Redis", "Terraform", "GitHub Actions", "nginx", "Kafka",
    "Celery", "FastAPI", "Django", "React", "Next.js", "pytest", "SQLAlchemy", "Airflow",
    "Prometheus", "Grafana", "RabbitMQ", "Elasticsearch", "Vite", "Tailwind",
)
ERRORS = (
    "a KeyError", "a timeout", "a segmentation fault", "a 502 Bad Gateway", "a merge conflict",
    "an out of memory error", "a race condition", "a deadlock", "a CORS error", "a flaky test",
    "a null pointer exception", "an import cycle", "a memory leak", "a 404 on every route",
    "a stack overflow", "an SSL handshake failure",
)
SYMPTOMS = (
    "a sore throat", "lower back pain", "a stiff neck", "heartburn", "a runny nose", "insomnia",
    "a rash on my arm", "dizziness in the morning", "knee pain", "a dry cough", "tired eyes",
    "a blocked nose", "cramps in my calf", "a headache behind my eyes", "ringing in my ears",
)
SYMPTOMS_ID = (
    "sakit tenggorokan", "sakit pinggang", "leher kaku", "maag kambuh", "pilek", "susah tidur",
    "gatal-gatal di tangan", "pusing tiap pagi", "nyeri lutut", "batuk kering", "mata perih",
    "hidung tersumbat", "kram kaki", "sakit kepala sebelah", "telinga berdenging",
)
RELATIVES = (
    "sister", "brother", "cousin", "uncle", "aunt", "niece", "nephew", "mother-in-law",
    "father", "mum", "grandma", "brother-in-law",
)
RELATIVES_ID = ("kakak", "adik", "sepupu", "om", "tante", "keponakan", "ibu", "bapak", "mertua",
                "nenek", "ipar")
PRODUCTS = (
    "air fryer", "rice cooker", "vacuum cleaner", "mechanical keyboard", "noise-cancelling headphones",
    "office chair", "water filter", "electric toothbrush", "blender", "dash cam", "smartwatch",
    "e-reader", "portable fan", "laser printer", "mesh router", "robot mop", "coffee grinder",
    "monitor arm", "power bank", "air purifier", "hand mixer", "pressure cooker",
)
PRODUCTS_ID = (
    "air fryer", "rice cooker", "penyedot debu", "kipas angin", "dispenser", "setrika uap",
    "blender", "kompor listrik", "helm", "jaket hujan", "sepatu lari", "tas ransel", "powerbank",
    "lemari plastik", "kasur lipat", "rak sepatu", "panci presto", "mesin cuci",
)
STORES = (
    "Tokopedia", "Shopee", "IKEA", "Ace Hardware", "Informa", "Gramedia", "Uniqlo", "Decathlon",
    "Electronic City", "Erafone", "Lazada", "Blibli", "Courts", "Miniso", "Hypermart",
)
BOOKS = (
    "The Midnight Library", "Laskar Pelangi", "Bumi Manusia", "Project Hail Mary", "Atomic Habits",
    "Sapiens", "Cantik Itu Luka", "Pulang", "Dune", "The Remains of the Day", "Norwegian Wood",
    "Klara and the Sun", "Educated", "Thinking, Fast and Slow", "Gadis Pantai", "Ronggeng Dukuh Paruk",
    "The Overstory", "Circe", "Pachinko", "A Gentleman in Moscow", "The Silent Patient",
    "Deep Work", "Negeri 5 Menara", "Lelaki Harimau", "Station Eleven", "The Hobbit",
    "Tomorrow, and Tomorrow, and Tomorrow", "The Body Keeps the Score", "Amba", "Hujan",
)
AUTHORS = (
    "Pramoedya Ananta Toer", "Eka Kurniawan", "Dee Lestari", "Leila S. Chudori", "Andrea Hirata",
    "Haruki Murakami", "Kazuo Ishiguro", "Ursula K. Le Guin", "Sally Rooney", "Andy Weir",
    "Tere Liye", "Ahmad Tohari", "Ted Chiang", "Min Jin Lee", "Madeline Miller", "Laksmi Pamuntjak",
    "Emily St. John Mandel", "Richard Powers", "Zadie Smith", "Ayu Utami",
)
MOVIES = (
    "Oppenheimer", "Pengabdi Setan 2", "Dune: Part Two", "Inside Out 2", "Agak Laen", "Perfect Days",
    "Past Lives", "Anatomy of a Fall", "Poor Things", "The Holdovers", "Furiosa", "Wicked",
    "Conclave", "The Wild Robot", "Flow", "Nosferatu", "Sinners", "Mickey 17", "Jumbo",
    "Siksa Kubur", "Ngeri-Ngeri Sedap", "Kang Mak", "The Brutalist", "Anora", "Thunderbolts",
    "Sore: Istri dari Masa Depan", "Weapons", "F1",
)
SHOWS = (
    "Gadis Kretek", "Severance", "The Bear", "Shogun", "Squid Game", "Arcane", "The Last of Us",
    "Slow Horses", "Andor", "Fleabag", "Succession", "Cigarette Girl", "Reply 1988",
    "Moving", "When Life Gives You Tangerines", "The Crown", "Abbott Elementary", "Dark",
)
BANDS = (
    "Sheila on 7", "Dewa 19", "Tulus", "Hindia", "Coldplay", "Radiohead", "Nadin Amizah", ".Feast",
    "Arctic Monkeys", "Noah", "Payung Teduh", "Efek Rumah Kaca", "Raisa", "Lomba Sihir",
    "The Beatles", "Fourtwnty", "Dream Theater", "Bernadya", "Padi Reborn", "Slank",
)
CLUBS = ("Persib", "Persija", "Arsenal", "Liverpool", "Real Madrid", "Bali United", "Barcelona",
         "Manchester United", "PSM Makassar", "Juventus", "Persebaya", "Borussia Dortmund")
PETS = ("Mochi", "Kopi", "Milo", "Luna", "Oyen", "Simba", "Bubu", "Kiko", "Pepper", "Biscuit",
        "Tofu", "Nala", "Boba", "Cimol", "Gembul", "Snow")
HOSPITALS = (
    "RS Borromeus", "RS Pondok Indah", "RS Siloam", "RSCM", "RS Hermina", "RS Santosa",
    "RS Advent", "RS Mitra Keluarga", "RS Premier Bintaro", "RS Hasan Sadikin", "RS Mayapada",
)
MALLS = (
    "Grand Indonesia", "Paris Van Java", "Kota Kasablanka", "Pakuwon Mall", "Senayan City",
    "Trans Studio Mall", "Cihampelas Walk", "Mall Kelapa Gading", "Pondok Indah Mall", "23 Paskal",
    "Summarecon Mall", "Gandaria City", "AEON Mall BSD", "Lippo Mall Puri",
)
RESTAURANTS = (
    "Sate Khas Senayan", "Bakmi GM", "Solaria", "Warung Nasi Ampera", "Sushi Tei", "Marugame Udon",
    "Kintan Buffet", "Nasi Kapau Juragan", "Iga Bakar Si Jangkung", "Pizza Marzano",
    "Din Tai Fung", "Holycow Steakhouse", "Mie Gacoan", "Warung Tekko", "Bebek Kaleyo",
    "Sop Konro Karebosi", "Kopi Tuku", "Bakso Boedjangan", "Gyu-Kaku", "Ayam Goreng Suharti",
)
COMPANIES = (
    "Gojek", "Tokopedia", "Traveloka", "Bank Mandiri", "Telkom", "Unilever", "Astra", "Xendit",
    "Bukalapak", "Kalbe", "Pertamina", "BCA", "Indomaret", "Halodoc", "Ruangguru", "eFishery",
    "Sinar Mas", "Blibli", "Shopee", "Grab",
)
BANKS = ("BCA", "Mandiri", "BNI", "BRI", "Jenius", "CIMB Niaga", "Bank Jago", "Permata", "BSI")
COLORS = ("red", "navy blue", "grey", "white", "black", "olive green", "mustard yellow", "silver",
          "maroon", "teal", "beige", "orange")
COLORS_ID = ("merah", "biru dongker", "abu-abu", "putih", "hitam", "hijau army", "kuning", "silver",
             "marun", "hijau tosca", "krem", "oranye")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
WEEKDAYS_ID = ("Senin", "Selasa", "Rabu", "Kamis", "Jumat", "Sabtu", "Minggu")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")
MONTHS_ID = ("Januari", "Februari", "Maret", "April", "Mei", "Juni", "Juli", "Agustus",
             "September", "Oktober", "November", "Desember")
SPORTS = ("badminton", "futsal", "swimming", "cycling", "tennis", "basketball", "bouldering",
          "yoga", "running", "table tennis", "padel", "pilates", "volleyball")
SPORTS_ID = ("bulu tangkis", "futsal", "renang", "sepeda", "tenis", "basket", "panjat tebing",
             "yoga", "lari", "tenis meja", "padel", "voli", "senam")
INSTRUMENTS = ("guitar", "piano", "violin", "drums", "ukulele", "cello", "saxophone", "kendang")
PLANTS = ("monstera", "chili plants", "basil", "orchids", "aloe vera", "snake plant", "tomatoes",
          "bougainvillea", "lemongrass", "pothos", "fiddle leaf fig", "mint", "frangipani")
PLANTS_ID = ("monstera", "cabai", "kemangi", "anggrek", "lidah buaya", "lidah mertua", "tomat",
             "bugenvil", "serai", "sirih gading", "mint", "kamboja", "jeruk nipis")
CHORES = ("the laundry", "watering the plants", "taking out the recycling", "the grocery run",
          "paying the electricity bill", "cleaning the aircon filter", "changing the bedsheets",
          "topping up the e-money card", "feeding the fish", "the weekly meal prep")
CHORES_ID = ("cuci baju", "siram tanaman", "buang sampah", "belanja bulanan", "bayar listrik",
             "bersihin filter AC", "ganti sprei", "isi saldo e-money", "kasih makan ikan", "masak buat seminggu")
DRINKS = ("iced tea", "matcha latte", "kopi susu", "jasmine tea", "sparkling water", "teh tarik",
          "oat latte", "es jeruk", "ginger tea", "cold brew")
SUBJECTS = ("maths", "science", "English", "history", "geography", "art", "Bahasa Indonesia",
            "physics", "biology", "coding club")
SUBJECTS_ID = ("matematika", "IPA", "bahasa Inggris", "sejarah", "IPS", "seni budaya",
               "bahasa Indonesia", "fisika", "biologi", "PKn")
TEAM_WORDS = ("payments", "platform", "data", "mobile", "search", "growth", "infrastructure",
              "checkout", "logistics", "risk")
LANGS = ("Japanese", "Korean", "Spanish", "German", "Mandarin", "French", "Dutch", "Arabic",
         "Javanese", "Sundanese")
LANGS_ID = ("Jepang", "Korea", "Spanyol", "Jerman", "Mandarin", "Prancis", "Belanda", "Arab", "Jawa",
            "Sunda")
CARS = ("Toyota Avanza", "Honda Brio", "Suzuki Ertiga", "Mitsubishi Xpander", "Toyota Innova",
        "Daihatsu Terios", "Hyundai Creta", "Wuling Air EV", "Honda HR-V", "Toyota Raize")
MOUNTAINS = ("Mount Papandayan", "Mount Gede", "Mount Prau", "Tangkuban Perahu", "Mount Batur",
             "Mount Merbabu", "Mount Andong", "Mount Pangrango", "Mount Lawu", "Kawah Ijen")
GYMS = ("Celebrity Fitness", "Fitness First", "Gold's Gym", "FTL Gym", "Anytime Fitness",
        "Fit Hub", "Urban Athletes", "Atlas Sports Club")
SCHOOLS = ("Al-Azhar", "Tunas Muda", "Santa Ursula", "Labschool", "Cikal", "Global Sevilla",
           "Taruna Bakti", "Mutiara Bunda", "Darul Hikam", "Penabur")
MARKETS = ("Pasar Baru", "Pasar Kosambi", "Pasar Santa", "Pasar Minggu", "Pasar Gede",
           "Pasar Beringharjo", "Pasar Tanah Abang", "Pasar Cihapit", "Pasar Mayestik")
UNIVERSITIES = ("ITB", "UI", "UGM", "ITS", "Unpad", "Binus", "Undip", "Unair", "Telkom University",
                "Universitas Brawijaya")
LOMBA = ("panjat pinang", "balap karung", "makan kerupuk", "tarik tambang", "bawa kelereng",
         "lari bakiak", "joged balon", "masukin paku ke botol")
PRICES = tuple(f"{n}k" for n in range(45, 1000, 35)) + tuple(f"{n / 10:.1f} million" for n in range(11, 90, 6))
PRICES_ID = tuple(f"{n} ribu" for n in range(35, 1000, 45)) + tuple(f"{n / 10:.1f} juta" for n in range(11, 90, 6))
HOURS = ("6", "7", "8", "9", "10", "11", "12", "1", "2", "3", "4", "5")
SMALL_NUMBERS = tuple(str(n) for n in range(2, 13))
YEARS = ("2015", "2016", "2017", "2018", "2019", "2020", "2021", "2022", "2023")
DAYS = tuple(str(n) for n in range(1, 29))
STYLES = ("short", "step-by-step", "bullet-point", "detailed", "casual", "formal", "code-first")
TOPIC_WORDS = ("money", "cooking", "Python", "travel plans", "the kids' homework", "health",
               "the car", "taxes", "home repairs", "gardening", "fitness", "SQL", "investing")

SHOE_SIZES = ("40", "41", "42", "43", "44", "45")
LAPTOPS = ("ThinkPad X1 Carbon", "MacBook Pro 14", "Dell XPS 13", "ASUS Zenbook 14", "Framework 13",
           "HP EliteBook 840", "Lenovo Yoga Slim 7")
FUTURE_YEARS = ("2027", "2028", "2029", "2030", "2031")
EDITORS = ("VS Code", "Neovim", "PyCharm", "Zed", "Sublime Text", "Emacs", "Helix")
CARRIERS = ("Telkomsel", "Indosat", "XL", "Smartfren", "Tri", "by.U")
PHONES = ("Samsung Galaxy S23", "Pixel 8", "Xiaomi 13T", "OPPO Reno 10", "Samsung Galaxy A54", "vivo V29")
PROJECTS = ("Falcon", "Nimbus", "Orca", "Atlas", "Kenari", "Merapi", "Bluebird", "Cendana", "Tidewater")
TITLES = ("The Salt Road", "Rumah di Ujung Hujan", "A Map of Small Rivers", "Laut yang Diam",
          "The Lantern Keepers", "Kota Tanpa Bayangan", "Glass Orchard", "Musim Kemarau Panjang")
GROCERS = ("Superindo", "Ranch Market", "Hero", "Lotte Mart", "Sayurbox", "Astronauts", "Transmart",
           "Yogya", "Farmers Market")
INSURERS = ("Asuransi Astra", "Allianz", "Zurich", "Sinar Mas Insurance", "ACA", "Tugu Insurance")
VENUES = ("Istora Senayan", "JIExpo Kemayoran", "Sasana Budaya Ganesha", "Stadion GBK",
          "Tennis Indoor Senayan", "Beach City International Stadium")
BARBERS = ("Captain Barbershop", "Bexley Barbershop", "Pangkas Rambut Asgar", "Goodfellas Barber",
           "Chief Barber", "Barberman")
MARTABAK = ("Martabak Pecenongan 65", "Martabak Orins", "Martabak San Francisco",
            "Martabak Bangka Djuragan", "Martabak Alim", "Martabak Boss")
MOSQUES = ("Masjid Al-Ikhlas", "Masjid Raya", "Masjid Nurul Iman", "Masjid Baiturrahman",
           "Masjid Al-Falah", "Masjid Salman")
MINUS = ("1,5", "1,75", "2", "2,5", "3", "3,25")

POOLS: dict[str, tuple[str, ...]] = {
    "name": NAMES, "name_id": NAMES[: NAMES.index("Emma")],
    "fname": tuple(n for n in NAMES if n in FEMALE), "mname": tuple(n for n in NAMES if n not in FEMALE),
    "fname_id": tuple(n for n in NAMES[: NAMES.index("Emma")] if n in FEMALE),
    "mname_id": tuple(n for n in NAMES[: NAMES.index("Emma")] if n not in FEMALE), "city": CITIES,
    "city_id": CITIES[: CITIES.index("Singapore")], "icity": CITIES[: CITIES.index("Singapore")],
    "street": STREETS, "area": AREAS, "place": PLACES,
    "dish": DISHES, "dish_id": DISHES_ID, "ingredient": INGREDIENTS, "ingredient_id": INGREDIENTS_ID,
    "lang": PROG_LANGS, "tool": TOOLS, "error": ERRORS, "symptom": SYMPTOMS, "symptom_id": SYMPTOMS_ID,
    "relative": RELATIVES, "relative_id": RELATIVES_ID, "product": PRODUCTS, "product_id": PRODUCTS_ID,
    "store": STORES, "book": BOOKS, "author": AUTHORS, "movie": MOVIES, "show": SHOWS, "band": BANDS,
    "club": CLUBS, "pet": PETS, "hospital": HOSPITALS, "mall": MALLS, "restaurant": RESTAURANTS,
    "company": COMPANIES, "bank": BANKS, "color": COLORS, "color_id": COLORS_ID, "weekday": WEEKDAYS,
    "weekday_id": WEEKDAYS_ID, "month": MONTHS, "month_id": MONTHS_ID, "sport": SPORTS,
    "sport_id": SPORTS_ID, "instrument": INSTRUMENTS, "plant": PLANTS, "plant_id": PLANTS_ID,
    "chore": CHORES, "chore_id": CHORES_ID, "drink": DRINKS, "subject": SUBJECTS, "subject_id": SUBJECTS_ID,
    "team": TEAM_WORDS, "language": LANGS, "language_id": LANGS_ID, "car": CARS, "mountain": MOUNTAINS, "gym": GYMS,
    "school": SCHOOLS, "market": MARKETS, "univ": UNIVERSITIES, "lomba": LOMBA, "price": PRICES,
    "price_id": PRICES_ID, "hour": HOURS, "n": SMALL_NUMBERS, "year": YEARS, "day": DAYS,
    "style": STYLES, "topicword": TOPIC_WORDS, "shoe": SHOE_SIZES, "laptop": LAPTOPS,
    "fyear": FUTURE_YEARS, "editor": EDITORS, "carrier": CARRIERS, "phone": PHONES,
    "project": PROJECTS, "title": TITLES, "grocer": GROCERS, "insurer": INSURERS, "venue": VENUES,
    "barber": BARBERS, "martabak": MARTABAK, "mosque": MOSQUES, "minus": MINUS,
}


_SAME_VALUES = {"fname": "name", "mname": "name", "icity": "city"}


def canonical(key: str) -> str:
    """The pool family of a slot: {fname3} and {name} draw from the same people."""
    base = key.rstrip("0123456789")
    return _SAME_VALUES.get(base, base)


class Slots(dict):
    """Values for one template (or one exchange): each slot drawn once, on first use."""

    def __init__(self, rng: random.Random, lang: str, avoid: dict[str, set[str]] | None = None,
                 **fixed: str) -> None:
        super().__init__(fixed)
        self.rng = rng
        self.lang = lang
        self.avoid = avoid or {}

    def __missing__(self, key: str) -> str:
        base = key.rstrip("0123456789")
        pool = POOLS.get(f"{base}_id") if self.lang == "id" else None
        pool = pool or POOLS[base]
        taken = set(self.values()) | self.avoid.get(canonical(key), set())
        choices = [v for v in pool if v not in taken] or list(pool)
        value = self.rng.choice(choices)
        self[key] = value
        return value


def fill(template: str, slots: Slots) -> str:
    return template.format_map(slots)
