"""Write tests/unit/security/data/source_derived_examples.json: secrets in the
formats public scanners' rule sources describe, with values generated here.

Each example names the rule it was written from: the plugin or rule, its
source file and the release or commit read. Only the rule sources were read
(the regexes and their comments): detect-secrets 1.5.0's
`detect_secrets/plugins/*.py` (Apache-2.0, Yelp) and secretlint's
`packages/@secretlint/secretlint-rule-*/src/index.ts` (MIT) at the commit
below. No example comes from either project's tests or fixtures; every value
is drawn from a seeded generator, so the examples are ours (MIT).

Every example has `text` (the line or block as it would sit in a file) and
`secret` (the part that must be redacted whole). `negatives` are ordinary
strings next to these formats that must be left alone.

Run: `.venv/bin/python scripts/make_source_derived_examples.py`
"""

from __future__ import annotations

import base64
import json
import random
import string
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests/unit/security/data/source_derived_examples.json"

DETECT_SECRETS = {
    "project": "detect-secrets (Yelp), Apache-2.0",
    "release": "1.5.0 (PyPI wheel sha256 e24e7b9b5a35048c313e983f76c4bd09dad89f045ff059e354f9943bf45aa060)",
    "read": "detect_secrets/plugins/*.py, detect_secrets/filters/*.py",
}
SECRETLINT = {
    "project": "secretlint (azu), MIT",
    "commit": "18346ba31b8173d52060b971221ab38c1943def0",
    "read": "packages/@secretlint/secretlint-rule-*/src/index.ts",
}

RNG = random.Random(20261128)
LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIGITS = string.digits
ALNUM = LOWER + UPPER + DIGITS
HEX = "0123456789abcdef"
URLSAFE = ALNUM + "_-"
B64 = ALNUM + "+/"


def r(n: int, alphabet: str = ALNUM) -> str:
    """A random value that uses several character classes when the alphabet has them."""
    while True:
        v = "".join(RNG.choice(alphabet) for _ in range(n))
        classes = sum(any(c in v for c in cls) for cls in (LOWER, UPPER, DIGITS))
        wanted = sum(any(c in alphabet for c in cls) for cls in (LOWER, UPPER, DIGITS))
        if classes >= min(wanted, 2) or n < 6:
            return v


EXAMPLES: list[dict[str, str]] = []


def ds(rule: str, file: str, family: str, text: str, secret: str) -> None:
    assert secret in text, (rule, text)
    EXAMPLES.append({"source": "detect-secrets", "rule": rule, "file": f"detect_secrets/plugins/{file}",
                     "family": family, "text": text, "secret": secret})


def sl(rule: str, family: str, text: str, secret: str) -> None:
    assert secret in text, (rule, text)
    EXAMPLES.append({"source": "secretlint", "rule": f"@secretlint/secretlint-rule-{rule}",
                     "file": f"packages/@secretlint/secretlint-rule-{rule}/src/index.ts",
                     "family": family, "text": text, "secret": secret})


def password() -> str:
    """A password as people write them: letters, digits and a sign or two."""
    return r(RNG.randint(8, 14)) + RNG.choice("!#%*_.-@") + r(3, DIGITS)


def hexv(n: int) -> str:
    return r(n, HEX)


# ---- detect-secrets: KeywordDetector (keyword.py) -------------------------
# Its keywords (api_?key, auth_?key, service_?key, account_?key, db_?key,
# database_?key, priv_?key, private_?key, client_?key, db_?pass,
# database_?pass, key_?pass, password, passwd, pwd, secret, contraseña,
# contrasena, with any suffix), in each assignment form its regexes name:
# `:=`, `:` (bare or quoted), `=`/`==`/`!=`/`===`, `"v" == name`, C/C# `= @"v"`
# and `name[] = "v"`, C++ `name("v")`/`name.assign("v")`, `name "v";`, `=> "v"`.
KW = "keyword.py"
for fmt in (
    'db_pass := "{v}"',
    "apiKey := {v}",
    'password = "{v}"',
    "password='{v}'",
    "DATABASE_PASSWORD={v}",
    'my_secret_value == "{v}"',
    'if (passwd != "{v}") {{',
    'if (token_secret === "{v}") return;',
    '"{v}" == user_password',
    "'{v}' !== db_pass",
    "secret: {v}",
    'api_key: "{v}"',
    "  private_key: '{v}'",
    "client_key: {v}",
    'NSString *password = @"{v}";',
    'string apiKey = @"{v}";',
    'char db_pass[32] = "{v}";',
    'const char password[] = "{v}";',
    'std::string secret("{v}");',
    'secret.assign("{v}", 17);',
    'private_key "{v}";',
    "'service_key' => '{v}',",
    '$auth_key => "{v}"',
    "contraseña: {v}",
    'contrasena = "{v}"',
    "pwd = `{v}`",
    "<password>{v}</password>",
    '<add key="DbPassword" value="{v}" />',
    'account_key = "{v}"',
    "key_pass: {v}",
    'db_key = "{v}"',
    'var databaseKey = "{v}";',
    "set PASSWORD={v}",
    "export DB_PASSWD='{v}'",
    'password: "{v}"  # prod',
    'String password = "{v}";',
    'let secret = "{v}";',
    'resource "x" {{ password = "{v}" }}',
    '"password": "{v}",',
    "spring.datasource.password={v}",
):
    v = password()
    ds("KeywordDetector", KW, "keyword assignment", fmt.format(v=v), v)

# Its value pattern takes "every character except line breaks and quotes":
# generated passwords full of signs, some holding `${`, `{{` or `$(` that open
# no template.
SIGNS = "!#$%&()*+,-./:;<=>?@[]^_{|}~"
for fmt in ('password = "{v}"', "secret: '{v}'", "db_pass := {v}", '"{v}" == admin_password', 'char pwd[] = "{v}";',
            "PASSWORD={v}", 'api_key => "{v}"', '"client_secret": "{v}",'):
    marker = RNG.choice(("${", "{{", "$("))
    v = r(6) + marker + "".join(RNG.choice(ALNUM + SIGNS) for _ in range(10)).replace("}", "]").replace(")", "]") + "}"
    v = v.replace(" ", "")
    if fmt.startswith("PASSWORD=") or fmt.startswith("db_pass"):
        v = v.replace(",", ".").replace(";", ".")
    ds("KeywordDetector", KW, "keyword symbol-rich value", fmt.format(v=v), v)

# ---- detect-secrets: HighEntropyString (high_entropy_strings.py) ----------
# Quoted strings: base64 alphabet at >= 4.5 bits, hex at >= 3.0 bits.
HE = "high_entropy_strings.py"
for fmt in ('key = "{v}"', "value: '{v}'", 'headers["X-Token"] = "{v}"', 'SIGNING = "{v}"',
            'client.init("{v}")', '{{"secret_value": "{v}"}}'):
    v = r(RNG.choice((32, 40, 44, 64)), B64)
    ds("Base64HighEntropyString", HE, "high-entropy base64", fmt.format(v=v), v)
for fmt in ('secret = "{v}"', "api_token: '{v}'", 'auth = "{v}"', 'TOKEN = "{v}"'):
    v = hexv(RNG.choice((32, 40, 64)))
    ds("HexHighEntropyString", HE, "high-entropy hex", fmt.format(v=v), v)

# ---- detect-secrets: provider plugins ----------------------------------
for fmt, v in (
    ("artifactory_token: {v}", "AKCp8" + r(68)),
    ('X-JFrog-Art-Api: {v}', "AKCp5" + r(68)),
    ('"apiKey": "{v}"', "AKCp2" + r(68)),
    ("curl -H 'X-JFrog-Art-Api:{v}' https://repo.example.com", "AKCp8" + r(68)),
    ("artifactory_password={v}", "AP" + RNG.choice("0123456789ABCDEF") + r(56)),
    ('password: "{v}"', "AP" + RNG.choice("0123456789ABCDEF") + r(56)),
    ("jfrog encrypted password {v}", "AP" + RNG.choice("0123456789ABCDEF") + r(56)),
):
    ds("ArtifactoryDetector", "artifactory.py", "artifactory", fmt.format(v=v), v)

for fmt in ('aws_access_key_id = "{v}"', "AWS_ACCESS_KEY_ID={v}", "key id {v} in the logs"):
    v = RNG.choice(("AKIA", "ASIA", "ABIA", "ACCA", "A3T" + RNG.choice(UPPER))) + r(16, UPPER + "234567")
    v = v[:20]
    ds("AWSKeyDetector", "aws.py", "aws", fmt.format(v=v), v)
for fmt in ('aws_secret_key = "{v}"', "aws.token = '{v}'", 'AWS_PASS: "{v}"'):
    v = r(40, B64)
    ds("AWSKeyDetector", "aws.py", "aws", fmt.format(v=v), v)

for fmt in ("DefaultEndpointsProtocol=https;AccountName=store;AccountKey={v};EndpointSuffix=core.windows.net",
            '"connection": "AccountName=logs;AccountKey={v}"'):
    v = r(86, B64) + "=="
    ds("AzureStorageKeyDetector", "azure_storage_key.py", "azure storage", fmt.format(v=v), v)

for fmt in ("https://deploy:{v}@git.example.com/repo.git", "ftp://backup:{v}@files.example.org/",
            "redis://default:{v}@cache.internal:6379/0", "amqp://guest:{v}@rabbit.example.com:5672//"):
    v = r(10) + RNG.choice("!$*") + r(4)
    ds("BasicAuthDetector", "basic_auth.py", "basic auth url", fmt.format(v=v), v)

CL = "cloudant.py"
for fmt, v in (
    ('cloudant_password = "{v}"', hexv(64)),
    ("cl_pwd: {v}", hexv(64)),
    ("clou-api-key = '{v}'", hexv(64)),
    ('cloudant_api_key: "{v}"', r(24, LOWER)),
    ("cl_key = {v}", r(24, LOWER)),
    ("https://acct-7:{v}@acct-7.cloudant.com", hexv(64)),
    ("http://myaccount:{v}@myaccount.cloudant.com/db", r(24, LOWER)),
):
    ds("CloudantDetector", CL, "cloudant", fmt.format(v=v), v)

for fmt in ('DISCORD_TOKEN = "{v}"', "bot.run('{v}')"):
    v = RNG.choice("MNO") + r(25, URLSAFE) + "." + r(6, URLSAFE) + "." + r(27, URLSAFE)
    ds("DiscordBotTokenDetector", "discord.py", "discord", fmt.format(v=v), v)

for prefix in ("ghp", "gho", "ghu", "ghs", "ghr"):
    v = f"{prefix}_" + r(36)
    ds("GitHubTokenDetector", "github_token.py", "github", f"git clone https://{v}@github.com/o/r.git", v)

GL = "gitlab_token.py"
for v in ("glpat-" + r(20, URLSAFE), "gldt-" + r(24, URLSAFE), "glft-" + r(20, URLSAFE), "glsoat-" + r(20, URLSAFE),
          "glrt-" + r(20, URLSAFE), "GR1348941" + r(20, URLSAFE), "glcbt-" + hexv(2) + "_" + r(20, URLSAFE),
          "glimt-" + r(25, URLSAFE), "glptt-" + r(40, URLSAFE), "glagent-" + r(50, URLSAFE),
          "gloas-" + r(64, URLSAFE)):
    ds("GitLabTokenDetector", GL, "gitlab", f'GITLAB_TOKEN: "{v}"', v)

IAM = "ibm_cloud_iam.py"
for fmt in ('ibm_cloud_iam_api_key = "{v}"', "IBM_CLOUD_API_KEY={v}", "iam_api_key: '{v}'", "ibm-iam-key := {v}",
            '"ibmcloud_password": "{v}"', "cloud_iam_pwd => {v}", "[ibm_api_key] = {v}", "ibm_token: {v}"):
    v = r(44, URLSAFE)
    ds("IbmCloudIamDetector", IAM, "ibm cloud iam", fmt.format(v=v), v)

COS = "ibm_cos_hmac.py"
for fmt in ('ibm_cos_hmac_secret_access_key = "{v}"', "cos_secret_key: {v}", "secret_access_key = '{v}'",
            "IBM_COS_SECRET_KEY={v}", '"cos-hmac-secret-access-key": "{v}"'):
    v = hexv(48)
    ds("IbmCosHmacDetector", COS, "ibm cos hmac", fmt.format(v=v), v)

for fmt in ("Authorization: Bearer {v}", 'jwt = "{v}"'):
    head = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
    claims = json.dumps({"sub": r(8, DIGITS), "name": r(6, LOWER)}).encode()
    body = base64.urlsafe_b64encode(claims).decode().rstrip("=")
    v = f"{head}.{body}.{r(43, URLSAFE)}"
    ds("JwtTokenDetector", "jwt.py", "jwt", fmt.format(v=v), v)

for fmt in ('MAILCHIMP_API_KEY = "{v}"', "mailchimp key: {v}", "apikey={v}", "mc = Client('{v}')"):
    v = hexv(32) + "-us" + str(RNG.randint(1, 21))
    ds("MailchimpDetector", "mailchimp.py", "mailchimp", fmt.format(v=v), v)

for fmt, v in (("//registry.npmjs.org/:_authToken={v}", "npm_" + r(36)),
               ("//npm.pkg.github.com/:_authToken={v}", "npm_" + r(36)),
               ("//registry.npmjs.org/:_authToken= {v}", "-".join(hexv(n) for n in (8, 4, 4, 4, 12))),
               ("//nexus.example.com/repository/npm/:_authToken={v}",
                "-".join(hexv(n) for n in (8, 4, 4, 4, 12)))):
    ds("NpmDetector", "npm.py", "npm", fmt.format(v=v), v)

for fmt in ('OPENAI_API_KEY="{v}"', "openai.api_key = '{v}'"):
    v = "sk-" + r(20) + "T3BlbkFJ" + r(20)
    ds("OpenAIDetector", "openai.py", "openai", fmt.format(v=v), v)
v = "sk-proj-" + r(74, URLSAFE) + "T3BlbkFJ" + r(74, URLSAFE)
ds("OpenAIDetector", "openai.py", "openai", f"key: {v}", v)

PK = "private_key.py"
for header in ("BEGIN DSA PRIVATE KEY", "BEGIN EC PRIVATE KEY", "BEGIN OPENSSH PRIVATE KEY",
               "BEGIN PRIVATE KEY", "BEGIN RSA PRIVATE KEY", "BEGIN SSH2 ENCRYPTED PRIVATE KEY"):
    body = "\n".join(r(64, B64) for _ in range(4))
    end = header.replace("BEGIN", "END")
    text = f"-----{header}-----\n{body}\n-----{end}-----"
    if "SSH2" in header:
        text = f"---- {header} ----\n{body}\n---- {end} ----"
    ds("PrivateKeyDetector", PK, "private key", text, body)
body = "\n".join(r(64, B64) for _ in range(3))
ds("PrivateKeyDetector", PK, "private key",
   f"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n{body}\n-----END PGP PRIVATE KEY BLOCK-----", body)
priv = "\n".join(r(64, B64) for _ in range(3))
ds("PrivateKeyDetector", PK, "private key",
   "PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nComment: rsa-key\nPublic-Lines: 2\n"
   f"{r(64, B64)}\n{r(40, B64)}\nPrivate-Lines: 3\n{priv}\nPrivate-MAC: {hexv(40)}", priv)

for prefix in ("pypi-AgEIcHlwaS5vcmc", "pypi-AgENdGVzdC5weXBpLm9yZw"):
    for fmt in ("password = {v}", 'TWINE_PASSWORD="{v}"'):
        v = prefix + r(RNG.randint(70, 160), URLSAFE)
        ds("PypiTokenDetector", "pypi_token.py", "pypi", fmt.format(v=v), v)

for fmt in ('SENDGRID_API_KEY="{v}"', "sg = SendGridAPIClient('{v}')"):
    v = "SG." + r(22, URLSAFE) + "." + r(43, URLSAFE)
    ds("SendGridDetector", "sendgrid.py", "sendgrid", fmt.format(v=v), v)

for kind in "abposr":
    v = f"xox{kind}-" + "-".join(r(RNG.randint(9, 12), DIGITS) for _ in range(2)) + "-" + r(24, LOWER + DIGITS)
    ds("SlackDetector", "slack.py", "slack", f"SLACK_TOKEN={v}", v)
v = f"https://hooks.slack.com/services/T{r(8, UPPER + DIGITS)}/B{r(8, UPPER + DIGITS)}/{r(24)}"
ds("SlackDetector", "slack.py", "slack", f"webhook: {v}", v)

SOFT = "softlayer.py"
for fmt in ('softlayer_api_key = "{v}"', "SL_API_KEY={v}", "sl-key: '{v}'", "softlayer_password => {v}",
            "https://api.softlayer.com/soap/v3/{v}", "http://api.softlayer.com/soap/v3.1/{v}"):
    v = r(64, LOWER + DIGITS)
    ds("SoftlayerDetector", SOFT, "softlayer", fmt.format(v=v), v)

for fmt in ('SQUARE_OAUTH_SECRET = "{v}"', "square: {v}", "client_secret={v}"):
    v = "sq0csp-" + r(43, URLSAFE)
    ds("SquareOAuthDetector", "square_oauth.py", "square", fmt.format(v=v), v)

for fmt in ('stripe.api_key = "{v}"', "STRIPE_SECRET={v}"):
    v = RNG.choice(("sk", "rk")) + "_live_" + r(24)
    ds("StripeDetector", "stripe.py", "stripe", fmt.format(v=v), v)

for fmt in ('TELEGRAM_BOT_TOKEN = "{v}"', "bot = telebot.TeleBot('{v}')",
            "https://api.telegram.org/bot{v}/getMe", "token: {v}"):
    v = str(RNG.randint(10**7, 10**10 - 1)) + ":" + r(35, URLSAFE)
    ds("TelegramBotTokenDetector", "telegram_token.py", "telegram", fmt.format(v=v), v)

for fmt, v in (('TWILIO_ACCOUNT_SID = "{v}"', "AC" + hexv(32)), ("account_sid: {v}", "AC" + hexv(32)),
               ('TWILIO_API_KEY="{v}"', "SK" + hexv(32)), ("client = Client('{v}', secret)", "SK" + hexv(32))):
    ds("TwilioKeyDetector", "twilio.py", "twilio", fmt.format(v=v), v)

# ---- secretlint ----------------------------------------------------------
for fmt in ("OP_SERVICE_ACCOUNT_TOKEN={v}", 'token: "{v}"'):
    payload = json.dumps({"signInAddress": "my.1password.com",
                          "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256", "iterations": 650000,
                                       "salt": r(22, URLSAFE)},
                          "email": f"{r(12, LOWER)}@1passwordserviceaccounts.com",
                          "srpX": hexv(64), "muk": {"alg": "A256GCM", "ext": True, "k": r(43, URLSAFE), "kty": "oct",
                                                    "kid": "mp"}, "secretKey": "A3-" + r(6, UPPER + DIGITS),
                          "throttleSecret": {"seed": hexv(64), "uuid": r(26, UPPER + DIGITS)},
                          "deviceUuid": r(26, LOWER + DIGITS)}, separators=(",", ":"))
    payload = payload[:-1] + " " * ((1 - len(payload)) % 3) + "}"  # ends in one byte: "fQ=="
    v = "ops_" + base64.b64encode(payload.encode()).decode()
    assert v.endswith(("fQ==", "fQ=", "fQ"))
    sl("1password", "1password", fmt.format(v=v), v)

for fmt in ('ANTHROPIC_API_KEY="{v}"', "client = Anthropic(api_key='{v}')"):
    v = "sk-ant-api03-" + r(93, URLSAFE) + "AA"
    sl("anthropic", "anthropic", fmt.format(v=v), v)

for fmt in ("AWS_SECRET_ACCESS_KEY={v}", 'aws_secret_access_key = "{v}"', '"SecretAccessKey": "{v}"',
            "secret_access_key: '{v}'"):
    v = r(40, B64)
    sl("aws", "aws", fmt.format(v=v), v)
for fmt in ("AWS_ACCOUNT_ID={v}", 'aws_account_id: "{v}"', "AccountId => {v}"):
    v = RNG.choice(("{a}{b}{c}", "{a}-{b}-{c}")).format(a=r(4, DIGITS), b=r(4, DIGITS), c=r(4, DIGITS))
    sl("aws", "aws account id", fmt.format(v=v), v)


def guid() -> str:
    return "-".join(hexv(n) for n in (8, 4, 4, 4, 12))


for fmt in ('AZURE_TENANT_ID="{v}"', "azureTenantId: {v}", "ad_tenant_id = '{v}'"):
    v = guid()
    sl("azure", "azure ids", fmt.format(v=v), v)
for fmt in ("AZURE_CLIENT_ID={v}", '"clientId": "{v}"'):
    v = guid()
    sl("azure", "azure ids", fmt.format(v=v), v)
for fmt in ("AZURE_CLIENT_SECRET={v}", 'client_secret: "{v}"', "azureClientSecret := '{v}'"):
    v = r(3, LOWER + DIGITS) + "8Q~" + r(34, LOWER + DIGITS + "-_.~")
    v = v.lower()
    sl("azure", "azure client secret", fmt.format(v=v), v)

for fmt in ("https://{u}:{v}@example.com/path", "git remote add origin https://{u}:{v}@git.example.io/team/app.git",
            "ftp://{u}:{v}@ftp.example.net"):
    u, v = r(6, LOWER), r(16, ALNUM + "_-")
    sl("basicauth", "basic auth url", fmt.format(u=u, v=v), v)

for prefix in ("cfk", "cfut", "cfat"):
    v = f"{prefix}_" + r(40) + hexv(8)
    sl("cloudflare", "cloudflare", f"CLOUDFLARE_API_TOKEN={v}", v)

for fmt in ("mongodb+srv://app:{v}@cluster0.ab1cd.mongodb.net/prod?retryWrites=true",
            "mongodb://admin:{v}@db1.example.com:27017,db2.example.com:27017/app?replicaSet=rs0",
            "jdbc:mysql://root:{v}@localhost:3306/shop", "mysqlx://svc:{v}@10.1.2.3/app",
            "postgresql://postgres:{v}@db.internal:5432/analytics", "postgres://u:{v}@host/db?sslmode=require",
            "DATABASE_URL=mysql://web:{v}@mysql.example.com/web"):
    v = password().replace("@", "#")
    sl("database-connection-string", "database url", fmt.format(v=v), v)

for fmt in ("DATABRICKS_TOKEN={v}", 'token = "{v}"'):
    v = "dapi" + hexv(32) + RNG.choice(("", "-2"))
    sl("databricks", "databricks", fmt.format(v=v), v)

v = "dckr_pat_" + r(27, URLSAFE)
sl("docker", "docker", f"echo {v} | docker login -u me --password-stdin", v)
v = "figd_" + r(40, URLSAFE)
sl("figma", "figma", f"FIGMA_TOKEN={v}", v)

body = "\\n".join(r(64, B64) for _ in range(5))
v = f"-----BEGIN PRIVATE KEY-----\\n{body}\\n-----END PRIVATE KEY-----\\n"
sl("gcp", "gcp service account", '{"type": "service_account", "project_id": "demo-1", '
   f'"private_key_id": "{hexv(40)}", "private_key": "{v}", "client_email": "svc@demo-1.iam.gserviceaccount.com"}}',
   body)

for v in ("ghp_" + r(36), "github_pat_" + r(22) + "_" + r(59), "ghs_" + r(36)):
    sl("github", "github", f"GITHUB_TOKEN={v}", v)
v = "ghs_" + r(6, DIGITS) + "_" + r(36, URLSAFE) + "." + r(60, URLSAFE) + "." + r(43, URLSAFE)
sl("github", "github", f"token: {v}", v)
v = "glpat-" + r(20, URLSAFE)
sl("gitlab", "gitlab", f'private_token = "{v}"', v)
for v in ("glc_" + r(120, B64) + "=", "glsa_" + r(32) + "_" + hexv(8)):
    sl("grafana", "grafana", f"GRAFANA_TOKEN={v}", v)
v = "gsk_" + r(52)
sl("groq", "groq", f"GROQ_API_KEY={v}", v)
for v in ("hvs." + r(95, URLSAFE), "hvb." + r(150, URLSAFE), "hvr." + r(92, URLSAFE)):
    sl("hashicorp-vault", "vault", f"VAULT_TOKEN={v}", v)
v = "hf_" + r(34, LOWER + UPPER)
sl("huggingface", "huggingface", f"HF_TOKEN={v}", v)
for fmt in ("LINEAR_API_KEY={v}", "Authorization: {v}"):
    v = "lin_api_" + r(40)
    sl("linear", "linear", fmt.format(v=v), v)

vals = [base64.b64encode(password().encode()).decode() for _ in range(2)]
sl("no-k8s-kind-secret", "kubernetes secret",
   "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-creds\ntype: Opaque\ndata:\n"
   f"  username: YWRtaW4=\n  password: {vals[0]}\n", vals[0])
sl("no-k8s-kind-secret", "kubernetes secret",
   "---\nkind: Secret\napiVersion: v1\nmetadata:\n  name: api\nstringData:\n"
   f"  api-token: {vals[1]}\n", vals[1])

v = "ntn_" + r(11, DIGITS) + r(35)
sl("notion", "notion", f"NOTION_TOKEN={v}", v)
v = "npm_" + r(36)
sl("npm", "npm", f"//registry.npmjs.org/:_authToken={v}", v)
v = "-".join(hexv(n) for n in (8, 4, 4, 4, 12))
sl("npm", "npm", f"//registry.npmjs.org/:_authToken={v}", v)
v = r(40, HEX)
sl("npm", "npm", f'"repository": "git+https://{v}:x-oauth-basic@github.com/org/pkg.git"', v)
for v in ("sk-proj-" + r(74, URLSAFE) + "T3BlbkFJ" + r(74, URLSAFE),
          "sk-svcacct-" + r(58, URLSAFE) + "T3BlbkFJ" + r(58, URLSAFE),
          "sk-admin-" + r(58, URLSAFE) + "T3BlbkFJ" + r(58, URLSAFE),
          "sk-" + r(20) + "T3BlbkFJ" + r(20)):
    sl("openai", "openai", f'OPENAI_API_KEY="{v}"', v)

body = "\n".join(r(64, B64) for _ in range(4))
for kind in ("RSA ", "EC ", "OPENSSH ", ""):
    body = "MI" + r(62, B64) + "\n" + "\n".join(r(64, B64) for _ in range(3))
    sl("privatekey", "private key", f"-----BEGIN {kind}PRIVATE KEY-----\n{body}\n-----END {kind}PRIVATE KEY-----", body)

for fmt in ('PRIVATE_KEY="{v}"', "private key: 0x{v}", "const privateKey = '{v}';", "wallet_priv_key={v}",
            "DEPLOYER_PRIVATE_KEY={v}"):
    v = hexv(64)
    sl("secp256k1-privatekey", "secp256k1 key", fmt.format(v=v), v)

v = "SG." + r(22, URLSAFE) + "." + r(43, URLSAFE)
sl("sendgrid", "sendgrid", f"SENDGRID_API_KEY={v}", v)
for prefix in ("shppa", "shpca", "shpat", "shpss"):
    v = f"{prefix}_" + RNG.choice((hexv(32), r(32)))
    sl("shopify", "shopify", f"SHOPIFY_TOKEN={v}", v)
v = "xoxb-" + r(12, DIGITS) + "-" + r(13, DIGITS) + "-" + r(24)
sl("slack", "slack", f"token: {v}", v)
v = "xapp-1-" + r(11, UPPER + DIGITS) + "-" + r(13, DIGITS) + "-" + r(64, HEX)
sl("slack", "slack", f"SLACK_APP_TOKEN={v}", v)
v = f"https://hooks.slack.com/services/T{r(10, UPPER + DIGITS)}/B{r(10, UPPER + DIGITS)}/{r(24)}"
sl("slack", "slack", f"url = {v}", v)
for p in ("sk_live", "sk_test", "rk_live", "rk_test"):
    v = f"{p}_" + r(RNG.choice((24, 99)))
    sl("stripe", "stripe", f"STRIPE_KEY={v}", v)
for kind in ("auth", "api", "client", "scim", "webhook"):
    v = f"tskey-{kind}-" + r(17) + "-" + r(33)
    sl("tailscale", "tailscale", f"TS_AUTHKEY={v}", v)
for p in ("vcp", "vci", "vca", "vcr", "vck"):
    v = f"{p}_" + r(RNG.randint(20, 60))
    sl("vercel", "vercel", f"VERCEL_TOKEN={v}", v)


# Later additions (kept after the others so their values stay as they were):
# Artifactory keys of any length from 10 (artifactory.py's `AKC[a-zA-Z0-9]{10,}`),
# Twilio ids over twilio.py's [a-z0-9] alphabet.
for fmt in ("artifactory_api_key={v}", '"{v}"', "X-JFrog-Art-Api:{v}"):
    v = "AKC" + r(RNG.randint(10, 20))
    ds("ArtifactoryDetector", "artifactory.py", "artifactory", fmt.format(v=v), v)
for fmt, prefix in (("sid = {v}", "AC"), ("TWILIO_KEY={v}", "SK")):
    v = prefix + r(32, LOWER + DIGITS)
    ds("TwilioKeyDetector", "twilio.py", "twilio", fmt.format(v=v), v)
# secp256k1 keys under names without `key`.
for fmt in ("const PRIV = '{v}';", "wallet_priv: 0x{v}", 'privHex = "{v}"'):
    v = hexv(64)
    sl("secp256k1-privatekey", "secp256k1 key", fmt.format(v=v), v)

# Ordinary strings next to these formats: none may be redacted.
NEGATIVES = [
    'password = "${DB_PASSWORD}"',
    "password: {{ .Values.password }}",
    "secret = os.environ['SECRET']",
    "if password == confirm_password:",
    "api_key = get_api_key()",
    "The password must be at least 12 characters long.",
    'sha = "3f786850e387550fdab836ed7e6dc881de23001b"',
    'integrity: "sha512-' + "abc" * 10 + '"',
    "commit 3f786850e387550fdab836ed7e6dc881de23001b",
    "uuid = '123e4567-e89b-12d3-a456-426614174000'",
    "Telegram release 10.2.5: bug fixes.",
    "AKCESS to the dashboard was granted.",
    "APPLICATION_NAME=billing",
    "https://user:${PASSWORD}@example.com",
    "postgres://localhost:5432/app",
    "mongodb://db.example.com:27017/app",
    "kind: Deployment\nspec:\n  replicas: 3",
    "See https://hooks.slack.com/services for details.",
    "lin_api_key = None",
    "the 64-digit hex digest is printed by sha256sum",
    'checksum = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"',
    "AccountId => 'unknown'",
    "tenant_id: common",
    "ops_team: platform",
    'password = "${DB_PASSWORD:-changeme}"',
    'password: "{{ .Values.db.password }}"',
    'secret = "$(cat /run/secrets/api)"',
    'password = "pre-${ENV}-post"',
    'export PGPASSWORD="${{ secrets.PG_PASSWORD }}"',
    "Licensed under APACHE2 terms",
    "AKC Kennel Club registration",
    "SKU 4410, ACME Corp",
    "APB1 bulletin",
    'privilege_hash = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"',
]


def main() -> None:
    OUT.write_text(json.dumps({
        "about": __doc__.split("\n\n")[0].replace("\n", " "),
        "sources": {"detect-secrets": DETECT_SECRETS, "secretlint": SECRETLINT},
        "examples": EXAMPLES,
        "negatives": NEGATIVES,
    }, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(EXAMPLES)} examples, {len(NEGATIVES)} negatives -> {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
