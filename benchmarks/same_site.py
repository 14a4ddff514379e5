"""Whether a change of the code leaves the built site as it was, byte for byte, on the real
content: what a change that only moves code must show.

Run: .venv/bin/python benchmarks/same_site.py BASE [HEAD] [--engine mkdocs|render]

BASE and HEAD are git revisions; HEAD defaults to the working tree as it is, uncommitted
changes included. Each revision is checked out into a temporary worktree and built there, by
its own code (its folder first on PYTHONPATH, ahead of the installed package) with this
environment's Python and libraries, each with a cache folder of its own and the same as-of
date, so neither build reuses anything of the other. `--engine mkdocs` (the default) runs
`mkdocs build --strict`, the site Maintainers publish; `--engine render` runs `cloudqual render
--out`, the Markdown and data files alone.

It prints how many files each build wrote, how many are the same, and every file that differs
or is in one build only, with the first line that differs. A gzip file is compared by what it
holds: its header carries the time it was written. Exits 1 when anything differs.
"""

from __future__ import annotations

import argparse
import gzip
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
AS_OF = "2026-12-02"


def checkout(revision: str | None, into: Path) -> Path:
    """The project at `revision` in a new worktree under `into`; the working tree for None."""
    if revision is None:
        return ROOT
    into.mkdir(parents=True)
    folder = into / "tree"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--quiet", "--detach", str(folder), revision],
        check=True,
    )
    return folder


def build(tree: Path, out: Path, cache: Path, engine: str) -> None:
    """The site of `tree`, built by `tree`'s own code into `out`."""
    env = {
        **os.environ,
        "PYTHONPATH": str(tree),
        "CLOUDQUAL_AS_OF": AS_OF,
        "CLOUDQUAL_CACHE_DIR": str(cache),
        "NO_MKDOCS_2_WARNING": "1",
    }
    # Which code ran is checked, not assumed: an installed copy of the package must not win.
    found = subprocess.run(
        [sys.executable, "-c", "import generator; print(generator.__file__)"],
        env=env, cwd=tree, check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    if not Path(found).is_relative_to(tree):
        raise SystemExit(f"same_site: {tree} would build with the package at {found}")
    if engine == "mkdocs":
        command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)]
    else:
        command = [sys.executable, "-m", "generator.cli", "render", "--out", str(out)]
    # What the build prints is not compared; what it fails with is shown as it is.
    subprocess.run(command, env=env, cwd=tree, check=True, stdout=subprocess.DEVNULL)


def files(folder: Path) -> dict[str, bytes]:
    """Every file below `folder` by its path, a gzip file by what it holds."""
    found = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            data = path.read_bytes()
            found[path.relative_to(folder).as_posix()] = (
                gzip.decompress(data) if path.suffix == ".gz" else data
            )
    return found


def first_difference(a: bytes, b: bytes) -> str:
    """The first line in which `a` and `b` differ, each shown around its first differing byte."""
    for number, (left, right) in enumerate(zip(a.splitlines(), b.splitlines(), strict=False), 1):
        if left != right:
            pairs = enumerate(zip(left, right, strict=False))
            at = next((i for i, (x, y) in pairs if x != y), min(len(left), len(right)))
            start = max(at - 40, 0)
            return f"line {number}: {left[start : at + 60]!r} / {right[start : at + 60]!r}"
    return f"one is longer: {len(a)} / {len(b)} bytes"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", help="the revision to compare with")
    parser.add_argument("head", nargs="?", help="a revision (default: the working tree)")
    parser.add_argument("--engine", choices=["mkdocs", "render"], default="mkdocs")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="same-site-") as temporary:
        work = Path(temporary)
        trees: list[Path] = []
        try:
            built = []
            for index, revision in enumerate((args.base, args.head)):
                trees.append(checkout(revision, work / str(index)))
                out = work / f"site-{index}"
                build(trees[-1], out, work / f"cache-{index}", args.engine)
                built.append(files(out))
        finally:
            for tree in trees:
                if tree != ROOT:
                    subprocess.run(
                        ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                        check=False,
                    )
            subprocess.run(["git", "-C", str(ROOT), "worktree", "prune"], check=False)
    if not all(built):  # two empty folders would read as the same site
        raise SystemExit("same_site: a build wrote no file")
    base, head = built
    differ = sorted(p for p in base.keys() & head.keys() if base[p] != head[p])
    only_base, only_head = sorted(base.keys() - head.keys()), sorted(head.keys() - base.keys())
    same = len(base.keys() & head.keys()) - len(differ)
    label = args.head or "the working tree"
    print(
        f"same_site ({args.engine}): {args.base}: {len(base)} files; {label}: {len(head)} files; "
        f"{same} the same, {len(differ)} differ, {len(only_base)} only in {args.base}, "
        f"{len(only_head)} only in {label}"
    )
    for path in differ:
        print(f"  differs: {path}: {first_difference(base[path], head[path])}")
    for path in only_base:
        print(f"  only in {args.base}: {path}")
    for path in only_head:
        print(f"  only in {label}: {path}")
    return 1 if differ or only_base or only_head else 0


if __name__ == "__main__":
    sys.exit(main())
