"""Recall / false-positive figures for the security corpora.

Run: `.venv/bin/python -m tests.unit.security.corpus_report`
The tests in this folder assert thresholds on the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from agenttui.security import injection_reasons, redact_secrets
from tests.unit.security.injection_corpus import build_notes
from tests.unit.security.secret_corpus import Sample, build_corpus

FRAGMENT = 10  # no 10-char window of a secret may survive redaction


def leaked_fragments(sample: Sample, redacted: str) -> list[str]:
    leaks = []
    for secret in sample.secrets:
        k = min(FRAGMENT, len(secret))
        for i in range(len(secret) - k + 1):
            frag = secret[i : i + k]
            if frag in redacted and frag not in sample.text.replace(secret, ""):
                leaks.append(frag)
                break
    return leaks


@dataclass
class Figures:
    positives: int
    negatives: int
    missed: list
    false_positives: list

    @property
    def recall(self) -> float:
        return 1 - len(self.missed) / self.positives

    @property
    def fp_rate(self) -> float:
        return len(self.false_positives) / self.negatives


def redaction_figures(seed: int = 20240601) -> Figures:
    corpus = build_corpus(seed)
    missed, fps = [], []
    for s in corpus:
        out = redact_secrets(s.text)
        if s.positive and leaked_fragments(s, out):
            missed.append((s, out))
        elif not s.positive and out != s.text:
            fps.append((s, out))
    pos = sum(s.positive for s in corpus)
    return Figures(pos, len(corpus) - pos, missed, fps)


def injection_figures(seed: int = 7) -> Figures:
    notes = build_notes(seed)
    missed, fps = [], []
    for n in notes:
        reasons = injection_reasons(n.text)
        if n.suspicious and not reasons:
            missed.append((n, reasons))
        elif not n.suspicious and reasons:
            fps.append((n, reasons))
    pos = sum(n.suspicious for n in notes)
    return Figures(pos, len(notes) - pos, missed, fps)


def report() -> str:
    lines = []
    for name, fig in (("redaction", redaction_figures()), ("injection", injection_figures())):
        lines.append(
            f"{name}: recall {fig.recall:.4f} ({fig.positives - len(fig.missed)}/{fig.positives}), "
            f"false-positive rate {fig.fp_rate:.4f} ({len(fig.false_positives)}/{fig.negatives})"
        )
        for item, _detail in fig.missed[:10]:
            lines.append(f"  missed [{getattr(item, 'kind', getattr(item, 'tag', ''))}] {item.text[:100]!r}")
        for item, detail in fig.false_positives[:10]:
            lines.append(f"  false positive {item.text[:100]!r} -> {str(detail)[:120]}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report())
