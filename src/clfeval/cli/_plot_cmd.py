"""``clfeval plot KIND RESULT -o FILE``: one figure of a result read by the library (JSON, or a predictions file)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from clfeval.cli._common import check_paths, existing_file, input_options, input_path, message
from clfeval.errors import UsageError

KINDS = ("confusion", "per-class", "roc", "pr", "threshold", "reliability", "phi-delta", "cv-spread", "bootstrap",
         "reuters", "cd", "bayes", "forest", "found-slices", "noise-matrix")
FROM_PREDICTIONS = ("confusion", "per-class", "roc", "pr", "reliability", "phi-delta")


def _from_predictions(kind: str, path: Any, o: dict[str, Any]) -> Any:  # clfeval.calibration or clfeval.report
    from clfeval import front

    if kind not in FROM_PREDICTIONS:
        raise UsageError(f"a {kind!r} figure is drawn from a JSON result (clfeval ... --format json); a predictions "
                         f"file can be drawn as {', '.join(FROM_PREDICTIONS)}.")
    read = dict(input_format=o["input_format"], encoding=o["encoding"], normalize=o["normalize_labels"])
    inp = input_path(path, input_format=o["input_format"], encoding=o["encoding"])
    if kind == "reliability":
        front.check_score_options(o["score"], o["scores_prefix"])
        return front.calibration(inp, gold=o["gold"], prob=o["score"], probs_prefix=o["scores_prefix"],
                                 positive=o["positive"], **read)
    return front.report(inp, gold=o["gold"], pred=o["pred"], id=o["id_col"], score=o["score"], sep=o["sep"],
                        scores_prefix=o["scores_prefix"], positive=o["positive"], multilabel=o["multilabel"], **read)


@click.command()
@click.argument("kind", type=click.Choice(KINDS))
@click.argument("result", type=click.Path(path_type=Path))
@click.option("--output", "-o", "output", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Image file to write (atomically); the format comes from the extension: .svg, .png or .pdf.")
@input_options
@click.option("--positive", default=None, help="Predictions file: the positive class (with --score).")
@click.option("--score", default=None, help="Predictions file: one score column (needs --positive).")
@click.option("--scores-prefix", default=None, metavar="PREFIX", help="Predictions file: score columns PREFIX<label>.")
@click.option("--pair", type=click.IntRange(min=0), default=0, show_default=True,
              help="bootstrap of a multiple comparison: which pair (0 = the first listed).")
def plot(kind: str, result: Path, output: Path, pair: int, **o: Any) -> None:
    """Draw one figure from RESULT, the JSON output of a clfeval command (nothing is recomputed).

    KIND is confusion, per-class, roc, pr, threshold, reliability, phi-delta, cv-spread, bootstrap, reuters, cd
    (the critical-difference diagram of clfeval rank), bayes (its Bayesian pairs), forest (a report by slice,
    --by), found-slices (the slices --find-slices found) or noise-matrix (clfeval label-issues).
    For confusion, per-class, roc, pr, reliability and phi-delta, RESULT may be a predictions file instead,
    read with the input options of clfeval report. Needs the html extra: pip install 'clfeval[html]'.
    """
    from clfeval import plots

    if output.suffix.lower() not in (".svg", ".png", ".pdf"):
        raise UsageError(f"option --output {str(output)!r}: the file name must end in .svg, .png or .pdf (the image "
                         f"format comes from the extension).")
    check_paths([("RESULT", result)], [("--output", output)])
    path = existing_file(result)
    json = isinstance(path, Path) and path.suffix.lower() == ".json"  # else a predictions file
    data = plots.read_result(path) if json else _from_predictions(kind, path, o)
    plots.save(plots.KINDS[kind](data, **({"pair": pair} if kind == "bootstrap" else {})), str(output))
    message(f"wrote {output}")
