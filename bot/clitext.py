"""The sentences of the command line's own answers (``tables``, ``ratings``, ``replay``,
``backup``, ``check``'s read-only line), from ``templates/<locale>/cli/``: a French reader
gets French, as in Discord. Imported only when a subcommand runs, so ``urbanist --help``
stays light."""

from __future__ import annotations

import sys
from typing import Any

LOCALES = ("en", "fr")


def say(template: str, locale: str, **context: Any) -> str:
    """``templates/<locale>/cli/<template>.txt`` rendered, without its outer blank lines."""
    from bot.text import Renderer

    return Renderer().render_template(f"cli/{template}", context, locale=locale)


def refuse(command: str, template: str, locale: str, **context: Any) -> None:
    """One line on stderr, prefixed by the command as every refusal of the CLI is."""
    print(f"urbanist {command}: {say(template, locale, **context)}", file=sys.stderr)
