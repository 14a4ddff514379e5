"""The bounds on one content file: its bytes, values, list items, mapping keys and nesting."""

from __future__ import annotations

# Limits that no real record comes near, so that a hostile file fails in well under a second
# instead of holding the build (a 63 MB file once took 129 s and 3.5 GB before its error). The
# largest record, content/validations/crusoe-hgx-b300-exemplar.yaml, has 8.7 kB, 184 values, a
# list of 20 items, a mapping of 17 keys and 4 levels of nesting. Pure-Python ruamel reads about
# 10,000 values a second on a busy 2-core machine, so a file at the limits takes half a second.
MAX_FILE_BYTES = 256 * 1024  # 30 times the largest record
MAX_VALUES = 5_000  # every key, value and item in one file: 27 times the most in a record
MAX_LIST_ITEMS = 500  # 25 times the longest list
MAX_MAPPING_KEYS = 500  # 29 times the widest mapping
# Records nest 4 levels deep; 32 leaves room for any schema change while keeping the recursion
# of values.py far from Python's limit and the scanner fast: its cost per token grows with the
# flow depth, so 2,000 nested brackets on one line took it 14 s.
MAX_DEPTH = 32


def too_deep(depth: int) -> str:
    """The message for nesting past MAX_DEPTH, which the scanner and the value walk both give."""
    return (
        f"expected at most {MAX_DEPTH} levels of nested lists and mappings, "
        f"found level {depth} here"
    )
