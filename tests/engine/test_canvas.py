"""The shared drawing kit (engine/canvas.py): fitting and clipping text, and the GIF and
PNG encodings every renderer uses."""

from __future__ import annotations

import io

from PIL import Image

from engine.canvas import Canvas, clip, encode_gif, encode_png, fit_size, text_width
from engine.ginkgopolis.render.canvas import fit_text


def test_fit_size_is_the_largest_size_that_fits_down_to_the_minimum() -> None:
    text = "Quadropolis"
    room = text_width(text, 20)
    assert fit_size(text, room, 30, minimum=8) == 20
    assert text_width(text, 21) > room  # the next size up would not fit
    assert fit_size(text, 5, 30, minimum=12) == 12  # nothing fits: the minimum
    assert fit_size(text, 10_000, 30, minimum=8) == 30


def test_clip_keeps_what_fits_and_cuts_the_rest_with_an_ellipsis() -> None:
    name = "Alexandra Konstantinopoulou"
    assert clip(name, 10_000, 20) == name
    room = text_width("Alexandra Ko", 20)
    cut = clip(name, room, 20)
    assert cut.endswith("…") and name.startswith(cut[:-1])
    assert text_width(cut, 20) <= room < text_width(cut[:-1] + name[len(cut) - 1] + "…", 20)


def test_ginkgopolis_leaves_no_space_before_the_ellipsis() -> None:
    name = "Alexandra Konstantinopoulou"
    room = text_width("Alexandra …", 20)
    assert clip(name, room, 20) == "Alexandra …"
    assert fit_text(name, room, 20) == "Alexandra…"
    assert fit_text("Zoé ", 10_000, 20) == "Zoé "  # a name that fits is left as typed


def test_a_gif_shows_every_frame_and_holds_the_last() -> None:
    # Frame i has i + 1 stripes: a city that grows, the last frame the fullest.
    colours = [(200, 30, 30), (30, 160, 60), (40, 60, 200), (230, 200, 40)]
    frames = []
    for i in range(4):
        c = Canvas.new(50, 30, (10, 10, 10))  # the background stays in every frame
        for j in range(i + 1):
            c.d.rectangle((j * 10, 0, j * 10 + 9, 29), fill=colours[j])
        frames.append(c.im)
    gif = Image.open(io.BytesIO(encode_gif(frames, 500, 3000)))
    durations = []
    for i in range(gif.n_frames):
        gif.seek(i)
        durations.append(gif.info["duration"])
    assert durations == [500, 500, 500, 3000]
    assert gif.info.get("loop") == 0
    assert encode_gif(frames, 500, 3000) == encode_gif(list(frames), 500, 3000)


def test_equal_pixels_give_equal_png_bytes() -> None:
    a, b = Canvas.new(30, 20, (1, 2, 3)), Canvas.new(30, 20, (1, 2, 3))
    a.text((2, 2), "Ab", 12, (255, 255, 255))
    b.text((2, 2), "Ab", 12, (255, 255, 255))
    assert a.png() == b.png() == encode_png(b.im)
    assert Image.open(io.BytesIO(a.png())).tobytes() == a.im.tobytes()
