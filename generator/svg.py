"""Vega-Lite specs to static SVG, through vl-convert, with a cache keyed by each spec's hash.

An unchanged rebuild converts nothing: the cache key is the spec itself plus the converter's
version, so any change to data, encoding or colours, or a converter upgrade, makes a new key.
vl-convert is imported only when something has to be converted.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from importlib.metadata import version
from pathlib import Path
from typing import Any

# Each worker process pays for starting its own converter. On two cores, benchmarks/charts.py
# measured parallel/serial at about 1.0 for 24 cold specs, 0.78 for 48 and 0.62 for 120.
PARALLEL_FROM = 40


def spec_key(spec: dict[str, Any]) -> str:
    text = json.dumps(spec, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(f"{version('vl-convert-python')}\n{text}".encode()).hexdigest()


def _convert(spec: dict[str, Any]) -> bytes:
    import vl_convert

    svg: str = vl_convert.vegalite_to_svg(spec)
    return svg.encode("utf-8")


class SvgStore:
    """Converts specs to SVG, reusing cached results; counts the conversions it really ran."""

    def __init__(self, cache_dir: Path | None, *, workers: int | None = None) -> None:
        self.cache_dir = cache_dir
        self.workers = workers or os.cpu_count() or 1
        self.conversions = 0
        self.memory: dict[str, bytes] = {}

    def _cached(self, key: str) -> bytes | None:
        if key in self.memory:
            return self.memory[key]
        if self.cache_dir is not None and (self.cache_dir / f"{key}.svg").is_file():
            return (self.cache_dir / f"{key}.svg").read_bytes()
        return None

    def _store(self, key: str, svg: bytes) -> None:
        self.memory[key] = svg
        if self.cache_dir is None:
            return
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        # Write then rename, so a build stopped midway never leaves a truncated SVG in the cache.
        partial = self.cache_dir / f"{key}.svg.partial-{os.getpid()}"
        partial.write_bytes(svg)
        partial.replace(self.cache_dir / f"{key}.svg")

    def render(self, specs: dict[str, dict[str, Any]]) -> dict[str, bytes]:
        """The SVG of every spec, by the same name; cold specs convert in parallel."""
        keys = {name: spec_key(spec) for name, spec in specs.items()}
        found = {key: svg for key in set(keys.values()) if (svg := self._cached(key)) is not None}
        cold = sorted({key: name for name, key in keys.items() if key not in found}.items())
        if len(cold) >= PARALLEL_FROM and self.workers > 1:
            # vl-convert runs one JavaScript engine per process, so threads would queue behind
            # it: parallel means processes. "spawn" starts them clean, never forking a process
            # whose converter threads are already running.
            context = multiprocessing.get_context("spawn")
            workers = min(self.workers, len(cold))
            with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
                chunk = max(1, len(cold) // (workers * 4))
                converted = list(
                    pool.map(_convert, (specs[name] for _, name in cold), chunksize=chunk)
                )
        else:
            converted = [_convert(specs[name]) for _, name in cold]
        for (key, _), svg in zip(cold, converted, strict=True):
            self._store(key, svg)
            found[key] = svg
        self.conversions += len(cold)
        return {name: found[key] for name, key in keys.items()}
