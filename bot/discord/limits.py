"""Discord's size limits, and polite ways to stay inside them."""

from __future__ import annotations

MESSAGE_CHARS = 2000
SELECT_OPTIONS = 25
ROWS = 5
BUTTONS_PER_ROW = 5
CUSTOM_ID_CHARS = 100
LABEL_CHARS = 80
OPTION_VALUE_CHARS = 100
PLACEHOLDER_CHARS = 150
ELLIPSIS = "…"


def truncate(text: str, limit: int = MESSAGE_CHARS) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis where something was cut."""
    if len(text) <= limit:
        return text
    return text[: limit - len(ELLIPSIS)].rstrip() + ELLIPSIS


def split_message(text: str, limit: int = MESSAGE_CHARS) -> list[str]:
    """Chunks of at most ``limit`` characters, cut between lines where possible (a long
    score breakdown reads better in two messages than with a line broken in half)."""
    text = text.strip("\n")  # not spaces: a breakdown's first line may be indented
    if not text.strip():
        return []
    chunks: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:  # a single line longer than a message: hard cut
            if current:
                chunks.append(current)
                current = ""
            chunks.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            chunks.append(current)
            current = line
        else:
            current = candidate
    if current.strip():
        chunks.append(current)
    return [c for c in chunks if c.strip()]
