"""libyaml's C parser as a front end for the files that need no more: the real content's 247
records parse in 0.03 s through it, and in 0.47 s through ruamel's pure-Python parser.

It is a front end only. Its events are handed to the reader as ruamel's own, so every value is
still resolved, bounded and checked by the reader (values.py), and it is used only where it reads
exactly as ruamel (with the reader's fixes) does:
- only for a file without the constructs where YAML 1.1, which libyaml reads, and YAML 1.2 part,
  or where the reader corrects ruamel (`plain`);
- only for a file that reads without a single problem: any problem, a parse error included, and
  the file is read again by ruamel, so every message and position is ruamel's, as before.
tests/load/test_libyaml.py holds both readings equal on every content file, every yaml-test-suite
case and generated YAML.
"""

from __future__ import annotations

import re
from collections.abc import Generator
from functools import cache
from typing import Any

from ruamel.yaml import events as ruamel

# What sends a file to ruamel, each where the two were found to read differently (yaml-test-suite
# 652Z, 7W2P, C2DT, UKK6/01, S98Z, X4QW and the tab cases): a tab; a "?" that may begin a key
# (at a line's start, after its indentation and dashes, or in a flow collection);
# a key that begins with ":"; a quoted scalar or a closing bracket with ":" after it, right
# after or past spaces (libyaml reads `["x" :y]` as a mapping in a sequence, ruamel refuses it;
# issue 43); a line of spaces alone (in a block scalar); a comment right after a block scalar's
# indicator; and a directive or document marker; a byte order mark past the start, after which
# libyaml counts one column less. A file that only holds one in its text (a "?" in a summary) is
# read by ruamel too: slower, never different.
_NOT_PLAIN = re.compile(
    r"""\t|\ufeff|^[ -]*\?|[{\[,] *\?|^[ -]*:|["'\]}] *:|^ +$|[|>][-+0-9]*#|^%|^---|^\.\.\.""",
    re.MULTILINE,
)


def plain(text: str) -> bool:
    """Whether `text` is written in the style that libyaml reads as the reader does, and PyYAML
    has libyaml to read it with (a PyYAML built without it has only its Python parser)."""
    return _NOT_PLAIN.search(text) is None and _with_libyaml()


@cache
def _with_libyaml() -> bool:
    import yaml

    return bool(getattr(yaml, "__with_libyaml__", False))


class Unsure(Exception):
    """An event whose position ruamel gives otherwise: the reader stops on it as on any error it
    meets (a problem), and `load_text` has ruamel read the file again."""


def events(text: str) -> Generator[Any, None, None]:
    """libyaml's events of `text` as ruamel's: the same classes, values, styles and marks (each
    with its line, column and character index). A parse error is raised as PyYAML's."""
    import yaml

    for event in yaml.parse(text, Loader=yaml.CSafeLoader):
        # An empty value: libyaml places it after the ":", ruamel at the next token.
        if type(event).__name__ == "ScalarEvent" and not event.value and not event.style:
            raise Unsure("an empty value")
        yield _as_ruamel(event)


def _as_ruamel(event: Any) -> Any:
    start, end = event.start_mark, event.end_mark
    kind = type(event).__name__
    if kind == "ScalarEvent":
        # libyaml marks a plain scalar's style as "", ruamel as None.
        style = event.style or None
        return ruamel.ScalarEvent(
            event.anchor, event.tag, event.implicit, event.value, start, end, style
        )
    if kind in ("MappingStartEvent", "SequenceStartEvent"):
        made = getattr(ruamel, kind)
        return made(event.anchor, event.tag, event.implicit, start, end, event.flow_style)
    if kind == "AliasEvent":
        return ruamel.AliasEvent(event.anchor, start, end)
    if kind == "DocumentStartEvent":
        return ruamel.DocumentStartEvent(start, end, event.explicit, event.version, event.tags)
    if kind == "DocumentEndEvent":
        return ruamel.DocumentEndEvent(start, end, event.explicit)
    return getattr(ruamel, kind)(start, end)  # stream start and end, collection ends
