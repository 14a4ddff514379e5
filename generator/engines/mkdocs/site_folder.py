"""Where MkDocs writes the site: a folder beside `site/`, which replaces `site/` only once the
build has succeeded, so a failed build leaves the previous site as it was.

The site folder must be one a build wrote, or absent or empty (output.check_site): MkDocs would
empty any folder it is given, a home folder included. A rebuild keeps what MkDocs keeps of the old
site (its dot files, a deployment's `.git`), and CNAME. A dirty build updates the folder in place
by design, so it is left to MkDocs, once the folder is known to be a build's.
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

from generator.render import output


class SiteFolder:
    """One build's folder; made in `on_config`, where it starts counting MkDocs' warnings."""

    def __init__(self, site_dir: Path, *, dirty: bool) -> None:
        self.site_dir = site_dir
        self.building: Path | None = None  # until it is made, so a refused build removes nothing
        if dirty:
            output.check_site(site_dir)
        else:
            self.building = output.fresh_staging(site_dir)
        self.warnings = Warnings()
        logging.getLogger("mkdocs").addHandler(self.warnings)

    @property
    def written(self) -> Path:
        """The folder MkDocs is to write into."""
        return self.building or self.site_dir

    def finish(self, data: dict[str, bytes], *, strict: bool) -> None:
        """Write the data files as they are (a Markdown download must not become a page, and
        none needs MkDocs' processing), then put the site in place, unless MkDocs is about to
        abort the build: any warning, under `strict`."""
        logging.getLogger("mkdocs").removeHandler(self.warnings)
        failed = strict and self.warnings.count > 0
        output.write_files(self.written, data)
        if self.building is None:
            output.SITE.put(self.site_dir)  # a dirty build's folder: the next may replace it
            return
        if failed:
            self.discard()
            return
        try:
            output.replace_site(self.site_dir, self.building)
        except output.Refused:  # changed while the site was built
            self.discard()
            raise
        self.building = None

    def discard(self) -> None:
        logging.getLogger("mkdocs").removeHandler(self.warnings)
        if self.building is not None:
            shutil.rmtree(self.building, ignore_errors=True)
            self.building = None


class Warnings(logging.Handler):
    """Counts what MkDocs' strict mode counts, every warning or error its loggers write: with
    any, under strict, MkDocs aborts the build after its last event, so the site stays."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1
