"""What a render makes: Markdown pages and data files; and the folders the commands write them to.
A module of its own, free of the rendering code, so the plugin can hold a remembered build without
importing what makes one.

The commands write only into folders that are their own: absent, empty, or carrying the marker an
earlier run of the same command left in them (`Marker`). Anything else is refused with what it
holds, and never emptied: a mistyped `--out` or `--site-dir` must not cost a home folder.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Page:
    """One generated page: where it goes, its Markdown, and the content file it comes from."""

    uri: str
    markdown: str
    edit_path: str | None


@dataclass
class Output:
    """Everything the site is made of: Markdown pages, and data files served as they are.

    Not frozen: an output may be made in two steps. `complete()` adds the data files still to
    be made to `data` itself, in place, since the site folder that writes them holds that very
    dict (engines/session.py); until then `data` holds the pages' share alone."""

    pages: dict[str, Page]
    data: dict[str, bytes]
    # Each page with the signature of its inputs, for the next render to reuse it by.
    signed: dict[str, tuple[str, Page]] = field(default_factory=dict, compare=False)
    # Data files still to be made, once the pages are (a single build makes its data files and
    # the charts its cache lacks while MkDocs writes the pages): `complete` makes them.
    later: list[Callable[[], dict[str, bytes]]] = field(default_factory=list, compare=False)

    def complete(self) -> None:
        """Make the data files still to be made, and add them to `data`, in place."""
        while self.later:
            self.data.update(self.later.pop()())


def write_files(folder: Path, files: dict[str, bytes]) -> None:
    """Write each file into `folder`: its path was checked as it was made (links.safe_path)."""
    made: set[Path] = set()
    for uri, content in files.items():
        target = folder / uri
        if target.parent not in made:
            target.parent.mkdir(parents=True, exist_ok=True)
            made.add(target.parent)
        target.write_bytes(content)


def stays_inside(uri: object) -> bool:
    """Whether `uri` names a file inside the folder it is written to, whatever joins it there:
    relative, no `..`, `.` or empty part, no backslash (a separator elsewhere), no NUL."""
    return (
        isinstance(uri, str)
        and "\0" not in uri
        and "\\" not in uri
        and not uri.startswith("/")
        and all(part not in ("", ".", "..") for part in uri.split("/"))
    )


class Refused(Exception):
    """A folder a command will not write: the message says what was expected and what was
    found. The command names itself before it."""


@dataclass(frozen=True)
class Marker:
    """What makes a folder a command's own: an entry `name` in it that only that command writes.
    A file holding `note`, which says so to whoever opens the folder; or, in a published site
    (`note` None), an empty folder: a server has no address for one, so the site publishes
    nothing more than its pages and files."""

    name: str
    note: str | None

    def on(self, folder: Path) -> bool:
        """Whether `folder` carries the marker: of its kind, and never a link to one."""
        try:
            mode = (folder / self.name).lstat().st_mode
        except OSError:
            return False
        return stat.S_ISDIR(mode) if self.note is None else stat.S_ISREG(mode)

    def put(self, folder: Path) -> None:
        if self.on(folder):
            return
        if self.note is None:
            (folder / self.name).mkdir()
        else:
            (folder / self.name).write_text(self.note, encoding="utf-8")


# A site folder a build wrote (either engine), and the folders it stages one in.
SITE = Marker(".cloudqual-site", None)
# MkDocs empties its site folder but for dot files (mkdocs.utils.clean_directory): a deployment's
# `.git`, `.nojekyll`. A rebuild keeps those, and CNAME, GitHub Pages' custom domain, unless the
# build writes its own.
KEPT_NAMES = frozenset({"CNAME"})
SHOWN = 4  # entries a refusal names; then how many more


def _holds(folder: Path) -> str:
    names = sorted(entry.name for entry in folder.iterdir())
    more = f" and {len(names) - SHOWN} more" if len(names) > SHOWN else ""
    return ", ".join(names[:SHOWN]) + more


def check_writable(folder: Path, marker: Marker, *, writing: str, writer: str) -> None:
    """Refuse `folder` unless `writer` may write it: absent, empty, or carrying `marker`. A
    symbolic link is refused, never written through: what it points at is not the command's.
    `writing` says what would be done, as in "refusing to {writing} {folder}"."""
    if folder.is_symlink():
        raise Refused(
            f"refusing to {writing} {folder}: it is a symbolic link (to {folder.readlink()}); "
            "expected a folder, or none"
        )
    if not folder.exists():
        return
    if not folder.is_dir():
        raise Refused(f"refusing to {writing} {folder}: expected a folder, found a file")
    if marker.on(folder) or not any(folder.iterdir()):
        return
    raise Refused(
        f"refusing to {writing} {folder}: it holds {_holds(folder)}, which {writer} did not "
        f"write (it has no {marker.name}); expected an absent or empty folder, or one that "
        f"{writer} wrote"
    )


def claim(folder: Path, marker: Marker, *, writing: str, writer: str) -> None:
    """Make `folder` the command's own, as `check_writable` allows: created, and marked."""
    check_writable(folder, marker, writing=writing, writer=writer)
    folder.mkdir(parents=True, exist_ok=True)
    marker.put(folder)


def _beside(site_dir: Path, role: str) -> Path:
    """Where a build stages the site (`building`), or keeps the one it replaces (`previous`)."""
    return site_dir.with_name(f".{site_dir.name}.{role}")


def staging(site_dir: Path) -> Path:
    return _beside(site_dir, "building")


def check_site(site_dir: Path) -> None:
    """Refuse a site folder no build may replace, and the folders beside it a build uses.

    A symbolic link is refused rather than built through. The site is replaced whole, by a
    rename beside it: through a link, that would replace the link with a folder and never
    update its target; and following it would empty whatever it points at, where a pull
    request can commit a link named site/ (or .site.building) that points anywhere. A site
    published elsewhere is built there with --site-dir (or mkdocs.yml's site_dir)."""
    unmarked = not site_dir.is_symlink() and site_dir.is_dir() and not SITE.on(site_dir)
    if unmarked and _earlier_build(site_dir):
        SITE.put(site_dir)
    check_writable(site_dir, SITE, writing="write the site into", writer="a build")
    for role in ("building", "previous"):
        check_writable(_beside(site_dir, role), SITE, writing="use", writer="a build")


def _earlier_build(folder: Path) -> bool:
    """Whether `folder` is a site a build wrote before builds marked their sites: its API's
    index, its sitemap and its 404 page, as every build writes them. A contributor's site/ from
    an earlier checkout is taken as the build's own, once, and marked; a folder of anything
    else is not."""
    return all(
        (folder / name).is_file() and not (folder / name).is_symlink()
        for name in ("api/v1/index.json", "sitemap.xml", "404.html")
    )


def remove_own(folder: Path) -> None:
    """Remove a folder a build left (stopped midway): only if it carries the site's marker or
    is empty; anything else there is refused."""
    check_writable(folder, SITE, writing="use", writer="a build")
    if folder.exists():
        shutil.rmtree(folder)


def fresh_staging(site_dir: Path) -> Path:
    """An empty, marked folder beside `site_dir` to build the site in."""
    check_site(site_dir)
    building = staging(site_dir)
    remove_own(building)
    building.mkdir(parents=True)
    SITE.put(building)
    return building


def replace_site(site_dir: Path, built: Path) -> None:
    """Put the `built` site, beside it on the same file system, in place of `site_dir`, as
    `check_site` allows. What MkDocs keeps of the old site is moved into the new one first
    (KEPT_NAMES, and every top-level dot entry); the rest of the old site goes."""
    check_site(site_dir)
    SITE.put(built)
    previous = _beside(site_dir, "previous")
    remove_own(previous)
    if site_dir.exists():
        for entry in site_dir.iterdir():
            kept = entry.name.startswith(".") or entry.name in KEPT_NAMES
            if kept and not os.path.lexists(built / entry.name):
                entry.rename(built / entry.name)
        site_dir.rename(previous)
    built.rename(site_dir)
    shutil.rmtree(previous, ignore_errors=True)
