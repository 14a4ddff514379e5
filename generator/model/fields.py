"""The field types every record shares: ids, text, names, addresses, dates, MLCommons' own
keys, and the typed references to another record (marked with `Ref`)."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, StringConstraints

from generator.escape import character_name, first_invisible
from generator.model.references import Ref

ID_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"
Id = Annotated[str, StringConstraints(pattern=ID_PATTERN, max_length=80)]
Text = Annotated[str, StringConstraints(min_length=1, max_length=4000)]


def _visible_name(value: str) -> str:
    """A name or title may not hold a character that shows nothing or turns the text around
    it: two providers would look alike, or a title would read backwards (U+202E). Elsewhere
    such characters are shown as their code point (escape.visible)."""
    found = first_invisible(value)
    if found is not None:
        place, character = found
        raise ValueError(
            f"a name with no invisible or direction-changing character, as "
            f"{character_name(character)} at character {place} is"
        )
    return value


Name = Annotated[Text, AfterValidator(_visible_name)]
# Patterns are written for ECMAScript too: editors check files against the generated JSON Schema.
URL_PATTERN = '^https?://[^\\s<>"]+$'
PRECISION_PATTERN = "^[A-Z][A-Z0-9]*$"
Url = Annotated[str, StringConstraints(pattern=URL_PATTERN, max_length=500)]
Precision = Annotated[str, StringConstraints(pattern=PRECISION_PATTERN, max_length=12)]
# MLCommons' own names: a benchmark id (llama2_70b_lora in Training, llama3.1-405b and
# llama2-70b-99.9 in Inference) and a system file's name, which holds capitals, dots and plus
# signs (1xBM.GPU.B200.8) and is the only unique key of a system.
BENCHMARK_PATTERN = "^[a-z0-9]+([._-][a-z0-9]+)*$"
SYSTEM_PATTERN = "^[A-Za-z0-9][A-Za-z0-9._+-]*$"
BenchmarkId = Annotated[str, StringConstraints(pattern=BENCHMARK_PATTERN, max_length=40)]
SystemKey = Annotated[str, StringConstraints(pattern=SYSTEM_PATTERN, max_length=120)]

SourceRef = Annotated[str, StringConstraints(pattern=ID_PATTERN), Ref("sources")]
ProgramRef = Annotated[str, StringConstraints(pattern=ID_PATTERN), Ref("programs")]
ProviderRef = Annotated[str, StringConstraints(pattern=ID_PATTERN), Ref("providers")]
PlatformRef = Annotated[str, StringConstraints(pattern=ID_PATTERN), Ref("platforms")]
SuiteRef = Annotated[str, StringConstraints(pattern=ID_PATTERN), Ref("suites")]
ValidationRef = Annotated[str, StringConstraints(pattern=ID_PATTERN), Ref("validations")]
QuestionRef = Annotated[str, StringConstraints(pattern=ID_PATTERN), Ref("questions")]

# The last day a record may name. Pages compute from a record's dates (a validity of months
# after an announcement, a review due a year after the last, a calendar event's next day), and
# none of that may run past the last day Python's dates hold; no source dates anything this late.
LAST_DAY = date(2999, 12, 31)
Day = Annotated[date, Field(le=LAST_DAY)]

Architecture = Literal["dense", "moe", "hybrid"]
