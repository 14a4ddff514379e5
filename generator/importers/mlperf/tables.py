"""MLCommons' tables the training reader follows: availability spellings, the runs each
benchmark needs and the benchmarks of each round, with the lookups that read them."""

from __future__ import annotations

import re

from generator.model.mlperf import CLOUD

ROUND_PATTERN = re.compile(r"^v(?P<number>\d+\.\d+)$")

# MLCommons' table of availability spellings, looked up as given and then in lower case
# (mlcommons/logging @7bbf792, mlperf_logging/result_summarizer/config.yaml and
# result_summarizer.py lines 106-112).
AVAILABILITY = {
    "Available on-premise": "Available on-premise",
    "available on-premise": "Available on-premise",
    "onprem": "Available on-premise",
    "available": "Available on-premise",
    "Available onprem": "Available on-premise",
    "available onprem": "Available on-premise",
    "Available cloud": CLOUD,
    "available cloud": CLOUD,
    "cloud": CLOUD,
    "Research, Development, or Internal (RDI)": "Research, Development, or Internal (RDI)",
    "research, development, or internal (rdi)": "Research, Development, or Internal (RDI)",
    "rdi": "Research, Development, or Internal (RDI)",
    "research": "Research, Development, or Internal (RDI)",
    "development": "Research, Development, or Internal (RDI)",
    "internal": "Research, Development, or Internal (RDI)",
    "preview": "Preview",
}

# The number of runs each benchmark needs, and the benchmarks of each round (mlcommons/logging
# @7bbf792, mlperf_logging/benchmark_meta.py).
MINIMUM_RUNS = {
    "bert": 10,
    "dlrm_dcnv2": 10,
    "gpt3": 3,
    "resnet": 5,
    "ssd": 5,
    "retinanet": 5,
    "stable_diffusion": 10,
    "unet3d": 40,
    "gnn": 10,
    "rgat": 10,
    "llama2_70b_lora": 10,
    "llama31_405b": 3,
    "llama31_8b": 10,
    "flux1": 10,
    "gpt_oss_20b": 10,
    "deepseekv3_671b": 3,
}
BENCHMARKS = {
    "4.0": (
        "bert",
        "dlrm_dcnv2",
        "gpt3",
        "resnet",
        "ssd",
        "unet3d",
        "stable_diffusion",
        "llama2_70b_lora",
        "gnn",
    ),
    "4.1": ("bert", "dlrm_dcnv2", "gpt3", "ssd", "stable_diffusion", "llama2_70b_lora", "gnn"),
    "5.0": (
        "bert",
        "dlrm_dcnv2",
        "retinanet",
        "stable_diffusion",
        "llama2_70b_lora",
        "rgat",
        "llama31_405b",
    ),
    "5.1": (
        "llama31_8b",
        "dlrm_dcnv2",
        "retinanet",
        "flux1",
        "llama2_70b_lora",
        "rgat",
        "llama31_405b",
    ),
    "6.0": (
        "llama31_8b",
        "dlrm_dcnv2",
        "flux1",
        "llama2_70b_lora",
        "llama31_405b",
        "gpt_oss_20b",
        "deepseekv3_671b",
    ),
}
# Non-converging runs allowed before a result is invalid: one, or four for unet3d, whose 40 runs
# drop four at each end (training_rules.adoc, "Benchmark specific rules").
MAX_NON_CONVERGED = {"unet3d": 4}


def round_number(text: str) -> str:
    """`v5.1` -> `5.1`; raises ValueError naming the rounds this reader knows."""
    match = ROUND_PATTERN.fullmatch(text)  # match() would take "v5.1\n": $ allows a newline
    if match is None or match["number"] not in BENCHMARKS:
        known = ", ".join(f"v{number}" for number in BENCHMARKS)
        raise ValueError(f"expected a round of the form vX.Y, one of {known}, found {text!r}")
    return match["number"]


def availability(status: str) -> str | None:
    """A status in MLCommons' words, or None if MLCommons' table does not know it."""
    return AVAILABILITY.get(status, AVAILABILITY.get(status.lower()))
