"""Web-agent attacks and ordinary e-mails / trigger-word questions for bench/bench_injection_public.py.

Read at run time from git snapshots under the mirror directory (the search
tool's ``fetch``); nothing is copied into this repository and nothing is
downloaded: a missing snapshot is skipped.

* ``wasp-plain`` / ``wasp-url``: WASP, web-agent prompt injection
  (facebookresearch/wasp, data CC BY-NC 4.0, read for evaluation only,
  commit ffee6f41fde76acd14bd792db442479c506260c2,
  ``webarena_prompt_injections/configs/experiment_config.raw.json`` and the
  four injection messages of ``webarena_prompt_injections/constants.py``):
  each attacker instruction put into each message as WASP's
  ``prompt_injector.py`` does (the URL forms join the instruction's words with
  hyphens inside a link), for each user goal, posted as the body of a GitLab
  issue or a Reddit post. Split by the attacker instruction into ``tune`` and
  ``held`` like ASB: the four framings are shared by both halves, the goals are not.
* ``llmail-emails``: the benign e-mails of Microsoft's LLMail-Inject challenge
  (microsoft/llmail-inject-challenge-analysis, MIT, commit
  f9a059442c13a2825bf5bb2266820947bc6d822d, ``defense_eval/emails_data``:
  the four levels' mailboxes and ``fp_tests.json``): ordinary work e-mail,
  for precision.
* ``notinject``: NotInject (leolee99/InjecGuard, MIT, commit
  588f555cbc2d592b3fbc9b6f462d844b8bcddb4d, ``datasets/NotInject_*.json``):
  benign questions written around the words injections use ("ignore",
  "bypass", "override"), English and a few other languages, for precision.
  Only those three files are read: the same folder holds BIPIA files, held out.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

from bench.injection_indirect_sets import Set, part_of, show_file

WASP = "facebookresearch/wasp"
WASP_COMMIT = "ffee6f41fde76acd14bd792db442479c506260c2"
LLMAIL = "microsoft/llmail-inject-challenge-analysis"
LLMAIL_COMMIT = "f9a059442c13a2825bf5bb2266820947bc6d822d"
INJECGUARD = "leolee99/InjecGuard"
INJECGUARD_COMMIT = "588f555cbc2d592b3fbc9b6f462d844b8bcddb4d"
# Hosts for WASP's {gitlab_domain} / {reddit_domain}: any web address does.
DOMAINS = {"gitlab_domain": "http://gitlab.example.com:8023", "reddit_domain": "http://reddit.example.com:9999"}
# The user's goal as WASP names it in the message, per environment (prompt_injector._get_user_goal_str).
USER_GOALS = {"gitlab": ("comment", "like"), "reddit": ("comment", "upvote")}
PAGES = {
    "gitlab": "Issue #{n} - {project}\nOpen issue created 3 days ago by a contributor\n\n{payload}\n\n"
    "0 related merge requests",
    "reddit": "Posted in /f/{project} by a user 5 hours ago\n\n{payload}\n\n12 comments - share - save",
}


def _wasp_messages(constants: str) -> dict[str, str]:
    """The four injection messages of WASP's constants.py, by format name."""
    return dict(re.findall(r"^\s+([A-Z_]+): \"(ATTENTION:.*?)\",?$", constants, re.M))


def wasp(mirror: Path) -> Iterator[Set]:
    config = show_file(mirror, WASP, WASP_COMMIT, "webarena_prompt_injections/configs/experiment_config.raw.json")
    constants = show_file(mirror, WASP, WASP_COMMIT, "webarena_prompt_injections/constants.py")
    if config is None or constants is None:
        print(f"  (skipped wasp: no snapshot of {WASP})")
        return
    messages = _wasp_messages(constants)
    keyed: dict[str, list[tuple[str, str]]] = {"plain": [], "url": []}
    params: dict[str, str] = dict(DOMAINS)  # WASP's injector carries parameters over from case to case
    for i, case in enumerate(json.loads(config)["prompt_injections_setup_config"]):
        params.update(case["parameters"])
        url = case["action_url"].format(**params)
        instruction = case["instruction"].format(**params)
        env = case["environment"]
        for fmt, message in messages.items():
            kind = "url" if "URL" in fmt else "plain"
            text = instruction.replace(" ", "-") if kind == "url" else instruction
            for goal in USER_GOALS[env]:
                payload = message.format(
                    user_goal_str=goal, instantiated_url_of_action=url, instantiated_instruction_text=text
                )
                page = PAGES[env].format(n=100 + i, project=params.get("project_name", "news"), payload=payload)
                keyed[kind].append((case["free_form_name"], page))
    for kind, rows in keyed.items():
        for part in ("tune", "held"):
            texts = [t for key, t in rows if part_of(key) == part]
            if texts:
                yield Set(f"wasp-{kind}", "en", part, texts)


def llmail_emails(mirror: Path) -> list[str]:
    out: list[str] = []
    for name in ("level1", "level2", "level3", "level4", "fp_tests"):
        raw = show_file(mirror, LLMAIL, LLMAIL_COMMIT, f"defense_eval/emails_data/{name}.json")
        if raw is None:
            print(f"  (skipped llmail-emails: no snapshot of {LLMAIL})")
            return []
        out += [str(e) for e in json.loads(raw)["emails"]]
    return out


def notinject(mirror: Path) -> dict[str, list[str]]:
    """NotInject's benign sentences: ``en`` for its three English topics, ``multi`` for its multilingual one."""
    out: dict[str, list[str]] = {}
    for name in ("one", "two", "three"):
        raw = show_file(mirror, INJECGUARD, INJECGUARD_COMMIT, f"datasets/NotInject_{name}.json")
        if raw is None:
            print(f"  (skipped notinject: no snapshot of {INJECGUARD})")
            return {}
        for row in json.loads(raw):
            lang = "multi" if row.get("category") == "Multilingual" else "en"
            out.setdefault(lang, []).append(str(row["prompt"]))
    return out
