"""The characters refused in every string of a content file, and how a refusal names one."""

from __future__ import annotations

import re

# Characters refused in every string, keys included. YAML refuses most of them as raw bytes, but
# its escapes ("\x0b", "\e", "\0", "\ud800", "\uFFFE") put them inside quoted text, where they
# pass the schema and then break the pages, the JSON API or the chart converter far from the file
# (vl-convert panics with no position). Refused:
# - C0 controls other than tab and line feed, which block scalars hold legitimately; carriage
#   return only ever comes from a "\r" escape, as raw line breaks are read as line feeds;
# - DEL and the C1 controls, NEL included: invisible, and shown differently by every tool;
# - the line and paragraph separators: YAML 1.1 and ruamel read them as line breaks, YAML 1.2 as
#   text, so a file holding one reads differently by tool, and they end lines in JavaScript;
# - surrogates, which cannot be written as UTF-8 at all;
# - the non-characters U+FDD0-U+FDEF and the last two code points of every plane, which Unicode
#   keeps for programs' internal use and XML refuses.
_NON_CHARACTERS = "\ufdd0-\ufdef" + "".join(
    f"{chr(plane + 0xFFFE)}{chr(plane + 0xFFFF)}" for plane in range(0, 0x110000, 0x10000)
)
UNPUBLISHABLE = re.compile(
    f"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff{_NON_CHARACTERS}]"
)
# A key names a field or a record on one line, so it holds no tab or line feed either.
UNPUBLISHABLE_IN_KEY = re.compile(f"[\t\n]|{UNPUBLISHABLE.pattern}")


def refused_character(character: str) -> str:
    """The found part of a message about a refused character, named by its Unicode class."""
    code = ord(character)
    if 0xD800 <= code <= 0xDFFF:
        kind = "the surrogate"
    elif code in (0x2028, 0x2029):
        kind = "the line separator" if code == 0x2028 else "the paragraph separator"
    elif code >= 0xFDD0 and (code <= 0xFDEF or code & 0xFFFE == 0xFFFE):
        kind = "the non-character"
    else:
        kind = "the control character"
    return f"expected printable text, found {kind} U+{code:04X}"


def code_point(character: object) -> int:
    # ruamel passes the offending character as a str or as its code point, by version.
    return character if isinstance(character, int) else ord(str(character))
