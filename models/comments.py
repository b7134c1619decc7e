"""Names a user chose, made safe for the comment lines of an export: the one sanitiser every exporter uses.

Why: an export (DIMACS, LP, exact cover, ASP facts) heads its formula with
comment lines that name the level, and DIMACS names each variable in one.  A
level's name comes from its file name, and a logic grid's category and value
names come from its author: either may hold a line break.  A comment ends at
the end of its line, so whatever follows a line break in a name would be read
as part of the formula (a file named ``ex2⏎p cnf 1 1⏎-1 0⏎.txt`` would give a
DIMACS file whose header and first clause come from the name).

So a name in a comment is one line of printable characters: every character
some reader takes as the end of a line (LF, CR, VT, FF, the separators
U+001C-U+001E, NEL U+0085, U+2028, U+2029) is a space, every other control or
format character (NUL, a lone surrogate from an undecodable file name, a
bidirectional override) is ``?``, and a very long name is cut.  A format may
name characters of its own to replace (``avoid``): an LP file's comments
never hold a backslash, which opens a comment in some LP readers.
"""

from __future__ import annotations

import unicodedata

from .errors import shorten

#: Longest name or comment text kept in an export, in characters.
COMMENT_WIDTH = 200


def comment_text(text: object, *, avoid: str = "", width: int | None = COMMENT_WIDTH) -> str:
    """``text`` as it may stand after a comment marker: one line, printable, runs of spaces as one, at most
    ``width`` characters (None: any length); each character of ``avoid`` replaced by ``?``."""
    text = str(text)
    if (  # the common case, quickly: a DIMACS file names thousands of variables
        text.isascii()
        and text.isprintable()
        and "  " not in text
        and text == text.strip()
        and (width is None or len(text) <= width)
        and not any(char in text for char in avoid)
    ):
        return text
    kept = []
    for char in text:
        if char.isspace():
            kept.append(" ")
        elif char in avoid or unicodedata.category(char).startswith("C"):
            kept.append("?")
        else:
            kept.append(char)
    cleaned = " ".join("".join(kept).split())
    return cleaned if width is None else shorten(cleaned, width)
