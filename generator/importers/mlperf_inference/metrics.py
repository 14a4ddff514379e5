"""Which figure of a performance log is a result, by round, model and scenario, as MLCommons'
submission checker reads it, and its unit.

The tables are the checker's (mlcommons/inference, `tools/submission/submission_checker`):
`RESULT_FIELD_NEW` gives each round's figure per scenario, `RESULT_FIELD_BENCHMARK_OVERWRITE`
the language models' token rates in its place. The unit follows from the figure read, not from
a table of names: a token rate is Tokens/s whatever the model folder is called.
"""

from __future__ import annotations

from dataclasses import dataclass

# The checker's scenario spellings, folder names in any case.
SCENARIOS = {
    "offline": "Offline",
    "server": "Server",
    "interactive": "Interactive",
    "singlestream": "SingleStream",
    "multistream": "MultiStream",
}

# Each round's official models (the checker's MODEL_CONFIG "models"), datacenter and edge.
MODELS = {
    "v4.1": (
        "resnet", "retinanet", "bert-99", "bert-99.9", "dlrm-v2-99", "dlrm-v2-99.9",
        "3d-unet-99", "3d-unet-99.9", "gptj-99", "gptj-99.9", "llama2-70b-99",
        "llama2-70b-99.9", "stable-diffusion-xl", "mixtral-8x7b",
    ),
    "v5.1": (
        "resnet", "retinanet", "bert-99", "bert-99.9", "dlrm-v2-99", "dlrm-v2-99.9",
        "3d-unet-99", "3d-unet-99.9", "llama3.1-8b", "llama3.1-8b-edge", "llama2-70b-99",
        "llama2-70b-99.9", "stable-diffusion-xl", "mixtral-8x7b", "llama3.1-405b", "rgat",
        "pointpainting", "deepseek-r1", "whisper",
    ),
    # The checker as of the round's publication (mlcommons/inference @6d0cf9d, 2026-03-17).
    "v6.0": (
        "resnet", "retinanet", "bert-99", "bert-99.9", "3d-unet-99", "3d-unet-99.9",
        "llama3.1-8b", "llama3.1-8b-edge", "llama2-70b-99", "llama2-70b-99.9",
        "stable-diffusion-xl", "mixtral-8x7b", "llama3.1-405b", "rgat", "pointpainting",
        "deepseek-r1", "whisper", "gpt-oss-120b", "wan-2.2-t2v-a14b", "qwen3-vl-235b-a22b",
        "dlrm-v3", "yolo-95", "yolo-99",
    ),
    # The checker's list of the round (mlcommons/inference @b66003e, 2026-08-20): read only to
    # tell a benchmark of the round from another name in MLCommons' table.
    "v6.1": (
        "resnet", "bert-99", "bert-99.9", "3d-unet-99", "3d-unet-99.9", "llama3.1-8b",
        "llama3.1-8b-edge", "llama2-70b-99.9", "stable-diffusion-xl", "rgat", "deepseek-r1",
        "whisper", "gpt-oss-120b", "wan-2.2-t2v-a14b", "qwen3-vl-235b-a22b", "qwen3.6-27b",
        "dlrm-v3", "yolo-95", "yolo-99", "e2e-rag-qna", "e2e-rag-db",
    ),
}  # fmt: skip

# Folder names the checker takes for an official model (its MODEL_CONFIG "model_mapping").
ALIASES = {
    "v4.1": {"ssd-resnet34": "retinanet", "mobilenet": "resnet", "resnet50": "resnet"},
    "v5.1": {
        "resnet50": "resnet",
        "llama3_1-8b": "llama3.1-8b",
        "llama3_1-405b": "llama3.1-405b",
    },
    "v6.0": {
        "ssd-resnet34": "retinanet",
        "mobilenet": "resnet",
        "resnet50": "resnet",
        "llama3_1-405b": "llama3.1-405b",
        "llama3_1-8b": "llama3.1-8b",
        "llama3_1-8b-edge": "llama3.1-8b-edge",
    },
    "v6.1": {"llama3_1-8b": "llama3.1-8b", "llama3_1-8b-edge": "llama3.1-8b-edge"},
}

_BASE = {
    "v4.1": {
        "Offline": "result_samples_per_second",
        "SingleStream": "early_stopping_latency_ss",
        "MultiStream": "early_stopping_latency_ms",
        "Server": "result_completed_samples_per_sec",
    },
    "v5.1": {
        "Offline": "result_samples_per_second",
        "SingleStream": "early_stopping_latency_ss",
        "MultiStream": "early_stopping_latency_ms",
        "Server": "result_completed_samples_per_sec",
    },
    "v6.0": {
        "Offline": "result_samples_per_second",
        "SingleStream": "early_stopping_latency_ss",
        "MultiStream": "early_stopping_latency_ms",
        "Server": "result_completed_samples_per_sec",
    },
}
_TOKENS = {"Offline": "result_tokens_per_second", "Server": "result_completed_tokens_per_second"}
_OVERWRITE = {
    "v4.1": {
        "llama2-70b-99": _TOKENS,
        "llama2-70b-99.9": _TOKENS,
        "gptj-99": {
            "Offline": "result_inferred_tokens_per_second",
            "Server": "result_inferred_completed_tokens_per_second",
        },
        "gptj-99.9": {
            "Offline": "result_inferred_tokens_per_second",
            "Server": "result_inferred_completed_tokens_per_second",
        },
        "mixtral-8x7b": _TOKENS,
    },
    "v5.1": {
        "llama2-70b-99": _TOKENS,
        "llama2-70b-99.9": _TOKENS,
        "llama3.1-8b": _TOKENS,
        "llama3.1-8b-edge": {
            "Offline": "result_tokens_per_second",
            "SingleStream": "result_90.00_percentile_latency_ns",
        },
        "mixtral-8x7b": _TOKENS,
        "llama3.1-405b": _TOKENS,
        "deepseek-r1": _TOKENS,
        # The results table labels whisper's figure Samples/s; it is the token rate.
        "whisper": {"Offline": "result_tokens_per_second"},
    },
    "v6.0": {
        "gpt-oss-120b": _TOKENS,
        "llama2-70b-99": _TOKENS,
        "llama2-70b-99.9": _TOKENS,
        "llama3.1-8b": _TOKENS,
        "llama3.1-8b-edge": {
            "Offline": "result_tokens_per_second",
            "SingleStream": "result_90.00_percentile_latency_ns",
        },
        "mixtral-8x7b": _TOKENS,
        "llama3.1-405b": _TOKENS,
        "deepseek-r1": _TOKENS,
        "whisper": {"Offline": "result_tokens_per_second"},
    },
}

# The summary log's line for each figure, where the detail log is not there.
SUMMARY_LINES = {
    "result_samples_per_second": "Samples per second",
    "result_tokens_per_second": "Tokens per second",
    "result_completed_samples_per_sec": "Completed samples per second",
    "result_completed_tokens_per_second": "Completed tokens per second",
}

_UNITS = {
    "result_samples_per_second": ("throughput", "Samples/s"),
    "result_completed_samples_per_sec": ("throughput", "Queries/s"),
    "result_tokens_per_second": ("throughput", "Tokens/s"),
    "result_completed_tokens_per_second": ("throughput", "Tokens/s"),
    "result_inferred_tokens_per_second": ("throughput", "Tokens/s"),
    "result_inferred_completed_tokens_per_second": ("throughput", "Tokens/s"),
    "early_stopping_latency_ss": ("latency", "ms"),
    "early_stopping_latency_ms": ("latency", "ms"),
    "result_90.00_percentile_latency_ns": ("latency", "ms"),
}


@dataclass(frozen=True)
class Figure:
    metric: str  # throughput or latency
    value: float
    unit: str
    key: str  # the log's name for it


@dataclass(frozen=True)
class Key:
    name: str

    def figure(self, value: float) -> Figure:
        metric, unit = _UNITS[self.name]
        # Latencies are logged in nanoseconds and published in milliseconds.
        shown = value / 1e6 if metric == "latency" else value
        return Figure(metric, shown, unit, self.name)


def result_key(version: str, benchmark: str, logged_scenario: str) -> Key | None:
    """The log's name for the figure of a result, or None where the round defines none."""
    base = _BASE.get(version)
    if base is None:
        return None
    name = _OVERWRITE.get(version, {}).get(benchmark, {}).get(logged_scenario)
    name = name or base.get(logged_scenario)
    return Key(name) if name in _UNITS else None


def higher_is_better(unit: str) -> bool:
    return unit != "ms"
