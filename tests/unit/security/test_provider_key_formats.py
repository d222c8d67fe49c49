"""Secret formats that redaction once let through, and text it once over-redacted.

Each positive uses the provider's documented shape (source in the comment)
with a value generated here (random, seeded), never a real credential.
"""

from __future__ import annotations

import random
import string

import pytest

from agenttui.security import find_secrets, redact_secrets

R = random.Random(10)
ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"


def s(alphabet: str, n: int) -> str:
    return "".join(R.choice(alphabet) for _ in range(n))


PW = "Xk9" + s(ALNUM, 9) + "#"
AWS_SECRET = s(B64, 40)
AWS_ID = "AKIA" + s(string.ascii_uppercase + "234567", 16)
HEX64 = s(HEX, 64)

# (text, secret that must vanish)
POSITIVES = [
    # Stripe keys: https://docs.stripe.com/keys (sk_/rk_ with live/test; sk_prod_ in gitleaks' rule)
    (f"STRIPE_KEY=rk_live_{s(ALNUM, 24)}", None),
    (f"use sk_prod_{s(ALNUM, 32)} for payouts", None),
    # 1Password service account token: https://developer.1password.com/docs/service-accounts/
    ("export OP_SERVICE_ACCOUNT_TOKEN=ops_eyJ" + s(B64, 300), None),
    # 1Password secret key (1Password security white paper): A3-XXXXXX-XXXXXX-XXXXX-XXXXX-XXXXX-XXXXX
    ("my secret key A3-" + "-".join(s(string.ascii_uppercase + string.digits, n) for n in (6, 6, 5, 5, 5, 5)), None),
    # Sourcegraph access tokens: https://sourcegraph.com/docs/cli/how-tos/creating_an_access_token (sgp_…)
    (f"SRC_ACCESS_TOKEN=sgp_{s(HEX, 16)}_{s(HEX, 40)}", None),
    # Fly.io tokens (flyctl tokens create): fo1_ + 43 url-safe
    ("fly deploy --access-token fo1_" + s(ALNUM + "_-", 43), None),
    # Atlassian API token (gitleaks atlassian rule: ATATT3 + 186)
    ("JIRA_API_TOKEN=ATATT3" + s(ALNUM + "_-=", 186), None),
    # Azure AD refresh token in an OAuth response (opaque, in its JSON field)
    ('{"token_type":"Bearer","refresh_token":"0.AXoA' + s(ALNUM + "-_", 300) + '"}', None),
    # Tableau personal access token secret: https://help.tableau.com/current/server/en-us/security_personal_access_tokens.htm
    ("tabcmd login --token-name ci --token-value " + s(B64, 22) + "==:" + s(ALNUM, 32), None),
    # HashiCorp Vault service token: https://developer.hashicorp.com/vault/docs/concepts/tokens#token-prefixes
    ("VAULT_TOKEN=hvs." + s(ALNUM + "_-", 95), None),
    # Kubernetes Secret: https://kubernetes.io/docs/concepts/configuration/secret/ (its own example values)
    ("apiVersion: v1\nkind: Secret\nmetadata:\n  name: mysecret\ntype: Opaque\ndata:\n"
     "  username: YWRtaW4=\n  password: MWYyZDFlMmU2N2Rm\n", "MWYyZDFlMmU2N2Rm"),
    # NuGet: https://learn.microsoft.com/nuget/reference/nuget-config-file#packagesourcecredentials
    (f'<packageSourceCredentials><Contoso><add key="Username" value="user@contoso.com" />'
     f'<add key="ClearTextPassword" value="{PW}" /></Contoso></packageSourceCredentials>', PW),
    # curl -u/--user user:password: https://curl.se/docs/manpage.html#-u
    (f"curl --user deploy:{PW} https://ci.example.org/api", PW),
    # MySQL: https://dev.mysql.com/doc/refman/8.0/en/connection-options.html#option_general_password
    (f"mysql -u root -p{PW} shop", PW),
    (f"mysql -h db -u root -p {PW}", PW),
    # sshpass(1): -p password
    (f"sshpass -p {PW} ssh deploy@10.0.0.5", PW),
    # docker login: https://docs.docker.com/reference/cli/docker/login/ (-p, --password)
    (f"docker login -u bob -p {PW} registry.example.com", PW),
    # AWS: https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_access-keys.html (id, then 40-char secret)
    (f"{AWS_ID} {AWS_SECRET}", AWS_SECRET),
    (f"keys: {AWS_ID}\n{AWS_SECRET}", AWS_SECRET),
    (f"the aws secret is {AWS_SECRET} ok", AWS_SECRET),
    (f"secret access key {AWS_SECRET}", AWS_SECRET),
    # chat prose
    (f"kata sandi saya {PW}", PW),
    (f"use password {PW} to log in", PW),
    (f"pw: {PW}", PW),
    ("pw: 83920175", "83920175"),
    (f"passwordnya {PW} ya", PW),
    (f"my wallet key is {HEX64} don't share", HEX64),
    (f"kunci privat dompet: 0x{HEX64}", HEX64),
]


@pytest.mark.parametrize(("text", "secret"), POSITIVES, ids=[t[:30] for t, _ in POSITIVES])
def test_issue_formats_are_redacted(text, secret):
    out = redact_secrets(text)
    assert "[REDACTED:" in out, text
    if secret:
        assert secret not in out
    assert redact_secrets(out) == out


def test_every_kubernetes_secret_value_is_redacted_and_keys_kept():
    text = POSITIVES[10][0]
    out = redact_secrets(text)
    assert "YWRtaW4=" not in out and "MWYyZDFlMmU2N2Rm" not in out
    assert "  username: [REDACTED:" in out and "  password: [REDACTED:" in out
    as_json = '{"kind": "Secret", "data": {"username": "YWRtaW4=", "password": "MWYyZDFlMmU2N2Rm"}}'
    out = redact_secrets(as_json)
    assert '"username": "[REDACTED:' in out and '"password": "[REDACTED:' in out
    configmap = "kind: ConfigMap\ndata:\n  mode: production\n  retries: '3'\n"
    assert redact_secrets(configmap) == configmap


@pytest.mark.parametrize(
    "text",
    [
        # over-redaction the issue calls a bug
        "abandon ability able about above absent absorb abstract absurd abuse access accident",
        "api_key: <token>",
        "OPENAI_API_KEY=YOUR_API_KEY",
        "token=xxxx",
        "Password manager is 1Password",  # the subject is the manager (found by the audit bench)
        "our password policy is 12chars minimum",
        'password: "<password>"',
        '<input name="password" type="password">',
        '<add key="ClearTextPassword" value="%NUGET_PASSWORD%" />',
        "secret_name: db-credentials",
        "session_key = make_session_key(user)",
        # ordinary command lines and prose near the new rules
        "mysql -u root -p shop",
        "mysql -u app -p",
        "docker login --password-stdin registry.example.com",
        "sshpass -e ssh deploy@host",
        "kata sandi minimal 8 karakter ya",
        "use a password manager to log in",
        "password changed on 12/05/2024",
        "The password policy requires 12 characters and a symbol.",
        "laws and draws of the aws console",
        f"Transaction hash 0x{HEX64} confirmed",
        f"commit {s(HEX, 40)}",
        "kind: ConfigMap\ndata:\n  key: value\n",
        # lines of public text that were redacted before (bench/eval_redaction.py --real):
        # logpai/loghub *_2k.log
        "Dec 10 09:18:54 LabSZ sshd[24649]: Failed password for invalid user nagios1 from 187.141.143.180 port 43647 ssh2",
        "I PhoneStatusBar: addNotification key=0|com.tencent.mobileqq|121|null|10111",
        "2016-09-28 04:30:31, Info  CBS    Session: 30546173_4261722401 initialized by client WindowsUpdateAgent.",
        "Processed session termination for sessionid: 0x24ed93119420021",
        "03-17 16:13:45.466  1702 17632 W ActivityManager: Bad activity token: android.os.BinderProxy@2bd79ce",
        "UserEventAgent[258]: Could not get event name for stream/token: com.apple.xpc.activity/4505: 132: Request",
        "UserInfo={NSErrorFailingURLKey=https://gsp-ssl.ls.apple.com/dispatcher.arpc, _kCFStreamErrorCodeKey=-2102}",
        # tiangolo/fastapi docs
        '    "second old key": "second old value",',
        '    password = user_dict["password"],',
        "Und dann fügen wir ein noch weiteres Schlüsselwort-Argument hinzu, `hashed_password=hashed_password`:",
        "excluding everything that involves credentials: Cookies, Authorization headers like those used with Bearer Tokens",
        "add security with authentication based on username and password *right now*, skip to the next chapter",
        "(genannt <abbr title='„Passwort-Fluss“'>„password flow“</abbr>), die Bedingung",
        # psf/requests tests
        '        session.headers.update({"Proxy-Authorization": proxy_auth_value})',
        '        url = "http://{}:{}@{}:9000/path?query#frag".format(',
        '            f"http://{ENCODED_USER}:{ENCODED_PASSWORD}@request.com/url.html#test",',
    ],
)
def test_ordinary_text_is_left_alone(text):
    assert redact_secrets(text) == text


@pytest.mark.parametrize(
    ("url", "token"),
    [
        ("https://user:ghp_{}@github.com/org/x.git", "ghp_"),
        ("https://oauth2:glpat-{}@gitlab.com/org/x.git", "glpat-"),
        ("https://x-access-token:{}@github.com/org/x.git", ""),
    ],
)
def test_url_credentials_keep_host_and_path(url, token):
    secret = token + s(ALNUM, 36 if token == "ghp_" else 20)
    text = "git clone " + url.format(secret.removeprefix(token))
    out = redact_secrets(text)
    assert secret not in out
    assert out.endswith(url.split("@")[1]) and "@" in out
    assert out.startswith("git clone https://" + url.split("//")[1].split(":")[0] + ":[REDACTED:")


def test_attribute_names_are_never_redacted():
    text = f'<add key="ClearTextPassword" value="{PW}" />'
    (m,) = find_secrets(text)
    assert text[m.start : m.end] == PW


def _github_token(prefix: str, random30: str) -> str:
    """A token in GitHub's format: 30 characters, then their CRC32 in base62 (6 characters)."""
    import zlib

    from agenttui.security.secret_patterns import _BASE62

    n, tail = zlib.crc32(random30.encode()), ""
    for _ in range(6):
        n, r = divmod(n, 62)
        tail = _BASE62[r] + tail
    return prefix + random30 + tail


def test_github_and_npm_checksums():
    from agenttui.security.secret_patterns import github_checksum_ok

    good = _github_token("ghp_", s(ALNUM, 30))
    assert github_checksum_ok(good)
    assert not github_checksum_ok(good[:-1] + ("A" if good[-1] != "A" else "B"))
    assert github_checksum_ok(_github_token("npm_", s(ALNUM, 30)))
    # A valid checksum is a token even where the look of it would not say so.
    plain = _github_token("gho_", "a" * 30)
    assert redact_secrets(f"token {plain}") == "token [REDACTED:github_token]"
