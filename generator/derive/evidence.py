"""What a result's evidence establishes, said plainly: the result's own facts (its outcome and
its scale, each stated by a source or not), then each group of evidence questions in three
states: published (wholly or in part), known not to be published, and not stated.

Tables once showed "N yes of M", which read a 512-GPU pass with nothing else published as 0,
level with a record that states nothing at all. Here the result's own facts count first, so
`rank` puts any stated outcome and scale above nothing, and published answers after them.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.derive.answers import Answered
from generator.model.checklists import About
from generator.model.grades import UNESTABLISHED
from generator.model.validation import Validation

# Each question group, in the order cells show them, with the words a cell names it by.
GROUPS: dict[About, str] = {
    "tested-result": "What was tested",
    "published-figure": "Published figures",
}

# Answer words by the state a cell shows. Known absent holds "not-published" and "no" (the
# sources show it is not so), each counted in its own words; "unanswered" is a record's silence,
# shown as the sources'.
PUBLISHED = ("yes",)
IN_PART = ("partial",)
NOT_PUBLISHED = ("not-published",)
NO = ("no",)
SILENT = ("not-stated", "unanswered")

# The bar in a table cell, a character per fact or question: a square per element would make
# the 1,000-result compare page pass its size budget. The page's legend says what each means.
SYMBOLS = {"yes": "\u25cf", "partial": "\u25d0", "absent": "\u2715", "silent": "\u25cb"}

# A result's own fact outweighs every published answer: a question can add at most 2.
FACT_WEIGHT = 100


@dataclass(frozen=True)
class Group:
    """One group of evidence questions for one result: the labels of the questions in each
    state. Questions that do not apply to the result's program are in no state."""

    about: About
    name: str
    published: tuple[str, ...]
    in_part: tuple[str, ...]
    not_published: tuple[str, ...]
    no: tuple[str, ...]
    silent: tuple[str, ...]

    @property
    def absent(self) -> tuple[str, ...]:
        """The questions whose answer is known absent: not published, or not so."""
        return self.not_published + self.no

    @property
    def size(self) -> int:
        return len(self.published) + len(self.in_part) + len(self.absent) + len(self.silent)

    def words(self) -> str:
        """The group in a sentence: "Published figures: per-model throughput; matrix in part;
        1 not published; 6 not stated." """
        if not self.published and not self.in_part and not self.absent:
            return f"{self.name}: none of {self.size} stated."
        parts = []
        if self.published:
            parts.append(", ".join(self.published))
        if self.in_part:
            parts.append(f"{', '.join(self.in_part)} in part")
        if self.not_published:
            parts.append(f"{len(self.not_published)} not published")
        if self.no:
            parts.append(f"{len(self.no)} answered no")
        if self.silent:
            parts.append(f"{len(self.silent)} not stated")
        return f"{self.name}: {'; '.join(parts)}."


@dataclass(frozen=True)
class Evidence:
    """A result's evidence: its own facts, its question groups and the rank tables sort by."""

    outcome: bool  # a source states the outcome at a grade that establishes it
    scale: bool  # a source states how many accelerators the result ran on
    groups: tuple[Group, ...]

    @property
    def rank(self) -> int:
        """Stated facts first, then published answers (2 each) and answers in part (1 each)."""
        facts = int(self.outcome) + int(self.scale)
        published = sum(len(g.published) for g in self.groups)
        in_part = sum(len(g.in_part) for g in self.groups)
        return facts * FACT_WEIGHT + 2 * published + in_part

    def facts_words(self) -> str:
        """The result's own facts: "Outcome and scale stated." """
        if self.outcome and self.scale:
            return "Outcome and scale stated."
        if self.outcome:
            return "Outcome stated; scale not stated."
        if self.scale:
            return "Scale stated; outcome not established."
        return "Neither outcome nor scale stated."

    def short(self) -> str:
        """The table cell's words, every group together: "Outcome and scale stated; 1
        published, 1 in part, 1 not published, 7 not stated." A result's page gives each
        group, and names each question."""
        counts = [
            (sum(len(g.published) for g in self.groups), "published"),
            (sum(len(g.in_part) for g in self.groups), "in part"),
            (sum(len(g.not_published) for g in self.groups), "not published"),
            (sum(len(g.no) for g in self.groups), "answered no"),
            (sum(len(g.silent) for g in self.groups), "not stated"),
        ]
        said = ", ".join(f"{n} {words}" for n, words in counts if n)
        return f"{self.facts_words()[:-1]}; {said or 'no question applies'}."

    def symbols(self) -> str:
        """The bar as characters, a table cell's: the result's two facts, then each group's
        questions, published first (`SYMBOLS`), groups apart."""
        facts = "".join(SYMBOLS["yes" if fact else "silent"] for fact in (self.outcome, self.scale))
        groups = [
            SYMBOLS["yes"] * len(g.published)
            + SYMBOLS["partial"] * len(g.in_part)
            + SYMBOLS["absent"] * len(g.absent)
            + SYMBOLS["silent"] * len(g.silent)
            for g in self.groups
            if g.size
        ]
        return " ".join([facts, *groups])

    def words(self) -> str:
        """The whole of it, as the change report and plain-text readers see it."""
        return " ".join([self.facts_words(), *(g.words() for g in self.groups if g.size)])


def lowered(label: str) -> str:
    """A label inside a sentence: "Per-model throughput" reads "per-model throughput", but an
    acronym such as "MFU" keeps its case."""
    return label if label[1:2].isupper() else label[:1].lower() + label[1:]


def evidence(validation: Validation, scale: str | None, answers: tuple[Answered, ...]) -> Evidence:
    """`validation`'s evidence, from its derived scale words and its answers."""
    groups = []
    for about, name in GROUPS.items():
        mine = [a for a in answers if a.question.about == about]

        def labels(words: tuple[str, ...], mine: list[Answered] = mine) -> tuple[str, ...]:
            return tuple(lowered(a.question.label) for a in mine if a.word in words)

        groups.append(
            Group(
                about,
                name,
                published=labels(PUBLISHED),
                in_part=labels(IN_PART),
                not_published=labels(NOT_PUBLISHED),
                no=labels(NO),
                silent=labels(SILENT),
            )
        )
    return Evidence(
        outcome=validation.outcome.grade not in UNESTABLISHED,
        scale=scale is not None,
        groups=tuple(groups),
    )
