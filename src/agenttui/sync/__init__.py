"""Encrypted sync of memory and history between the user's machines (docs: README, "Sync").

No server of ours: the target is a git remote (through the user's own ``git``) or a
folder another tool replicates (Syncthing, Dropbox, a network share). The target holds
only ciphertext:

* ``agenttui-sync.json``: the group's random 256-bit key, sealed by the passphrase
  (scrypt, then ChaCha20-Poly1305). Each machine unseals it once and keeps it in the
  keyring, so the slow derivation is not paid per sync.
* ``devices/<device-id>/<seq>.log``: one device's change log, numbered segments that
  are written once (atomically) and never edited, one AEAD-encrypted record a line.
  Each machine writes only under its own id, so git and folder tools never see two
  writers of one file.

Applying is deterministic and idempotent (:mod:`agenttui.sync.apply`). Nothing here
imports Textual.
"""
