"""The API key in a plain file, for systems without a keyring.

Opt-in only: the Settings dialog writes it when the user turns on the clearly
labelled switch, never by default. The file is ``<config dir>/api_key``, one
line, mode 0600 -- what other tools do when there is no credential store
(``gh auth login --insecure-storage`` keeps the token in ``hosts.yml``, the AWS
CLI in ``~/.aws/credentials``). It is not encrypted: anyone who can read files
as this user (or root) can read it, which the label says.

Decisions:

* Written to a temporary file created 0600 with ``O_EXCL`` and renamed over the
  old one, so the key is never readable by others, not even for a moment, and
  a crash leaves the old file or the new one, never half a key.
* A file that others may read (group/other bits set, e.g. copied with a loose
  umask) is **not used**: the lookup reports how to fix it, as ssh and libpq's
  ``.pgpass`` refuse loose permissions.
* Never in a backup: backups take only ``config.toml`` and ``themes/`` from the
  config dir, and a restore replaces only those.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

FILE_NAME = "api_key"


class KeyFileError(Exception):
    """The key file could not be written or removed (message says why)."""


def key_file_path(config_dir: Path) -> Path:
    return Path(config_dir) / FILE_NAME


def read_key_file(path: Path) -> tuple[str | None, str | None]:
    """``(key, problem)``: ``(None, None)`` when there is no file."""
    try:
        info = path.stat()
        if os.name == "posix" and info.st_mode & 0o077:
            mode = stat.S_IMODE(info.st_mode)
            return None, (f"the key file {path} is readable by other users (mode {mode:04o}), so it "
                          f"is not used: run chmod 600 {path}")
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, None
    except (OSError, UnicodeDecodeError) as exc:
        return None, f"the key file {path} could not be read: {exc}"
    key = text.strip()
    return (key, None) if key else (None, None)


def write_key_file(path: Path, value: str) -> None:
    value = value.strip()
    if not value or any(c in value for c in "\r\n\0"):
        raise KeyFileError("the API key must be one non-empty line")
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(value + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, 0o600)  # the umask can only narrow 0600; this is for filesystems that ignore it
        os.replace(temp, path)
    except OSError as exc:
        temp.unlink(missing_ok=True)
        raise KeyFileError(f"the key could not be written to {path}: {exc}") from exc


def delete_key_file(path: Path) -> bool:
    """Remove the file; ``False`` if there was none."""
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise KeyFileError(f"the key file {path} could not be removed: {exc}") from exc
    return True
