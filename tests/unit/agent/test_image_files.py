"""An image to attach is read only when it is a file, and never past the size limit.

Found in tmux: ``/attach`` of a named pipe called ``shot.png`` waited for a writer in a
thread; the message sent after it waited behind the command, and ctrl+q left a blank
terminal and a process that never ended (the thread held the exit), the message lost.
"""

from __future__ import annotations

import os
import threading

import pytest

from agenttui.agent import images
from agenttui.agent.images import ImageError, load_image


def _in_time(function, *args):
    """``function(*args)`` in a thread; fails (rather than hangs) if it has not returned in 30 s."""
    outcome: list[object] = []
    worker = threading.Thread(target=lambda: outcome.append(_call(function, *args)), daemon=True)
    worker.start()
    worker.join(30)
    assert not worker.is_alive(), f"{function.__name__} is still waiting"
    return outcome[0]


def _call(function, *args):
    try:
        return function(*args)
    except Exception as exc:  # noqa: BLE001 -- returned for the test to look at
        return exc


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_is_refused_without_waiting_for_a_writer(tmp_path):
    pipe = tmp_path / "shot.png"
    os.mkfifo(pipe)
    outcome = _in_time(load_image, pipe)
    assert isinstance(outcome, ImageError) and "not a file" in str(outcome)


def test_a_folder_is_refused(tmp_path):
    folder = tmp_path / "album.png"
    folder.mkdir()
    with pytest.raises(ImageError, match="not a file"):
        load_image(folder)


def test_an_image_over_the_limit_is_refused_by_its_size(tmp_path, monkeypatch):
    monkeypatch.setattr(images, "MAX_IMAGE_BYTES", 1000)
    big = tmp_path / "big.png"
    big.write_bytes(b"\x89PNG" + b"\0" * 2000)
    with pytest.raises(ImageError, match="limit"):
        load_image(big)


def test_an_image_within_the_limit_is_read(tmp_path):
    small = tmp_path / "small.png"
    small.write_bytes(b"\x89PNG\r\n")
    assert load_image(small) == ("iVBORw0K", "image/png")
