"""Attach an image to a user message (docs/storage.md#history-database): read, check, base64."""

from __future__ import annotations

import base64
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
        data = path.read_bytes()
    except OSError as exc:
        raise ImageError(f"{path}: cannot read the image ({exc.strerror or exc})") from exc
    if len(data) > MAX_IMAGE_BYTES:
        raise ImageError(f"{path}: image is {len(data) // 1024 // 1024} MB; the limit is 20 MB")
    return base64.b64encode(data).decode("ascii"), mime
