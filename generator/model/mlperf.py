"""MLPerf's words the records and the derived facts share with the importer: the availability
that makes a system rentable in a cloud, and how a framework's release is compared. Here, below
both, so a caveat rule that reads them never loads the importer."""

from __future__ import annotations

import re

CLOUD = "Available cloud"
# A container release as NVIDIA numbers them: year and month, "24.09".
RELEASE = re.compile(r"(?<![\d.])\d{2}\.\d{2}(?![\d.])")


def same_release(described: str | None, in_logs: str) -> bool:
    """Whether a description's framework names the release the logs give. Releases are
    compared by their numbers ("25.09"), since a NeMo container is built on the PyTorch
    container of the same release and the logs name the one, the description often the other;
    where the logs give no number, by the whole name."""
    logged = set(RELEASE.findall(in_logs))
    if not logged:
        return described is not None and described.casefold() == in_logs.casefold()
    return logged <= set(RELEASE.findall(described or ""))
