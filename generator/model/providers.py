"""A provider (a cloud, or a submitter that names none) and a platform it offers."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from generator.model.base import Record, Statement
from generator.model.fields import Name, Text, Url


class Provider(Record):
    name: Name
    url: Url | None
    summary: Text = Field(description="What the provider is, in plain words that need no source.")
    statements: list[Statement] = Field(
        default_factory=list,
        description="What the provider says about itself, or others about it: each graded and "
        "sourced, never in the summary.",
    )


# What one accelerator is called where pages count them: a TPU is not a GPU.
AcceleratorNoun = Literal["GPU", "TPU chip", "accelerator"]


class Platform(Record):
    name: Name
    vendor: Name
    chip: Name
    accelerator_noun: AcceleratorNoun = Field(
        description="What one of its accelerators is called where pages count them: GPU, TPU "
        "chip, or accelerator."
    )
    summary: Text
    specifications: list[Statement] = Field(
        description="Specification claims. They are not measurements, and the site says so."
    )
