"""Attach an image to a user message (docs/storage.md#history-database): read, check, base64."""

from __future__ import annotations

import base64
import stat
from pathlib import Path

MAX_IMAGE_BYTES = 20 * 1024 * 1024  # the OpenAI limit per image
IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
               ".gif": "image/gif", ".webp": "image/webp"}


class ImageError(ValueError):
    """The image cannot be attached; the message says why."""


def load_image(path: Path | str) -> tuple[str, str]:
    """Return ``(base64 data, mime type)`` or raise :class:`ImageError`."""
    path = Path(path).expanduser()
    mime = IMAGE_TYPES.get(path.suffix.lower())
    if mime is None:
        raise ImageError(f"{path}: unsupported image type (use {', '.join(sorted(IMAGE_TYPES))})")
    try:
        size = _regular_file_size(path)
        if size > MAX_IMAGE_BYTES:
            raise ImageError(f"{path}: image is {size // 1024 // 1024} MB; the limit is 20 MB")
        with path.open("rb") as file:
            data = file.read(MAX_IMAGE_BYTES + 1)  # grown since the stat: still bounded
    except OSError as exc:
        raise ImageError(f"{path}: cannot read the image ({exc.strerror or exc})") from exc
    if len(data) > MAX_IMAGE_BYTES:
        raise ImageError(f"{path}: image is over 20 MB; the limit is 20 MB")
    return base64.b64encode(data).decode("ascii"), mime


def _regular_file_size(path: Path) -> int:
    """The size of ``path``, or :class:`ImageError` when it is not a file (a folder, a device,
    a named pipe: opening a pipe waits for a writer, and the app could not quit while it did;
    /dev/zero never ends)."""
    info = path.stat()
    if not stat.S_ISREG(info.st_mode):
        raise ImageError(f"{path}: not a file (a folder, a device or a pipe); attach an image file")
    return info.st_size
