"""Text that only talks about credentials is kept: nothing in it is redacted.

Each line below was redacted, and every one is ordinary documentation (this
repository's README and docs, and the local servers' own instructions): a dummy key
a local server's docs tell clients to send, a prose word after a flag, a one-letter
placeholder, agenttui's own ``@keyring`` reference, an unfinished ``<your key>`` slot,
a file named after "secrets:". Beside each, the same shape holding a real-looking
credential is still redacted, so the filters are not a hole.
"""

from __future__ import annotations

import pytest

from agenttui.security import find_secrets, redact_secrets

KEPT_AND_CAUGHT = [
    ("export OPENAI_API_KEY=ollama", "export OPENAI_API_KEY=k7Qm2Lp8Zr6Tn3Vb"),
    ("export OPENAI_API_KEY=vllm", "export OPENAI_API_KEY=Vb1Kc5Yd0We7Hj2U"),
    ('client = OpenAI(base_url=url, api_key="lm-studio")', 'client = OpenAI(base_url=url, api_key="q9Wm3Zt7Rx2Kp5Ln")'),
    ("OPENAI_API_KEY=sk-no-key-required", "OPENAI_API_KEY=sk-4f9Xa7Qm2Lp8Zr6Tn3Vb1Kc5Yd0We7"),
    ("vllm serve MODEL --port 8000          # or the --api-key you gave vllm",
     "vllm serve MODEL --port 8000 --api-key q9Wm3Zt7Rx2Kp5LnB8"),
    ("`sshpass -p P`, `docker login -p P`), a header", "docker login -p S3cr3tPassw0rd!"),
    ('env = { LOG_LEVEL = "info", GITHUB_TOKEN = "@keyring" }',
     'env = { LOG_LEVEL = "info", GITHUB_TOKEN = "ghp_4f9Xa7Qm2Lp8Zr6Tn3Vb1Kc5Yd0We7Hj2Ui" }'),
    ("  - export OPENAI_API_KEY=<your key>, or", "  - export OPENAI_API_KEY=sk-4f9Xa7Qm2Lp8Zr6Tn3Vb1Kc5Yd0We7"),
    ("hex-dumped, base64'd or reversed secrets: `security/transformed.py` finds them",
     "the secrets: aB3xY9kQ2mZ7pL4vR8 were leaked"),
]


@pytest.mark.parametrize(("kept", "caught"), KEPT_AND_CAUGHT, ids=[k[:32] for k, _ in KEPT_AND_CAUGHT])
def test_docs_text_is_kept_and_the_same_shape_with_a_credential_is_not(kept, caught):
    assert find_secrets(kept) == [], redact_secrets(kept)
    assert redact_secrets(caught) != caught
