"""Finders whose regexes start with a needle find the same at located starts.

Password hashes, credential calls, HTTP headers (and curl's `-b` cookie flag), command-line flags, URL
passwords, private key blocks, XML key/values, PINs, sshpass and Kubernetes
secrets are tried where the sparse
pass located their needles (`anchor_positions.scan`) instead of scanning the
text for them; the candidates must be what the scans give.
"""

from __future__ import annotations

from agenttui.security import gitleaks_scan
from agenttui.security.command_rules import (
    find_kubernetes_secret_values,
    find_sshpass_passwords,
    find_xml_key_values,
)
from agenttui.security.context_rules import find_flags, find_headers, find_private_key_blocks, find_url_passwords
from agenttui.security.credential_calls import find_credential_calls
from agenttui.security.hash_rules import find_password_hashes
from agenttui.security.pin_rules import find_pins
from agenttui.security.redaction import _needles, _views, keyword_pass

_SECRETS = (
    "root:$6$rounds=5000$saltsalt$Zb0yKq3lJw7cH2mN9pQ4rS8tU1vW5xY6zA7bC3dE0fG1hI2jK3lM4nO5pQ6rS7t:19000:0\n"
    "admin $2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW and $$2b$12$ x $1$ab$\n"
    "pbkdf2_sha256$260000$Xy7Kq2Lm9Np3$Rs6Tv8Wz1Ab5Cd0Ef9Gh8Ij7Kl6Mn4Op3Qr2St1Uv= $krb5tgs$23$*user$REALM$x*$"
    + "ab" * 20 + "\n"
    'token = os.getenv("API_TOKEN", "Zq8Wm3Xr7Kp2Lt9Vn4Bs")\n'
    "$cred = New-Object System.Net.NetworkCredential(\"svc\", \"Hunter2!Winter\")\n"
    "Authorization: Bearer abcDEF123ghiJKL456mnoPQR789 Cookie: session=9f8e7d6c5b4a3f2e\n"
    "X-Api-Key: 7Yt3Qw9Er5Ty1Ui8Op2As6Df4Gh\n"
    "deploy --password=Winter2024! --token tok_9f8e7d6c5b4a3f2e1d0c --api-key=K3y9Qw7Er5 --user bob:S3cr3tPw!\n"
    "curl -u admin:Adm1nPass! https://u:p4ss@db.example.com/x postgres://app:s3cr3t@db:5432/app\n"
    "curl -b 'sid=9f8e7d6c5b4a3f2e1d0c' https://h/x; curl --cookie \"token=Zq8Wm3Xr7Kp2\" https://h/y\n"
    '<add key="DbPassword" value="Xy7Kq2Lm9Np3" /> <ADD key="ApiToken" value="tok_4f3e2d1c" />\n'
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAxY7Kq2Lm9Np3Rs6Tv8Wz1Ab5Cd0Ef9Gh8Ij7Kl6Mn4Op3Qr2St1Uv\n"
    "-----END RSA PRIVATE KEY-----\n"
    "my PIN is 4829, card_pin=7731 sshpass -p 'S3cr3tPw!' ssh root@h sshpass -pHunter2x ssh h\n"
    "---\napiVersion: v1\nkind: Secret\ndata:\n  password: cGFzc3dvcmQxMjM0\n  token: dG9rZW4xMjM0NTY3OA==\n---\n"
)
_FILLER = "def f(self):\n    return self.value + 1\n" * 100  # rare enough past the sample


def _both(text: str):
    view, _, lowered, lowered_bytes = _views(text)
    keywords = gitleaks_scan.compiled(_needles()[1])
    _, located = keyword_pass(lowered_bytes, keywords)
    return text, lowered, located, set(located)


def test_located_needles_find_what_scans_find() -> None:
    for text in ((_FILLER + _SECRETS) * 5, (_FILLER + _SECRETS) * 100):  # under and past the sample
        text, lowered, located, plain = _both(text)
        assert {"$6$", "$2b$", "pbkdf2_", "getenv(", "networkcredential", "authorization", "x-", "--pass",
                "-u", "--user", "://", "-----begin", "<add", "pin", "sshpass", "kind", "-b"} <= set(located.positions)
        for finder in (find_password_hashes, find_credential_calls, find_headers, find_flags, find_url_passwords,
                       find_private_key_blocks, find_xml_key_values, find_pins, find_sshpass_passwords,
                       find_kubernetes_secret_values):
            got = list(finder(text, lowered, located))
            assert len(got) >= 5, finder.__name__
            assert got == list(finder(text, lowered, plain)), finder.__name__
