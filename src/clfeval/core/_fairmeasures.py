"""The group fairness measures of a report by slice (``--by`` with ``--positive``), one registry entry each.

An entry is the measure's whole definition: its name (the JSON key, the ``require=`` function, the rendered row),
the per-group rates it reads, how it compares the groups (a ``difference`` max − min, a ``ratio`` min / max; over
several rates the worst case: the largest difference, the smallest ratio — fairlearn's ``agg="worst_case"``),
whether higher is better, and its definition in words. The computation
(:func:`clfeval.slicing._fairness.measures`), the requirement functions (:mod:`clfeval.core._reqfunctions`,
:mod:`clfeval.slicing._slicereq`), the renderers and the slices guide's table all read :data:`FAIRNESS`; add a
measure by adding an entry (a test checks each of them lists it).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FairnessMeasure", "FAIRNESS", "RATES"]

#: The per-group rates a measure may read (:func:`clfeval.slicing._fairness.group_rates`).
RATES = {"selection_rate": "(TP + FP) / n", "tpr": "TP / (TP + FN)", "fpr": "FP / (FP + TN)"}


@dataclass(frozen=True)
class FairnessMeasure:
    """One between-group fairness measure.

    Attributes
    ----------
    name : str
        Its name: the JSON key under ``fairness.measures``, the ``require=`` function.
    rates : tuple of str
        The per-group rates it compares (keys of :data:`RATES`).
    between : str
        ``difference`` (max − min over the groups) or ``ratio`` (min / max); over several rates, the largest
        difference or the smallest ratio (the worst case).
    higher_is_better : bool
    definition : str
        The measure in words (the requirement function's help, the guide).
    """

    name: str
    rates: tuple[str, ...]
    between: str
    higher_is_better: bool
    definition: str

    def __post_init__(self) -> None:
        if self.between not in ("difference", "ratio") or not set(self.rates) <= set(RATES) or not self.rates:
            raise ValueError(f"{self.name}: between is 'difference' or 'ratio' and rates among {sorted(RATES)}")

    @property
    def formula(self) -> str:
        """The rule in a few words: ``max − min of tpr and fpr (the larger)``."""
        rule = "max − min" if self.between == "difference" else "min / max"
        worst = "" if len(self.rates) == 1 else (" (the larger)" if self.between == "difference" else " (the smaller)")
        return f"{rule} of {' and '.join(r.replace('_', ' ') for r in self.rates)}{worst}"


def _entries(*measures: FairnessMeasure) -> dict[str, FairnessMeasure]:
    return {m.name: m for m in measures}


#: Every group fairness measure, in the order the JSON and the renderers list them (fairlearn's definitions).
FAIRNESS: dict[str, FairnessMeasure] = _entries(
    FairnessMeasure("demographic_parity_difference", ("selection_rate",), "difference", False,
                    "largest minus smallest selection rate between groups"),
    FairnessMeasure("demographic_parity_ratio", ("selection_rate",), "ratio", True,
                    "smallest over largest selection rate between groups"),
    FairnessMeasure("equalized_odds_difference", ("tpr", "fpr"), "difference", False,
                    "the larger of the TPR and FPR differences between groups"),
    FairnessMeasure("equalized_odds_ratio", ("tpr", "fpr"), "ratio", True,
                    "the smaller of the TPR and FPR ratios between groups"),
    FairnessMeasure("equal_opportunity_difference", ("tpr",), "difference", False,
                    "largest minus smallest TPR between groups"),
    FairnessMeasure("equal_opportunity_ratio", ("tpr",), "ratio", True,
                    "smallest over largest TPR between groups"),
)
