"""The accuracy a run's logs report, read as MLCommons' submission checker reads it, and which of
the closed division's targets it would meet.

The open division holds a result to no accuracy target (`inference_rules.adoc`, "Relaxed
constraints for the Open division"), so an open result's page cannot say "99% of the FP32
reference": it says what `accuracy/accuracy.txt` reports instead, and whether that meets the
closed division's targets for the benchmark, so a buyer sees what an open figure traded away.

The tables are the checker's (mlcommons/inference: `tools/submission/submission_checker.py` at
the tags v4.1 and v5.1; `submission_checker/constants.py` at 6d0cf9d, the last commit before
v6.0 was published): `ACC_PATTERN`, and per round `accuracy-target` (each metric's lower bound)
and `accuracy-upper-limit`. A value is matched line by line with `re.match`, as the checker
does, the last match of a metric winning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# The checker's patterns at v5.1 (a superset of v4.1's, reading v4.1's files alike).
PATTERNS = {
    "acc": r"^(?:\{\"accuracy|accuracy)[\": ]*=?\s*([\d\.]+).*",
    "AUC": r"^AUC=([\d\.]+).*",
    "mAP": r".*(?:mAP=|'Total':)\s*([\d.]+)",
    "F1": r"^{[\"\']exact_match[\"\']\:\s*[\d\.]+,\s*[\"\']f1[\"\']\:\s*([\d\.]+)}",
    "WER": r"Word Error Rate\:.*, accuracy=([0-9\.]+)%",
    "DICE": r"Accuracy\:\s*mean\s*=\s*([\d\.]+).*",
    "ROUGE1": r".*'rouge1':\s+'?([\d.]+)'?.*",
    "ROUGE2": r".*'rouge2':\s+'?([\d.]+)'?.*",
    "ROUGEL": r".*'rougeL':\s+'?([\d.]+)'?.*",
    "ROUGELSUM": r".*'rougeLsum':\s([\d.]+).*",
    "GEN_LEN": r".*'gen_len':\s([\d.]+).*",
    "TOKENS_PER_SAMPLE": r".*'tokens_per_sample':\s([\d.]+).*",
    "CLIP_SCORE": r".*'CLIP_SCORE':\s+'?([\d.]+).*",
    "FID_SCORE": r".*'FID_SCORE':\s+'?([\d.]+).*",
    "gsm8k_accuracy": r".*'gsm8k':\s([\d.]+).*",
    "mbxp_accuracy": r".*'mbxp':\s([\d.]+).*",
    "exact_match": r".*'exact_match':\s([\d.]+).*",
    # v6.0's new metrics (the checker @6d0cf9d).
    "ACCURACY": r"Word Error Rate\:.*, accuracy=([0-9\.]+)%",
    "DLRM_NE": r".*metric/lifetime_ne/rating:\s*([\d\.]+).*",
    "DLRM_ACC": r".*metric/lifetime_accuracy/rating:\s*([\d\.]+).*",
    "DLRM_AUC": r".*metric/lifetime_gauc/rating:\s*([\d\.]+).*",
    "vbench_score": r".*'vbench_score':\s([\d.]+).*",
    "F1_HIERARCHICAL": r'\{.*"f1":\s*([\d\.]+).*\}',
}
_COMPILED = {name: re.compile(pattern) for name, pattern in PATTERNS.items()}

Bounds = tuple[tuple[str, float], ...]

_LLAMA2 = (("ROUGE1", 44.4312), ("ROUGE2", 22.0352), ("ROUGEL", 28.6162))
_GPTJ = (("ROUGE1", 42.9865), ("ROUGE2", 20.1235), ("ROUGEL", 29.9881))


def _share(metrics: tuple[tuple[str, float], ...], fraction: float) -> Bounds:
    return tuple((name, value * fraction) for name, value in metrics)


# Each benchmark's lower bounds, per round: the checker's "accuracy-target".
_TARGETS_V41: dict[str, Bounds] = {
    "resnet": (("acc", 76.46 * 0.99),),
    "retinanet": (("mAP", 37.55 * 0.99),),
    "bert-99": (("F1", 90.874 * 0.99),),
    "bert-99.9": (("F1", 90.874 * 0.999),),
    "dlrm-v2-99": (("AUC", 80.31 * 0.99),),
    "dlrm-v2-99.9": (("AUC", 80.31 * 0.999),),
    "3d-unet-99": (("DICE", 0.86170 * 0.99),),
    "3d-unet-99.9": (("DICE", 0.86170 * 0.999),),
    "gptj-99": (*_share(_GPTJ, 0.99), ("GEN_LEN", 4016878 * 0.9)),
    "gptj-99.9": (*_share(_GPTJ, 0.999), ("GEN_LEN", 4016878 * 0.9)),
    "llama2-70b-99": (*_share(_LLAMA2, 0.99), ("TOKENS_PER_SAMPLE", 294.45 * 0.9)),
    "llama2-70b-99.9": (*_share(_LLAMA2, 0.999), ("TOKENS_PER_SAMPLE", 294.45 * 0.9)),
    "stable-diffusion-xl": (("CLIP_SCORE", 31.68631873), ("FID_SCORE", 23.01085758)),
    "mixtral-8x7b": (
        ("ROUGE1", 45.4911 * 0.99),
        ("ROUGE2", 23.2829 * 0.99),
        ("ROUGEL", 30.3615 * 0.99),
        ("TOKENS_PER_SAMPLE", 145.9 * 0.9),
        ("gsm8k_accuracy", 73.78 * 0.99),
        ("mbxp_accuracy", 60.12 * 0.99),
    ),
}
_TARGETS_V51: dict[str, Bounds] = {
    **{k: v for k, v in _TARGETS_V41.items() if not k.startswith(("gptj", "mixtral"))},
    "llama3.1-8b": (
        ("ROUGE1", 38.7792 * 0.99),
        ("ROUGE2", 15.9075 * 0.99),
        ("ROUGEL", 24.4957 * 0.99),
        ("ROUGELSUM", 35.793 * 0.99),
        ("GEN_LEN", 8167644 * 0.9),
    ),
    "mixtral-8x7b": (
        ("ROUGE1", 45.5989 * 0.99),
        ("ROUGE2", 23.3526 * 0.99),
        ("ROUGEL", 30.4608 * 0.99),
        ("TOKENS_PER_SAMPLE", 144.84 * 0.9),
        ("gsm8k_accuracy", 73.66 * 0.99),
        ("mbxp_accuracy", 60.16 * 0.99),
    ),
    "llama3.1-405b": (
        ("ROUGEL", 21.6666 * 0.99),
        ("exact_match", 90.1335 * 0.99),
        ("TOKENS_PER_SAMPLE", 684.68 * 0.9),
    ),
    "rgat": (("acc", 0.7286 * 0.99),),
    "deepseek-r1": (("exact_match", 0.99 * 81.9132), ("TOKENS_PER_SAMPLE", 0.9 * 3949.648)),
    "whisper": (("WER", 2.0671 * 0.99),),
}
_TARGETS_V60: dict[str, Bounds] = {
    **{k: v for k, v in _TARGETS_V51.items() if k not in ("deepseek-r1", "whisper")},
    "llama3.1-8b-edge": (
        ("ROUGE1", 39.06 * 0.99),
        ("ROUGE2", 16.1147 * 0.99),
        ("ROUGEL", 24.6375 * 0.99),
        ("ROUGELSUM", 36.124 * 0.99),
        ("GEN_LEN", 3051113 * 0.9),
    ),
    "deepseek-r1": (("exact_match", 0.99 * 81.3582), ("TOKENS_PER_SAMPLE", 0.9 * 3886.2274)),
    "whisper": (("ACCURACY", (100.0 - 2.0671) * 0.99),),
    "gpt-oss-120b": (("exact_match", 83.13 * 0.99),),
    "qwen3-vl-235b-a22b": (("F1_HIERARCHICAL", 0.7903 * 0.99),),
    "dlrm-v3": (
        ("DLRM_NE", 0.86687 * 0.999),
        ("DLRM_ACC", 0.69651 * 0.999),
        ("DLRM_AUC", 0.78663 * 0.999),
    ),
    "wan-2.2-t2v-a14b": (("vbench_score", 70.48 * 0.99),),
}
# v6.1's (the checker @b66003e): its models' targets are v6.0's, but for those it drops.
_TARGETS_V61 = {k: v for k, v in _TARGETS_V60.items() if k not in ("llama2-70b-99", "mixtral-8x7b")}
TARGETS = {"v4.1": _TARGETS_V41, "v5.1": _TARGETS_V51, "v6.0": _TARGETS_V60, "v6.1": _TARGETS_V61}

# Each benchmark's upper bounds, per round: the checker's "accuracy-upper-limit".
_UPPER_V41: dict[str, Bounds] = {
    "stable-diffusion-xl": (("CLIP_SCORE", 31.81331801), ("FID_SCORE", 23.95007626)),
    "llama2-70b-99": (("TOKENS_PER_SAMPLE", 294.45 * 1.1),),
    "llama2-70b-99.9": (("TOKENS_PER_SAMPLE", 294.45 * 1.1),),
    "mixtral-8x7b": (("TOKENS_PER_SAMPLE", 145.9 * 1.1),),
}
UPPER = {
    "v4.1": _UPPER_V41,
    "v5.1": {
        **_UPPER_V41,
        "llama3.1-405b": (("TOKENS_PER_SAMPLE", 684.68 * 1.1),),
        "llama3.1-8b": (("GEN_LEN", 8167644 * 1.1),),
        "deepseek-r1": (("TOKENS_PER_SAMPLE", 1.1 * 3949.648),),
    },
    "v6.0": {
        **_UPPER_V41,
        "llama3.1-405b": (("TOKENS_PER_SAMPLE", 684.68 * 1.1),),
        "llama3.1-8b": (("GEN_LEN", 8167644 * 1.1),),
        "llama3.1-8b-edge": (("GEN_LEN", 3051113 * 1.1),),
        "deepseek-r1": (("TOKENS_PER_SAMPLE", 1.1 * 3886.2274),),
        # The checker's own placeholder for the round ("TODO: Placeholder for now").
        "gpt-oss-120b": (("TOKENS_PER_SAMPLE", 1.1 * 9999),),
    },
}
UPPER["v6.1"] = {k: v for k, v in UPPER["v6.0"].items() if k in _TARGETS_V61}


@dataclass(frozen=True)
class Reported:
    """What one run's accuracy file reports, and which targets of the benchmark's family
    (-99 and -99.9 alike) it meets."""

    values: tuple[tuple[str, float], ...]  # in the checker's order of the metrics
    meets: tuple[str, ...]  # the benchmark ids whose closed-division bounds it meets
    misses: tuple[str, ...]


def family(version: str, benchmark: str) -> tuple[str, ...]:
    """The benchmark and its sibling at the other accuracy target, where the round has one."""
    base = benchmark.removesuffix("-99.9").removesuffix("-99")
    if base == benchmark:
        return (benchmark,)
    return tuple(b for b in (f"{base}-99", f"{base}-99.9") if b in TARGETS.get(version, {}))


def within(values: dict[str, float], version: str, benchmark: str) -> bool:
    lower = TARGETS[version][benchmark]
    upper = UPPER[version].get(benchmark, ())
    return all(name in values and values[name] >= bound for name, bound in lower) and all(
        values.get(name, bound) <= bound for name, bound in upper
    )


def read_accuracy(text: str, version: str, benchmark: str) -> Reported | None:
    """The metrics `text` (a run's accuracy.txt) reports for `benchmark`, or None where the
    round defines no target for it or the file reports none of its metrics."""
    bounds = TARGETS.get(version, {}).get(benchmark)
    if bounds is None:
        return None
    names = list(dict.fromkeys(name for name, _ in bounds + UPPER[version].get(benchmark, ())))
    found: dict[str, float] = {}
    for line in text.splitlines():
        for name in names:
            match = _COMPILED[name].match(line)
            if match is None:
                continue
            try:
                found[name] = float(match[1])
            except ValueError:
                continue  # "1.2.3" matches the checker's pattern and is no number
    if not found:
        return None
    siblings = family(version, benchmark)
    meets = tuple(b for b in siblings if within(found, version, b))
    misses = tuple(b for b in siblings if b not in meets)
    values = tuple((name, found[name]) for name in names if name in found)
    return Reported(values, meets, misses)
