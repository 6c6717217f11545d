"""The shipped fonts: names in any script draw as glyphs, a missing glyph as a box."""

from __future__ import annotations

from PIL import Image, ImageChops, ImageDraw

from engine.fonts import FALLBACK, PLACEHOLDER, REGULAR, font, has_glyph
from engine.fonts.cmap import codepoints


def ink(text: str, size: int = 24, anchor: str = "la") -> Image.Image:
    im = Image.new("L", (400, 60), 0)
    ImageDraw.Draw(im).text((10, 30 if anchor[1] != "a" else 5), text, fill=255,
                            font=font(size), anchor=anchor)
    return im


def test_the_licences_are_shipped_beside_the_fonts() -> None:
    for name in ("LICENSE-DejaVu.txt", "LICENSE-DroidSansFallback.txt"):
        assert (REGULAR.parent / name).stat().st_size > 1000
    assert "Apache License" in (REGULAR.parent / "LICENSE-DroidSansFallback.txt").read_text()


def test_the_cmap_reader_agrees_with_what_the_fonts_are_known_to_hold() -> None:
    latin = codepoints(REGULAR)
    cjk = codepoints(FALLBACK)
    assert {ord(c) for c in "Zoé Jürgen Ωμέγα Жук"} <= latin
    assert ord("王") not in latin and {ord(c) for c in "王李小龙한あ"} <= cjk
    assert ord("🦄") not in latin | cjk


def test_chinese_draws_glyphs_not_the_notdef_box() -> None:
    # Two different characters give two different pictures only if real glyphs are drawn.
    assert ImageChops.difference(ink("王"), ink("龙")).getbbox() is not None
    assert ink("李小龙").getbbox() is not None


def test_a_glyph_no_font_has_becomes_the_visible_placeholder() -> None:
    assert not has_glyph("🦄")
    assert ImageChops.difference(ink("a🦄b"), ink(f"a{PLACEHOLDER}b")).getbbox() is None
    f = font(20)
    assert f.getlength("a🦄b") == f.getlength(f"a{PLACEHOLDER}b")


def test_an_emoji_modifier_adds_no_second_box() -> None:
    f = font(20)
    assert f.getlength("👍🏽") == f.getlength("👍") == f.getlength(PLACEHOLDER)


def test_text_dejavu_covers_is_measured_exactly_as_before() -> None:
    from PIL import ImageFont

    plain = ImageFont.truetype(str(REGULAR), 20, layout_engine=ImageFont.Layout.BASIC)
    for text in ("Zoé", "Jürgen wins!", "R7+B12"):
        assert font(20).getbbox(text) == plain.getbbox(text)
        assert font(20).getlength(text) == plain.getlength(text)


def test_mixed_text_is_anchored_like_plain_text() -> None:
    d = ImageDraw.Draw(Image.new("L", (10, 10)))
    for anchor in ("lm", "mm", "rm", "ls", "la"):
        mixed = d.textbbox((200, 30), "Ann 王", font=font(22), anchor=anchor)
        width = font(22).getlength("Ann 王")
        expect_left = {"l": 200, "m": 200 - width / 2, "r": 200 - width}[anchor[0]]
        assert abs(mixed[0] - expect_left) <= 2, anchor
        assert abs((mixed[2] - mixed[0]) - width) <= 3, anchor
    # The drawn ink lies inside the box textbbox reports.
    im = ink("Ann 王", anchor="lm")
    box = ImageDraw.Draw(Image.new("L", (10, 10))).textbbox((10, 30), "Ann 王", font=font(24),
                                                            anchor="lm")
    got = im.getbbox()
    assert got is not None
    assert got[0] >= box[0] - 1 and got[2] <= box[2] + 1
    assert got[1] >= box[1] - 1 and got[3] <= box[3] + 1
