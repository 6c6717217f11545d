"""The fresh text of a reply, from plain text, format=flowed and HTML bodies."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.mail.replytext import fresh_text, html_to_text, unflow

QUOTE = "> Your move at table 12.\n> Legal moves:\n>   1. R7+B12\n"


@pytest.mark.parametrize(
    ("text", "fresh"),
    [
        # Top posting under the English, French and German attributions.
        (f"R7+B12\n\nOn Fri, 27 Nov 2026 at 10:00, Bot <play@x.org> wrote:\n{QUOTE}", "R7+B12"),
        (f"#3\n\nLe ven. 27 nov. 2026 à 10:00, Bot <p@x.org> a écrit :\n{QUOTE}", "#3"),
        (f"#3\n\nLe 27/11/2026 à 10:00, Bot a\u00a0écrit\u00a0:\n{QUOTE}", "#3"),
        (f"1\n\nAm 27.11.2026 um 10:00 schrieb Bot <p@x.org>:\n{QUOTE}", "1"),
        # Gmail wraps a long attribution over two lines.
        (
            f"A2@B3\n\nOn Fri, Nov 27, 2026 at 10:00 AM Bot <\nplay@x.org> wrote:\n\n{QUOTE}",
            "A2@B3",
        ),
        # Bottom posting, and answers between quotes.
        (f"On 27/11/2026 10:00, Bot wrote:\n{QUOTE}\ntake 3\n", "take 3"),
        (f"{QUOTE}\ntake 3\n> more history\n\nthanks\n", "take 3\n\nthanks"),
        # A loose attribution right above a quote goes; the same words elsewhere stay.
        (f"Bot wrote:\n{QUOTE}\n#3", "#3"),
        ("#3\nI wrote: nothing", "#3\nI wrote: nothing"),
        # An attribution with no quote under it ends the fresh text (unmarked history).
        ("R7+B12\nOn Fri, 27 Nov 2026, Bot wrote:\nYour move at table 12.", "R7+B12"),
        # Outlook: a header block, with or without its rule; the old separator.
        (
            "take 3\n\n________________________________\nFrom: Bot <p@x.org>\n"
            "Sent: Friday, November 27, 2026 10:00 AM\nTo: Ann\nSubject: Table 12\n\nhistory",
            "take 3",
        ),
        (
            "take 3\n\nFrom: Bot <p@x.org>\nSent: Friday\nTo: Ann\nSubject: x\n\nhistory",
            "take 3",
        ),
        ("1\n-----Original Message-----\nFrom: Bot\nhistory", "1"),
        ("1\n-----Message d'origine-----\nDe : Bot\nhistory", "1"),
        (
            "1\n\nDe : Bot <p@x.org>\nEnvoyé : vendredi\nÀ : Ann\nObjet : Table 12\nhistory",
            "1",
        ),
        (
            "1\n\nVon: Bot <p@x.org>\nGesendet: Freitag\nAn: Ann\nBetreff: Tisch 12\nhistory",
            "1",
        ),
        ("2\n\n---------- Forwarded message ---------\nFrom: x", "2"),
        ("2\n\nBegin forwarded message:\n\nFrom: x", "2"),
        # Signatures.
        ("R7+B12\n-- \nAnn Lee\nLyon", "R7+B12"),
        ("R7+B12\n--\nAnn", "R7+B12"),
        ("1\n\nSent from my iPhone", "1"),
        ("1\n\nEnvoyé de mon iPhone", "1"),
        ("1\n\nVon meinem iPhone gesendet", "1"),
        ("1\n\nGet Outlook for iOS", "1"),
        ("1\n\nHolen Sie sich Outlook für Android<https://aka.ms/AAb9ysg>", "1"),
        ("1\n\nObtenir Outlook pour iOS<https://aka.ms/o0ukef>", "1"),
        # A From: line alone is not a header block: the player wrote it.
        ("From: me to you, #3", "From: me to you, #3"),
        ("1\nFrom: Bot\nSent: Fri\nhistory", "1\nFrom: Bot\nSent: Fri\nhistory"),
        # Two headers right under From: are enough.
        ("1\nFrom: Bot\nTo: Ann\nSubject: x\nhistory", "1"),
        # Lines that start like an attribution, at the very end or above nothing.
        ("R7\nOn my turn", "R7\nOn my turn"),
        ("R7\nLe B12", "R7\nLe B12"),
        ("1\nAnn wrote:\n\n", "1\nAnn wrote:"),
        ("1\nAnn wrote:\n\n> x", "1"),
        ("R7\nOn second thought:\nB12", "R7\nOn second thought:\nB12"),
        # A blank line ends an attribution: only its last line reads (as a loose one).
        ("1\nOn Fri,\n\nBot wrote:\n> x", "1\nOn Fri,"),
        ("1\nOn Fri, 27 Nov,\nBot wrote:", "1"),
        ("1\nOn Fri,\nBot wrote:\n\n\n> x", "1"),
        # An attribution is read over three lines at most; past that, only its last
        # line reads as a loose one.
        ("1\nOn Fri,\nNov 27\n2026, Bot\n<p@x.org> wrote:\n> x", "1\nOn Fri,\nNov 27\n2026, Bot"),
        ("1\n\nOn Fri, Bot wrote:\n\n", "1"),
        ("1\n________________", "1\n________________"),
        ("1\n________________\n\n", "1\n________________"),
        # Moves are never eaten: '#', '|', '@', '+', dashes inside a line.
        ("#3", "#3"),
        ("| 3", "| 3"),
        ("R7+B12 -- my best", "R7+B12 -- my best"),
        ("---\n#3", "---\n#3"),
        # Windows line ends, invisible characters, blank edges.
        ("\r\n\r\n\ufeffR7+B12\r\n\r\n", "R7+B12"),
        ("", ""),
        ("> all quoted\n> nothing new", ""),
    ],
)
def test_fresh_text(text: str, fresh: str) -> None:
    assert fresh_text(text) == fresh


def test_unflow_joins_soft_breaks_and_keeps_quote_depth() -> None:
    text = "R7+B12 is \nmy move\n> quoted \n> more\n>> deeper\n-- \nsig"
    assert unflow(text) == "R7+B12 is my move\n> quoted more\n>> deeper\n-- \nsig"


def test_unflow_delsp_removes_the_soft_break_space() -> None:
    assert unflow("the blue tiles wi \nll pay", delsp=True) == "the blue tiles will pay"
    assert unflow("the blue tiles wi \nll pay", delsp=False) == "the blue tiles wi ll pay"


def test_unflow_unstuffs_a_leading_space() -> None:
    assert unflow(" From now on\n >not a quote") == "From now on\n>not a quote"


def test_unflow_ends_a_paragraph_at_a_change_of_depth() -> None:
    # The flowed line stays a line of its own: it is not joined into the quote.
    assert unflow("mine \n> theirs").split("\n") == ["mine ", "> theirs"]


@pytest.mark.parametrize(
    ("html", "text"),
    [
        (
            '<div dir="ltr">R7+B12</div><br><div class="gmail_quote gmail_quote_container">'
            '<div class="gmail_attr">On Fri wrote:<br></div>'
            '<blockquote class="gmail_quote">old <b>move</b></blockquote></div>',
            "R7+B12",
        ),
        (
            '<div>1</div><br><blockquote type="cite">On 27 Nov, Bot wrote:<br>old'
            '<blockquote type="cite">older</blockquote>still old</blockquote><div>thanks</div>',
            "1\n\nthanks",
        ),
        (
            '<p>take 3</p><div id="appendonsend"></div><hr><div id="divRplyFwdMsg">'
            "<b>From:</b> Bot</div><div>history</div><p>more history</p>",
            "take 3",
        ),
        (
            '<div class="moz-cite-prefix">On 27/11/2026, Bot wrote:<br></div>'
            '<blockquote type="cite">old</blockquote><p>A2@B3</p>'
            '<div class="moz-signature">-- <br>Ann</div>',
            "A2@B3",
        ),
        (
            "<html><head><title>t</title><style>p {color: red}</style></head>"
            "<body><p>R7&#43;B12&nbsp;</p><script>alert(1)</script></body></html>",
            "R7+B12",
        ),
        # Inside <pre>, runs of spaces and line breaks stay (indentation does not).
        # Outlook desktop's Word HTML: no divRplyFwdMsg, a bordered header block instead
        # (fresh_text then cuts it as a header block).
        (
            "<div class=WordSection1><p class=MsoNormal>take 3<o:p></o:p></p>"
            '<div style="border:none;border-top:solid #E1E1E1 1.0pt"><p class=MsoNormal>'
            "<b>From:</b> Bot &lt;p@x.org&gt;<br><b>Sent:</b> Friday<br><b>To:</b> Ann<br>"
            "<b>Subject:</b> Table 12</p></div><p class=MsoNormal>history</p></div>",
            "take 3\n\nFrom: Bot <p@x.org>\nSent: Friday\nTo: Ann\nSubject: Table 12\n\nhistory",
        ),
        (
            '<div>R7+B12</div><div class="yahoo_quoted"><div>On Friday, Bot wrote:</div>'
            "<div>old</div></div>",
            "R7+B12",
        ),
        ("<pre>line  one\n  line two</pre>", "line  one\nline two"),
        ("R7+B12<br/>second<br />third", "R7+B12\nsecond\nthird"),
        ("<pre>x  y</pre><p>c <b>  </b> d</p>", "x  y\n\nc d"),
        ("<pre>x  <b>y</b>  z</pre>", "x  y  z"),
        ("<div>a</div><div>b</div><div><br></div><div>c</div>", "a\nb\n\nc"),
        ("<p>a</p>\n<p>b</p>", "a\n\nb"),
        ("<p>&lt;not a tag&gt; &amp; &eacute;</p>", "<not a tag> & é"),
        ("<div><p>unclosed <b>bold<div>next", "unclosed bold\nnext"),
        ("", ""),
    ],
)
def test_html_to_text(html: str, text: str) -> None:
    assert html_to_text(html) == text


def test_word_html_history_is_cut_once_read_as_text() -> None:
    html = (
        '<p class=MsoNormal>take 3</p><div style="border-top:solid"><p class=MsoNormal>'
        "<b>De&nbsp;:</b> Bot<br><b>Envoy&eacute;&nbsp;:</b> vendredi<br><b>&Agrave;&nbsp;:</b>"
        " Ann<br><b>Objet&nbsp;:</b> Table 12</p></div><p>history</p>"
    )
    assert fresh_text(html_to_text(html)) == "take 3"


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_any_text_gives_text_without_quote_lines(text: str) -> None:
    fresh = fresh_text(text)
    assert all(not line.lstrip().startswith(">") for line in fresh.split("\n"))
    assert fresh == fresh.strip("\n")


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from("<>/=\"' abpdivblockquote&#;\n"), max_size=300))
def test_any_html_converts_without_raising(html: str) -> None:
    assert isinstance(html_to_text(html), str)
    assert isinstance(unflow(html, delsp=True), str)
