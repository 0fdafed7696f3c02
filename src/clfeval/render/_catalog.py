"""Text and Markdown rendering of the metric catalogue (``clfeval metrics``)."""

from __future__ import annotations

from clfeval.core import TASKS, MetricCatalogue
from clfeval.render import register
from clfeval.render._util import Block, TableBlock, TextBlock, blocks_to_markdown, blocks_to_rich

__all__ = ["catalogue_blocks"]

_INPUT_TITLES = {"counts": "Computed from count tables", "ranking": "Computed from a ranking of scores",
                 "probabilities": "Computed from predicted probabilities"}
_BETTER = {"higher": "higher", "lower": "lower", "none": "—"}


def _tasks(tasks: tuple[str, ...]) -> str:
    return "all" if set(tasks) == set(TASKS) else ", ".join(tasks)


def undefined_sentence(text: str) -> str:
    """A catalogue entry's undefined case as a sentence that says so: "Undefined when …", "Undefined for …".

    >>> undefined_sentence("When TP = FP = 0: 0/0.")
    'Undefined when TP = FP = 0: 0/0.'
    >>> undefined_sentence("Never undefined itself.")
    'Never undefined itself.'
    """
    for lead in ("When ", "For ", "Without ", "As "):
        if text.startswith(lead):
            return "Undefined " + lead.lower() + text[len(lead):]
    if text.startswith("Never, "):
        return "Never undefined, " + text[len("Never, "):]
    return text if text.lower().startswith("never undefined") else "Undefined: " + text


def catalogue_blocks(c: MetricCatalogue) -> list[Block]:
    """The layout of the catalogue: one table per input kind, then each metric's definition and undefined case."""
    blocks: list[Block] = [TextBlock(f"clfeval metrics — {len(c.metrics)} metrics", heading=True),
                           TextBlock("Per-label metrics are named METRIC:LABEL (e.g. f1:spam); these names work in "
                                     "compare --metric, cv / holdout --metric and runs --metric.")]
    for kind, title in _INPUT_TITLES.items():
        rows = [[m.key, _tasks(m.tasks), _BETTER[m.direction], m.range_text(), m.formula]
                for m in c.metrics if m.input == kind]
        if rows:
            blocks.append(TableBlock(title, ["metric", "tasks", "better", "range", "formula"], rows, numeric_from=99))
    blocks.append(TextBlock("Definitions and undefined cases", heading=True))
    for m in c.metrics:
        blocks.append(TextBlock(f"{m.key} ({m.title}): {m.definition} {undefined_sentence(m.undefined)}"))
    return blocks


register(MetricCatalogue, text=lambda c: blocks_to_rich(catalogue_blocks(c)),
         markdown=lambda c: blocks_to_markdown(catalogue_blocks(c)))
