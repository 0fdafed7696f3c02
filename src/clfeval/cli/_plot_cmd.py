"""``clfeval plot KIND RESULT -o FILE``: one figure from a JSON result (or a predictions file)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from clfeval.cli._common import check_paths, existing_file, input_options, message
from clfeval.errors import InputFileError, UsageError

KINDS = ("confusion", "per-class", "roc", "pr", "threshold", "reliability", "phi-delta", "cv-spread", "bootstrap",
         "reuters", "cd", "bayes", "forest", "found-slices")
#: Kinds a predictions file can be drawn as (through a report, as `clfeval report` makes it).
FROM_PREDICTIONS = ("confusion", "per-class", "roc", "pr", "reliability", "phi-delta")


def _load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputFileError(f"file {str(path)!r} is not a JSON result ({exc}); give the output of a clfeval command "
                             f"run with --format json, or a predictions file.") from None


def _from_predictions(kind: str, path: Path, gold: str, pred: str, id_col: str | None, input_format: str | None,
                      multilabel: bool, sep: str, positive: str | None, score: str | None,
                      scores_prefix: str | None, reading: dict[str, Any]) -> Any:
    from clfeval.io import read_predictions

    if kind not in FROM_PREDICTIONS:
        raise UsageError(f"a {kind!r} figure is drawn from a JSON result (clfeval ... --format json); a predictions "
                         f"file can be drawn as {', '.join(FROM_PREDICTIONS)}.")
    if kind == "reliability":
        from clfeval.cli._common import input_path
        from clfeval.front import check_score_options, read_scored
        from clfeval.scores import reliability

        check_score_options(score, scores_prefix)
        inp = input_path(path, input_format=input_format, encoding=reading["encoding"])
        sf = read_scored(inp, gold=gold, score=score, prefix=scores_prefix, id_col=id_col, **reading)
        return reliability(sf.gold, sf.scores, positive=positive) if score is not None else \
            reliability(sf.gold, sf.scores)
    from clfeval.evaluate import report

    scores = None
    if score is not None or scores_prefix is not None:
        from clfeval.cli._common import input_path
        from clfeval.front import check_score_options, read_scored

        check_score_options(score, scores_prefix)
        if score is not None and positive is None:
            raise UsageError("option --score needs --positive: the class whose scores rank the items.")
        inp = input_path(path, input_format=input_format, encoding=reading["encoding"])
        sf = read_scored(inp, gold=gold, score=score, prefix=scores_prefix, pred=pred, id_col=id_col,
                         multilabel=multilabel, **reading)
        gold_v, pred_v, scores = sf.gold, sf.pred, sf.scores
    else:
        preds = read_predictions(path, gold=gold, pred=pred, id=id_col, multilabel=multilabel,
                                 input_format=input_format,
                                 **reading)
        gold_v, pred_v = preds.gold, preds.pred
    return report(gold_v, pred_v, positive=positive, multilabel=multilabel, sep=sep, scores=scores)


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
def plot(kind: str, result: Path, output: Path, gold: str, pred: str, id_col: str | None, input_format: str | None,
         multilabel: bool, sep: str, positive: str | None, score: str | None, scores_prefix: str | None,
         pair: int, encoding: str, normalize_labels: str | None) -> None:
    """Draw one figure from RESULT, the JSON output of a clfeval command (nothing is recomputed).

    KIND is confusion, per-class, roc, pr, threshold, reliability, phi-delta, cv-spread, bootstrap, reuters, cd
    (the critical-difference diagram of clfeval rank), bayes (its Bayesian pairs), forest (a report by slice,
    --by) or found-slices (the slices --find-slices found).
    For confusion, per-class, roc, pr, reliability and phi-delta, RESULT may be a predictions file instead,
    read with the input options of clfeval report. Needs the html extra: pip install 'clfeval[html]'.
    """
    from clfeval import plots

    ext = output.suffix.lower().lstrip(".")
    if ext not in ("svg", "png", "pdf"):
        raise UsageError(f"option --output {str(output)!r}: the file name must end in .svg, .png or .pdf (the image "
                         f"format comes from the extension).")
    check_paths([("RESULT", result)], [("--output", output)])
    path = existing_file(result)
    if isinstance(path, Path) and path.suffix.lower() == ".json":
        data = _load_json(path)
    else:
        data = _from_predictions(kind, path, gold, pred, id_col, input_format, multilabel, sep, positive, score,
                                 scores_prefix, dict(encoding=encoding, normalize=normalize_labels, sep=sep))
    fn = plots.KINDS[kind]
    fig = fn(data, pair=pair) if kind == "bootstrap" else fn(data)
    plots.save(fig, str(output))
    message(f"wrote {output}")
