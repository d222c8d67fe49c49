"""What is left of a memory note once its secrets are redacted.

``/remember my openai key is sk-…`` used to store "my openai key is
[REDACTED:openai_key]": a note that says nothing and is sent with every
request. The gate now keeps only the sentences that still carry something.

Decision (the issue leaves the threshold open): the note is split into
sentences (``.``, ``!``, ``?``, ``;`` before a space, or a line break). A
sentence holding a redaction is dropped when the redaction stands alone as a
word and at most :data:`MAX_DESCRIPTION_WORDS` words remain besides filler
words, credential words (key, token, password …) and the words of the
redaction's own kind (``openai_key`` → openai, key): such a sentence only
*names* the secret ("the deploy key for prod is …"). A redaction inside a
longer token (``postgres://app:[REDACTED]@db1/app``) keeps its sentence: the
host and database around it are the useful part. Sentences are not split at
commas, so "it" in a kept clause never loses what it refers to. Pure: no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

MAX_DESCRIPTION_WORDS = 3

_MARK = re.compile(r"\[REDACTED(?::([^\]]*))?\]")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n+")
_WORD = re.compile(r"[^\W_]+")
_TOKEN = re.compile(r"\S+")

# Words that only say "this is a credential" or glue a sentence together.
_CREDENTIAL_WORDS = frozenset(
    "key keys apikey api token tokens password passwords passwd pass passphrase pw pwd secret secrets "
    "credential credentials creds cred auth bearer access private pat pin login code otp seed phrase "
    "mnemonic sk".split()
)
_FILLER_WORDS = frozenset(
    "a an the my our your his her their its is are was were be been it this that these those here there "
    "of for to in on at with as by from and or me i we you s new current old now also just".split()
)


@dataclass
class SecretTrim:
    """The note to keep (may be empty) and what was taken out of it."""

    kept: str
    removed: list[str] = field(default_factory=list)  # whole sentences dropped (redacted form)
    kinds: list[str] = field(default_factory=list)  # redaction kinds, in order, without repeats

    @property
    def kinds_text(self) -> str:
        return ", ".join(k.replace("_", " ") for k in self.kinds) or "secret"


def _kinds(text: str) -> list[str]:
    seen: list[str] = []
    for match in _MARK.finditer(text):
        kind = match.group(1) or "secret"
        if kind not in seen:
            seen.append(kind)
    return seen


def _embedded(sentence: str) -> bool:
    """A redaction sits inside a longer token (URL, connection string) that says more."""
    for token in _TOKEN.findall(sentence):
        if _MARK.search(token):
            rest = _MARK.sub("", token)
            if len(_WORD.findall(rest)) >= 2:
                return True
    return False


def _description_words(sentence: str) -> list[str]:
    ignore = _CREDENTIAL_WORDS | _FILLER_WORDS
    for kind in _kinds(sentence):
        ignore = ignore | set(kind.lower().split("_"))
    return [w for w in _WORD.findall(_MARK.sub(" ", sentence).lower()) if w not in ignore]


def _only_names_a_secret(sentence: str) -> bool:
    if not _MARK.search(sentence) or _embedded(sentence):
        return False
    return len(_description_words(sentence)) <= MAX_DESCRIPTION_WORDS


def redacted_stub(redacted: str) -> str:
    """The note with its redaction marks removed: what storing it would keep."""
    return re.sub(r"\s+", " ", _MARK.sub("…", redacted)).strip()


def trim_secret_sentences(redacted: str) -> SecretTrim:
    """Drop the sentences of an already redacted note that only name a secret."""
    kinds = _kinds(redacted)
    sentences = [s for s in _SENTENCE_END.split(redacted.strip()) if s.strip()]
    kept = [s for s in sentences if not _only_names_a_secret(s)]
    removed = [s.strip() for s in sentences if _only_names_a_secret(s)]
    text = " ".join(s.strip() for s in kept) if removed else redacted.strip()
    if not _WORD.search(_MARK.sub("", text)):
        text = ""
    return SecretTrim(text, removed, kinds)
