"""Labelled corpus for secret redaction, generated (seeded) at test time.

Positives: fake credentials in the right format and length for each provider,
embedded in realistic contexts (.env, YAML, JSON, shell history, curl, logs,
Python, chat prose in English and Indonesian). Negatives: look-alikes that
must survive (git SHAs, UUIDs, checksums, public keys and addresses,
placeholders, prose about passwords, code that names secrets).

Nothing here is a real credential: every value comes from `random.Random`.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
import uuid
from dataclasses import dataclass, field

from agenttui.security.crypto_keys import bip39_checksum_ok, bip39_list, bip39_words

ALNUM = string.ascii_letters + string.digits
URLSAFE = ALNUM + "-_"
B64 = ALNUM + "+/"
HEX = "0123456789abcdef"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


@dataclass(frozen=True)
class Sample:
    text: str
    kind: str  # provider/kind for positives; "negative:<what>" for negatives
    secrets: tuple[str, ...] = field(default=())  # substrings that must vanish

    @property
    def positive(self) -> bool:
        return bool(self.secrets)


class Gen:
    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)

    def s(self, alphabet: str, n: int) -> str:
        return "".join(self.r.choice(alphabet) for _ in range(n))

    def digits(self, n: int) -> str:
        return str(self.r.randint(1, 9)) + self.s(string.digits, n - 1)

    def b64url(self, nbytes: int) -> str:
        return base64.urlsafe_b64encode(self.r.randbytes(nbytes)).decode().rstrip("=")

    def password(self) -> str:
        word = self.r.choice(["Summer", "kopi", "Jakarta", "dragon", "Monkey", "sunrise", "Garuda", "tiger"])
        return word + self.digits(self.r.randint(2, 5)) + self.r.choice("!@#$%&*?") + self.s(ALNUM, self.r.randint(2, 6))

    def choice(self, seq):
        return self.r.choice(seq)


def base58check(payload: bytes) -> str:
    data = payload + hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    n = int.from_bytes(data, "big")
    out = ""
    while n:
        n, rem = divmod(n, 58)
        out = B58[rem] + out
    return "1" * (len(data) - len(data.lstrip(b"\0"))) + out


# --- secret makers: name -> (kind, maker(gen) -> secret) ------------------------


def _jwt(g: Gen) -> str:
    def enc(obj) -> str:
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")

    head = enc({"alg": "HS256", "typ": "JWT"})
    body = enc({"sub": g.digits(8), "name": g.choice(["budi", "alice", "sari"]), "iat": int(g.digits(10))})
    return f"{head}.{body}.{g.b64url(32)}"


def _pem(g: Gen, label: str) -> str:
    lines = [g.s(B64, 64) for _ in range(g.r.randint(6, 14))] + [g.s(B64, 40) + "=="]
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"


def _discord(g: Gen) -> str:
    uid = base64.b64encode(g.digits(18).encode()).decode().rstrip("=")
    return f"{uid}.{g.s(URLSAFE, 6)}.{g.s(URLSAFE, g.choice([27, 38]))}"


def _wif(g: Gen) -> str:
    key = g.r.randbytes(32)
    payload = b"\x80" + key + (b"\x01" if g.r.random() < 0.5 else b"")
    return base58check(payload)


def mnemonic(entropy: bytes) -> str:
    """BIP39 mnemonic of `entropy` (16–32 bytes), as the BIP39 reference makes it."""
    cs = len(entropy) * 8 // 32
    bits = int.from_bytes(entropy, "big") << cs | hashlib.sha256(entropy).digest()[0] >> (8 - cs)
    n = (len(entropy) * 8 + cs) // 11
    words = bip39_list()
    return " ".join(words[(bits >> (11 * (n - 1 - i))) & 2047] for i in range(n))


def complete_mnemonic(first: list[str], last_choices: list[str] | None = None) -> list[str]:
    """`first` (11, 14, … words) plus a last word that makes the checksum valid."""
    for w in last_choices or bip39_list():
        if bip39_checksum_ok([*first, w]):
            return [*first, w]
    raise ValueError("no last word fits")


def _seed(g: Gen) -> str:
    return mnemonic(g.r.randbytes(g.choice([16, 16, 32])))


def _sas(g: Gen) -> str:
    sig = base64.b64encode(g.r.randbytes(32)).decode().replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    return sig


PROVIDERS: dict[str, tuple[str, object]] = {
    "openai_proj": ("openai_key", lambda g: "sk-proj-" + g.s(URLSAFE, g.r.randint(100, 156))),
    "openai_legacy": ("openai_key", lambda g: "sk-" + g.s(ALNUM, 20) + "T3BlbkFJ" + g.s(ALNUM, 20)),
    "openai_svcacct": ("openai_key", lambda g: "sk-svcacct-" + g.s(URLSAFE, 120)),
    "openai_admin": ("openai_key", lambda g: "sk-admin-" + g.s(URLSAFE, 120)),
    "anthropic": ("anthropic_key", lambda g: "sk-ant-api03-" + g.s(URLSAFE, 93) + "AA"),
    "google_api": ("google_api_key", lambda g: "AIza" + g.s(URLSAFE, 35)),
    "google_oauth": ("google_oauth_secret", lambda g: "GOCSPX-" + g.s(URLSAFE, 28)),
    "aws_akia": ("aws_access_key_id", lambda g: "AKIA" + g.s(string.ascii_uppercase + "234567", 16)),
    "aws_asia": ("aws_access_key_id", lambda g: "ASIA" + g.s(string.ascii_uppercase + "234567", 16)),
    "github_ghp": ("github_token", lambda g: "ghp_" + g.s(ALNUM, 36)),
    "github_gho": ("github_token", lambda g: "gho_" + g.s(ALNUM, 36)),
    "github_ghu": ("github_token", lambda g: "ghu_" + g.s(ALNUM, 36)),
    "github_ghs": ("github_token", lambda g: "ghs_" + g.s(ALNUM, 36)),
    "github_ghr": ("github_token", lambda g: "ghr_" + g.s(ALNUM, 36)),
    "github_pat": ("github_token", lambda g: "github_pat_11" + g.s(ALNUM, 20) + "_" + g.s(ALNUM, 59)),
    "gitlab_pat": ("gitlab_token", lambda g: "glpat-" + g.s(URLSAFE, 20)),
    "gitlab_deploy": ("gitlab_token", lambda g: "gldt-" + g.s(URLSAFE, 20)),
    "slack_bot": ("slack_token", lambda g: f"xoxb-{g.digits(11)}-{g.digits(13)}-{g.s(ALNUM, 24)}"),
    "slack_user": ("slack_token", lambda g: f"xoxp-{g.digits(11)}-{g.digits(11)}-{g.digits(13)}-{g.s(HEX, 32)}"),
    "slack_app_legacy": ("slack_token", lambda g: f"xoxa-2-{g.digits(11)}-{g.digits(12)}-{g.s(HEX, 32)}"),
    "slack_refresh": ("slack_token", lambda g: f"xoxr-{g.digits(11)}-{g.s(ALNUM, 40)}"),
    "slack_xapp": ("slack_token", lambda g: f"xapp-1-A{g.s(string.ascii_uppercase + string.digits, 10)}-{g.digits(13)}-{g.s(HEX, 64)}"),
    "slack_webhook": ("slack_webhook", lambda g: f"https://hooks.slack.com/services/T{g.s(string.ascii_uppercase + string.digits, 8)}/B{g.s(string.ascii_uppercase + string.digits, 10)}/{g.s(ALNUM, 24)}"),
    "stripe_live": ("stripe_key", lambda g: "sk_live_" + g.s(ALNUM, g.r.randint(24, 99))),
    "stripe_restricted": ("stripe_key", lambda g: "rk_live_" + g.s(ALNUM, 24)),
    "stripe_test": ("stripe_key", lambda g: "sk_test_" + g.s(ALNUM, 24)),
    "twilio_sk": ("twilio_api_key", lambda g: "SK" + g.s(HEX, 32)),
    "sendgrid": ("sendgrid_key", lambda g: f"SG.{g.s(URLSAFE, 22)}.{g.s(URLSAFE, 43)}"),
    "discord_bot": ("discord_token", _discord),
    "discord_webhook": ("discord_webhook", lambda g: f"https://discord.com/api/webhooks/{g.digits(18)}/{g.s(URLSAFE, 68)}"),
    "telegram": ("telegram_bot_token", lambda g: f"{g.digits(g.choice([9, 10]))}:AA{g.s(URLSAFE, 33)}"),
    "huggingface": ("huggingface_token", lambda g: "hf_" + g.s(ALNUM, 34)),
    "npm": ("npm_token", lambda g: "npm_" + g.s(ALNUM, 36)),
    "pypi": ("pypi_token", lambda g: "pypi-AgEIcHlwaS5vcmc" + g.s(URLSAFE, 150)),
    "dockerhub": ("dockerhub_token", lambda g: "dckr_pat_" + g.s(URLSAFE, 27)),
    "digitalocean_pat": ("digitalocean_token", lambda g: "dop_v1_" + g.s(HEX, 64)),
    "digitalocean_oauth": ("digitalocean_token", lambda g: "doo_v1_" + g.s(HEX, 64)),
    "jwt": ("jwt", _jwt),
    "wif": ("wif_private_key", _wif),
}

# Contexts where a self-identifying token is pasted. {s} = the secret.
TOKEN_CONTEXTS = (
    "export {VAR}={s}",
    "# .env\nDEBUG=false\n{VAR}={s}\nPORT=8080",
    "services:\n  api:\n    environment:\n      {VAR}: \"{s}\"\n",
    '{{"name": "bot", "credentials": {{"value": "{s}"}}, "enabled": true}}',
    "$ curl -s https://api.example.com/v1/items -H 'X-Trace: 1' -d key={s}",
    "2024-05-01T12:00:03Z ERROR auth failed for credential {s} (status=401)",
    'client = Client(\n    credential="{s}",\n    timeout=30,\n)',
    "hey, here's the thing I use: {s} — why does it fail?",
    "ini yang gue pake {s}, tolong cek kenapa error ya",
    "```\n{s}\n```\nudah gue rotate kok",
    "{s}",
    "Logs show `{s}` in the request headers.",
)


def _provider_samples(g: Gen) -> list[Sample]:
    out = []
    for name, (kind, make) in PROVIDERS.items():
        for ctx in TOKEN_CONTEXTS:
            secret = make(g)
            text = ctx.format(s=secret, VAR=name.upper() + "_TOKEN")
            out.append(Sample(text, kind, (secret,)))
    return out


def _context_samples(g: Gen) -> list[Sample]:
    out: list[Sample] = []
    add = lambda text, kind, *secrets: out.append(Sample(text, kind, tuple(secrets)))  # noqa: E731
    for _ in range(6):
        # AWS secret key (only identifiable by its key name)
        sk = g.s(B64, 40)
        akid = "AKIA" + g.s(string.ascii_uppercase + "234567", 16)
        add(f"[default]\naws_access_key_id = {akid}\naws_secret_access_key = {sk}\nregion = ap-southeast-1", "aws_secret_key", akid, sk)
        add(f"export AWS_SECRET_ACCESS_KEY={sk}", "aws_secret_key", sk)
        # Azure
        ak = base64.b64encode(g.r.randbytes(64)).decode()
        add(f"DefaultEndpointsProtocol=https;AccountName=stor{g.s(HEX, 6)};AccountKey={ak};EndpointSuffix=core.windows.net", "azure_storage_key", ak)
        sig = _sas(g)
        add(f"https://acct.blob.core.windows.net/backups/db.bak?sv=2022-11-02&ss=b&srt=o&sp=r&se=2025-06-01T00:00:00Z&sig={sig}", "azure_sas_signature", sig)
        # Twilio account SID + auth token
        sid, tok = "AC" + g.s(HEX, 32), g.s(HEX, 32)
        add(f"curl -X POST https://api.twilio.com/2010-04-01/Accounts/{sid}/Messages.json -u {sid}:{tok}", "twilio_auth_token", tok)
        add(f"TWILIO_ACCOUNT_SID={sid}\nTWILIO_AUTH_TOKEN={tok}", "twilio_auth_token", tok)
        # Private key blocks (whole block)
        for label in ("RSA PRIVATE KEY", "OPENSSH PRIVATE KEY", "EC PRIVATE KEY", "PRIVATE KEY", "PGP PRIVATE KEY BLOCK", "ENCRYPTED PRIVATE KEY"):
            block = _pem(g, label)
            body_line = block.split("\n")[2]
            add(f"here is the key:\n{block}\nthanks", "private_key", body_line, block.split("\n")[-2])
        block = _pem(g, "PRIVATE KEY")
        esc = block.replace("\n", "\\n")
        add(json.dumps({"type": "service_account", "private_key": block, "client_email": "svc@proj.iam.gserviceaccount.com"}), "private_key", esc.split("\\n")[3])
        # Crypto
        hexkey = g.s(HEX, 64)
        add(f"PRIVATE_KEY=0x{hexkey}", "crypto_private_key", hexkey)
        add(f"my wallet private key is {hexkey}, jangan disebar ya", "crypto_private_key", hexkey)
        add(f'{{"privateKey": "0x{hexkey}"}}', "crypto_private_key", hexkey)
        seed = _seed(g)
        add(f"seed phrase gue: {seed}", "seed_phrase", seed)
        add(f"Recovery words:\n{seed.replace(' ', chr(10))}", "seed_phrase", seed)
        add(f'MNEMONIC="{seed}"', "seed_phrase", seed)
        # URL credentials
        pw = g.password()
        for url in (
            f"postgres://app:{pw}@db.internal:5432/prod",
            f"mysql://root:{pw}@127.0.0.1/shop",
            f"redis://default:{pw}@cache:6379/0",
            f"amqp://guest:{pw}@rabbit//",
            f"https://deploy:{pw}@git.example.com/org/repo.git",
        ):
            add(f"DATABASE_URL={url}" if "postgres" in url else f"connecting to {url} ...", "url_password", pw)
        # Assignments
        pw = g.password()
        add(f"DB_PASSWORD={pw}", "password", pw)
        add(f'password = "{pw}"', "password", pw)
        add(f"database:\n  host: db\n  user: admin\n  password: {pw}\n", "password", pw)
        add(f'{{"username": "admin", "password": "{pw}"}}', "password", pw)
        add(f"[mysql]\nuser = root\npasswd = {pw}\n", "password", pw)
        cs = g.s(URLSAFE, 32)
        add(f'[auth]\nclient_secret = "{cs}"\n', "secret", cs)
        tok = g.s(ALNUM, 40)
        add(f"api_key: {tok}", "api_key", tok)
        add(f"settings = {{'api_key': '{tok}', 'debug': True}}", "api_key", tok)
        add(f"ACCESS_TOKEN={tok}", "token", tok)
        dj = g.s(URLSAFE, 50)
        add(f"SECRET_KEY = '{dj}'", "secret", dj)
        add(f"mysql -u root --password={pw} shop", "password", pw)
        add(f"gh auth login --token {tok}", "token", tok)
        # Headers
        bt = g.s(URLSAFE, 40)
        add(f'curl -H "Authorization: Bearer {bt}" https://api.example.com/v1/me', "auth_header", bt)
        basic = base64.b64encode(f"admin:{pw}".encode()).decode()
        add(f"Authorization: Basic {basic}", "auth_header", basic)
        t40 = g.s(HEX, 40)
        add(f"Authorization: Token {t40}", "auth_header", t40)
        c1, c2 = g.s(ALNUM, 32), g.s(ALNUM, 32)
        add(f"GET / HTTP/1.1\nHost: example.com\nCookie: sessionid={c1}; csrftoken={c2}\n", "cookie", c1, c2)
        add(f"Set-Cookie: session={c1}; Path=/; HttpOnly; Secure", "cookie", c1)
        add(f"x-api-key: {tok}", "api_key", tok)
        # High entropy in secret-ish context
        ek = base64.b64encode(g.r.randbytes(32)).decode()
        add(f'ENCRYPTION_KEY="{ek}"', "high_entropy", ek)
        add(f"signing_key: {ek}", "high_entropy", ek)
        sk2 = g.s(ALNUM, 40)
        add(f"SESSION_KEY={sk2}", "high_entropy", sk2)
        # Chat prose
        pw = g.password()
        add(f"my password is {pw} btw, don't save it", "password", pw)
        add(f"password wifi kantor: {pw}", "password", pw)
        add(f"passwordnya: {pw}", "password", pw)
        add(f"password gue adalah {pw}, tolong jangan disimpan", "password", pw)
        add(f"kata sandi: {pw}", "password", pw)
    return out


# --- negatives -------------------------------------------------------------


def _negative_samples(g: Gen) -> list[Sample]:
    out: list[Sample] = []
    add = lambda text, what: out.append(Sample(text, "negative:" + what))  # noqa: E731
    words = sorted(bip39_words())
    for _ in range(8):
        sha = g.s(HEX, 40)
        add(f"commit {sha}\nAuthor: Budi <budi@example.com>\n\n    fix parser", "git sha")
        add(f"git checkout {sha[:7]} && git cherry-pick {sha}", "git sha")
        add(f"Merge pull request #{g.digits(3)} from org/feature ({sha})", "git sha")
        h64 = g.s(HEX, 64)
        add(f"sha256: {h64}", "checksum")
        add(f"{h64}  agenttui-0.1.0.tar.gz", "checksum")
        add(f"image: ghcr.io/org/app@sha256:{h64}", "checksum")
        add(f"Transaction hash 0x{h64} confirmed in block {g.digits(8)}", "tx hash")
        add(f'"integrity": "sha512-{base64.b64encode(g.r.randbytes(64)).decode()}"', "checksum")
        u = str(uuid.UUID(bytes=g.r.randbytes(16), version=4))
        add(f"request_id={u} status=200 duration=12ms", "uuid")
        add(f'{{"id": "{u}", "type": "note"}}', "uuid")
        add(f"trace {u} span {g.s(HEX, 16)}", "uuid")
        add(f"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{g.s(B64, 300)} budi@laptop", "ssh public key")
        add(f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{g.s(B64, 43)} sari@desktop", "ssh public key")
        add(_pem(g, "PUBLIC KEY"), "pem public key")
        add(_pem(g, "CERTIFICATE"), "certificate")
        add(_pem(g, "PGP PUBLIC KEY BLOCK"), "pgp public key")
        add(f"send ETH to 0x{g.s(HEX + 'ABCDEF', 40)} please", "eth address")
        add(f"BTC: bc1q{g.s('qpzry9x8gf2tvdw0s3jn54khce6mua7l', 38)}", "bech32 address")
        add(f"legacy address {base58check(bytes([0]) + g.r.randbytes(20))}", "p2pkh address")
        add(f"multisig {base58check(bytes([5]) + g.r.randbytes(20))}", "p2sh address")
        add(f"xpub{g.s(B58, 107)}", "xpub")
        # BIP39 words, but fewer than 12 in a row / in prose
        add("I " + " ".join(g.choice(words) for _ in range(6)) + " and then " + " ".join(g.choice(words) for _ in range(5)), "bip39 words in prose")
    placeholders = [
        "OPENAI_API_KEY=YOUR_API_KEY", "api_key: <token>", "password=xxx", "password: ***",
        "PASSWORD=changeme", "Set OPENAI_API_KEY to sk-... in your shell", "token=${API_TOKEN}",
        "export GITHUB_TOKEN=$GITHUB_TOKEN", "password: {{ vault_db_password }}",
        "api_key = os.environ['OPENAI_API_KEY']", "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
        "api_key='...'", "SECRET_KEY=<your-secret-key>", "token: your_token_here",
        "password: %DB_PASSWORD%", "DATABASE_URL=postgres://user:password@localhost/db",
        "redis://:${REDIS_PASSWORD}@cache:6379", "Authorization: Bearer <token>",
        "Authorization: Bearer $TOKEN", "sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "STRIPE_KEY=sk_live_...", "password = \"\"", "api_key: null", "token: ~",
        "password: [REDACTED:password]", "HF_TOKEN=hf_...", "client_secret: ${{ secrets.CLIENT_SECRET }}",
        "password=********", "API_KEY=replace-me", "--password <password>",
    ]
    for p in placeholders:
        add(p, "placeholder")
    prose = [
        "I forgot my password again", "lupa password email kantor", "Reset password: click the link below",
        "The password policy requires 12 characters and a symbol.", "Use a password manager like Bitwarden.",
        "passwords should be rotated every 90 days", "password-less login via magic link is enabled",
        "Kata sandi minimal 8 karakter ya", "User keeps their tokens in 1Password.", "The API key rotation is monthly.",
        "Bearer authentication is described in RFC 6750.", "Authorization header missing in request",
        "Secret Santa is on Friday", "The key insight: caching beats recomputing.", "token limit reached (max_tokens=4096)",
        "Session expired, please log in again", "cookie: chocolate chip is her favourite", "pin the note to the top",
        "Her password hint is the name of her first cat.", "gue ganti password tiap bulan",
        "We discussed key management and secret rotation at length.", "git push origin main --force-with-lease",
        "Monday Notes Overview and Other Things", "Meeting at 10:30, room B; bring laptop.",
        "ignore whitespace changes in diffs", "User's system is Arch Linux", "https://example.com:8443/path?x=1&y=2",
        "see http://localhost:3000/api/users/42", "email me at budi@example.com", "ssh budi@10.0.0.5 -p 2222",
        "The model returned 2,048 tokens in 3.2s", "key: value pairs are parsed by the loader",
        "sort by key = name, then by date", "primary_key=True, index=True", "Task-1234567890abcdefghijkl is done",
        "Using scikit-learn and sk-learn style APIs", "Password123 is a terrible password, said nobody",
    ]
    for p in prose:
        add(p, "prose")
    code = [
        "def login(user: str, password: str) -> bool:\n    return check(user, password)",
        "password = getpass.getpass()", "token = request.headers.get('Authorization')",
        "if password == confirm_password:\n    save()", "const token = await getToken();",
        "secret_name = 'prod-db-credentials'", "key = cache_key(user_id)", "items.sort(key=lambda x: x[1])",
        "for key, value in settings.items():", "max_tokens: 1024", "self.api_key = api_key",
        "api_key = settings.openai.api_key", "password=password,", "TOKEN_URL = 'https://oauth2.googleapis.com/token'",
        "token_type: bearer", "PASSWORD_MIN_LENGTH = 12", "secret = Secret(name)", "auth: true",
        "author = 'Budi Santoso'", "session_timeout: 3600", "keyboard_layout = 'us'",
        "hashed = bcrypt.hashpw(password.encode(), bcrypt.gensalt())", "jwt.decode(token, key, algorithms=['HS256'])",
        "export PATH=$HOME/.local/bin:$PATH", "docker run -e OPENAI_API_KEY -p 8080:80 app",
        "sha = hashlib.sha256(data).hexdigest()", "uuid = uuid4()", "tokens = tokenizer.encode(text)",
        "passwd_file: /etc/passwd", "password_file = '/run/secrets/db_password'",
    ]
    for c in code:
        add(c, "code")
    return out


def build_corpus(seed: int = 20240601) -> list[Sample]:
    g = Gen(seed)
    return _provider_samples(g) + _context_samples(g) + _negative_samples(g)
