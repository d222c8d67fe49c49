"""Every action's binding, with an id, in one table.

The ids are what users remap in ``config.toml``::

    [keys]
    "chat.retry" = "ctrl+r"
    "app.toggle_memory" = "f2,ctrl+b"

The app builds its ``BINDINGS`` from :data:`APP_ACTIONS` and applies the
config through ``App.set_keymap``; the command palette, the footer and
``/help`` all read the same table, so nothing can be listed without a key or
bound without a palette entry.

Key choice: F-keys and ctrl letters the prompt's TextArea does not claim
(it owns ctrl+a/e/k/u/w/x/c/v/z/y/d and f5-f7 while focused). A key the
user remaps an app action to is theirs, though: it gets priority
(:func:`prioritise_remapped`), so ``f6`` in ``[keys]`` works with the prompt
focused instead of selecting its line. A character key (``x``, ``?``) is
left without priority, or it could never be typed; the config's warning says
it acts only outside the text fields. In a terminal
Enter arrives as ``\\r`` and ctrl+j as ``\\n``, so ``ctrl+j`` is the newline
key that works everywhere; ``shift+enter`` works where the terminal reports it
(kitty keyboard protocol: kitty, WezTerm, foot, Ghostty, recent iTerm2).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from textual.binding import Binding, BindingsMap, BindingType

#: Keys that carry a character but are never typed text: a terminal sends alt+e as ESC e, and
#: Textual's event for it has the character "e". A text field leaves them to the bindings.
COMMAND_KEY_PREFIXES = ("alt+", "ctrl+", "meta+", "super+", "hyper+")


@dataclass(frozen=True)
class ActionSpec:
    id: str
    key: str
    action: str  # the binding's action name (check_action sees it; a PromptInput action for "prompt.*")
    description: str
    show: bool = True  # in the footer
    priority: bool = False
    # Who does the work: "app" (its ``action_<action>``), or a pane the app reaches
    # (``ui.action_targets``), whose ``method`` runs: the app then holds no forwarding action.
    target: str = "app"
    method: str = ""


APP_ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("app.help", "f1", "help", "Help"),
    ActionSpec("app.toggle_memory", "f2", "toggle_memory", "Memory"),
    ActionSpec("app.toggle_history", "f3", "toggle_history", "History"),
    ActionSpec("chat.inspect_prompt", "f4", "inspect_prompt", "Prompt"),
    ActionSpec("app.open_audit", "f8", "open_audit", "Audit"),
    ActionSpec("app.open_settings", "f9", "open_settings", "Settings"),
    ActionSpec("app.open_project_memory", "f10", "open_project_memory", "Project memory", show=False),
    ActionSpec("app.open_profiles", "ctrl+g", "open_profiles", "Profiles", show=False),
    ActionSpec("app.reset_memory", "alt+x", "reset_memory", "Reset memory", show=False),
    ActionSpec("app.focus_memory", "alt+1", "focus_pane('memory')", "Focus memory", show=False),
    ActionSpec("app.focus_chat", "alt+2", "focus_pane('chat')", "Focus chat", show=False),
    ActionSpec("app.focus_history", "alt+3", "focus_pane('history')", "Focus history", show=False),
    ActionSpec("chat.new", "ctrl+n", "new_conversation", "New chat", show=False, target="chat",
               method="new_conversation"),
    ActionSpec("chat.incognito", "alt+i", "toggle_incognito", "Incognito", show=False, target="chat",
               method="toggle_incognito"),
    ActionSpec("chat.cancel", "escape", "cancel_turn", "Cancel", target="chat", method="stop_turn"),
    ActionSpec("chat.retry", "ctrl+r", "retry_turn", "Retry", target="chat", method="retry"),
    ActionSpec("chat.copy_last", "ctrl+o", "copy_last_reply", "Copy reply", show=False, target="chat",
               method="copy_last_reply"),
    ActionSpec("chat.edit_draft", "alt+e", "edit_draft", "Edit in $EDITOR", show=False, target="chat",
               method="edit_draft"),
    ActionSpec("app.next_theme", "ctrl+t", "next_theme", "Next theme", show=False),
    # ctrl+z: not in the prompt, where it is undo (the prompt's binding wins); ctrl+\\ everywhere
    ActionSpec("app.suspend", "ctrl+z,ctrl+backslash", "suspend_process", "Suspend", show=False),
    ActionSpec("app.quit", "ctrl+q", "quit", "Quit", priority=True),
)

# Bound on the prompt widget itself (priority, so they beat TextArea's own Enter).
PROMPT_ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("chat.send", "enter", "submit", "Send", show=False, priority=True),
    ActionSpec("chat.newline", "shift+enter,ctrl+j", "newline", "Newline", show=False, priority=True),
    ActionSpec("chat.complete", "tab", "complete", "Complete", show=False),
    ActionSpec("chat.to_messages", "shift+tab", "to_messages", "Messages", show=False),
)

ALL_ACTIONS = APP_ACTIONS + PROMPT_ACTIONS
BINDING_IDS = frozenset(spec.id for spec in ALL_ACTIONS)
APP_IDS = frozenset(spec.id for spec in APP_ACTIONS)
# The App's bindings whose work a pane does, by action name (the app dispatches them there).
TARGETED: dict[str, ActionSpec] = {spec.action: spec for spec in APP_ACTIONS if spec.target != "app"}


def to_bindings(specs: tuple[ActionSpec, ...]) -> list[BindingType]:
    return [
        Binding(s.key, s.action, s.description, show=s.show, priority=s.priority, id=s.id)
        for s in specs
    ]


def keymap_from_settings(keys: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """The config's ``[keys]`` table as a Textual keymap, plus warnings for unknown ids."""
    keymap: dict[str, str] = {}
    warnings: list[str] = []
    for binding_id, key in keys.items():
        if binding_id not in BINDING_IDS:
            warnings.append(f"[keys] {binding_id!r} is not a binding id")
        elif not isinstance(key, str) or not key.strip():
            warnings.append(f"[keys] {binding_id!r} needs a key such as \"ctrl+r\"")
        else:
            keymap[binding_id] = key.strip()
            if binding_id in APP_IDS and any(_types(k) for k in _keys(key)):
                warnings.append(f"[keys] {binding_id!r} = {key.strip()!r}: a character key types in the "
                                "prompt and other text fields; it acts only outside them")
    return keymap, warnings


def _keys(spec: str) -> list[str]:
    return [key.strip() for key in spec.split(",") if key.strip()]


def _types(key: str) -> bool:
    """Whether ``key`` is a character a text field takes (Textual's names: "x", "space", "question_mark")."""
    from textual.keys import key_to_character

    character = key_to_character(key)
    return character is not None and character.isprintable()


def effective_key(spec: ActionSpec, keymap: Mapping[str, str]) -> str:
    return keymap.get(spec.id, spec.key)


def prioritise_remapped(bindings: BindingsMap, keymap: Mapping[str, str]) -> None:
    """Give the app's bindings whose ids ``keymap`` remaps (to keys that type no character)
    priority over the focused widget's own (the prompt's text area binds f5-f7 and ctrl letters:
    a remap to one did nothing there); the others go back to what the table says.
    ``bindings``: the app's, changed in place."""
    specs = {spec.id: spec for spec in APP_ACTIONS}
    first = {spec_id for spec_id, key in keymap.items()
             if spec_id in specs and not any(_types(k) for k in _keys(key))}
    for key, found in bindings.key_to_bindings.items():
        bindings.key_to_bindings[key] = [
            replace(binding, priority=binding.id in first or specs[binding.id].priority)
            if binding.id in specs else binding
            for binding in found]
