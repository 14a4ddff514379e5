"""The content security policy and referrer policy every page carries, as `<meta>` tags.

The policy is the last line of defence: content is escaped and sanitized before it reaches a page,
and if that ever fails, a browser still runs no script that the theme did not ship. Scripts load
from the site itself; inline scripts run only when they are one of the theme's own few inline
scripts, allowed by hash. The hashes are not taken from the page being served, which could hold
an injected script, but from a fixed table of the pinned themes' scripts (Material for MkDocs 9.8,
and Zensical 0.0.73, whose bundled theme is Material's successor). A theme upgrade that changes
them fails the browser tests, which assert that no script is blocked.
"""

from __future__ import annotations

import base64
import hashlib
import re

# The theme's one inline script that varies from page to page: it names the site's root, relative
# to the page ("..", "../..") or, on the 404 page, as a path ("/", or the site_url's path). It is
# matched with that path blanked, so only a path of URL path characters may vary.
_SCOPE = re.compile(r'^__md_scope=new URL\("[A-Za-z0-9._~/-]*",location\)')
_SCOPE_BLANK = '__md_scope=new URL("",location)'

# sha256 of each inline script Material 9.8 and Zensical 0.0.73 write, the scope script with its
# path blanked.
THEME_SCRIPTS = frozenset(
    {
        # __md_scope, __md_get, __md_set: the theme's local storage helpers
        "frNoT9rNKIH2e5QomDJzop2HdNi8gmIq+bZajsEDKpA=",
        # the same helpers as Zensical writes them, with a hash helper of its own (__md_hash)
        "IT1XGoa9VozLZb+Syjz5UoTYwUCZcYmwJypQO3L6OYg=",
        # the palette: applies the reader's stored light or dark choice before first paint
        "DrEMJJ29sL7vIloQzly+VUGMxKcBTMII+OfW7Y8AkG4=",
        # opens a content tab named by the address's fragment
        "/8wPdzX9q0NNJXyA5lzsLojXFpkeaXVxhbfkUOQaWy8=",
    }
)

_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.DOTALL)
_CHARSET = '<meta charset="utf-8">'

# Styles stay inline-capable: the theme and its icons set style attributes from script, and a
# style cannot run code. Images may be data: URIs, which the theme's icons use.
_DIRECTIVES = (
    "default-src 'self'",
    "img-src 'self' data:",
    "style-src 'self' 'unsafe-inline'",
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
)
REFERRER = '<meta name="referrer" content="no-referrer">'


def digest(script: str) -> str:
    return base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")


def is_theme_script(script: str) -> bool:
    """Whether an inline script is one of the theme's own (the scope script at any depth)."""
    return digest(_SCOPE.sub(_SCOPE_BLANK, script, count=1)) in THEME_SCRIPTS


def policy(page_html: str) -> str:
    """The policy for one page: its theme scripts allowed by hash, and nothing else inline."""
    allowed = sorted({digest(s) for s in _INLINE_SCRIPT.findall(page_html) if is_theme_script(s)})
    scripts = " ".join(["'self'", *(f"'sha256-{h}'" for h in allowed)])
    return "; ".join([*_DIRECTIVES[:1], f"script-src {scripts}", *_DIRECTIVES[1:]])


def protect(page_html: str) -> str:
    """`page_html` with the policies as the first elements of its head, before any content."""
    at = page_html.find(_CHARSET)
    if at < 0:
        raise ValueError(f"expected the theme's {_CHARSET} to place the security policy after")
    end = at + len(_CHARSET)
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy(page_html)}">{REFERRER}'
    return page_html[:end] + meta + page_html[end:]
