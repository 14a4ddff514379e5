"""Real builds for the end-to-end tests: a project copied to a temporary folder, built by MkDocs."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

from conftest import BUILD, ROOT, copy_content, require


def make_project(folder: Path, content: Path, overlay: Path | None = None) -> Path:
    """A buildable project: this repository's mkdocs.yml and templates, with the given content."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(ROOT / "mkdocs.yml", folder / "mkdocs.yml")
    shutil.copytree(ROOT / "templates", folder / "templates")
    copy_content(content, folder / "content", overlay)
    return folder


def mkdocs_build(
    project: Path, *, strict: bool = True, **env: str
) -> subprocess.CompletedProcess[str]:
    require(BUILD, "builds a site with MkDocs")
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", *(["--strict"] if strict else [])],
        cwd=project,
        capture_output=True,
        text=True,
        # Material's end-of-life banner is not a build warning; keep it out of the log under test.
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", **env},
        check=False,
        timeout=300,
    )


def zensical_build(project: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """`cloudqual build --engine zensical` in `project`, as a maintainer runs it."""
    require(BUILD, "builds a site with Zensical")
    return subprocess.run(
        [sys.executable, "-m", "generator.cli", "build", "--engine", "zensical"],
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        check=False,
        timeout=600,
    )


def tree_digest(folder: Path) -> dict[str, str]:
    """Every file under `folder` and the hash of its bytes."""
    return {
        path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


# Elements whose edges separate words when a page is read as text.
_BLOCKS = {"p", "div", "li", "td", "th", "tr", "h1", "h2", "h3", "br", "dt", "dd", "blockquote"}


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.skip += tag in ("script", "style")
        if tag in _BLOCKS:
            self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        self.skip -= tag in ("script", "style")
        if tag in _BLOCKS:
            self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data)


def main_text(html: str) -> str:
    """The visible text of a page's article, whitespace collapsed."""
    article = html[html.index("<article") : html.index("</article>")]
    parser = _Text()
    parser.feed(article)
    return re.sub(r"\s+", " ", "".join(parser.parts))


@contextlib.contextmanager
def mkdocs_serve(project: Path) -> Iterator[str]:
    """`mkdocs serve` of `project` on a free loopback port: its base URL, while it runs."""
    require(BUILD, "serves a site with mkdocs serve")
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "--dev-addr", f"127.0.0.1:{port}"],
        cwd=project,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.terminate()
        server.wait(timeout=30)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for(url: str, text: str, seconds: float = 60) -> str:
    """The page at `url` once it contains `text`, polling while the server builds."""
    deadline = time.monotonic() + seconds
    body = ""
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:  # noqa: S310 - loopback only
                body = response.read().decode("utf-8")
            if text in body:
                return body
        except OSError:
            pass
        time.sleep(0.5)
    return body
