"""The Reuters study as a recorded run: its archive and outputs checked before the long part, then its record in
the run log (the workflow of ``clfeval reuters`` below the command line)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from clfeval.errors import InputFileError, MissingExtra

__all__ = ["need_text_extra", "open_reuters_run", "reuters_record"]


def need_text_extra() -> None:
    """The study's models need the text extra (scikit-learn, PyStemmer): refused, naming it, before any work."""
    MissingExtra.require("the Reuters study (scikit-learn models on Snowball-stemmed terms)",
                         [("sklearn", "scikit-learn"), ("Stemmer", "PyStemmer")], "text")


def open_reuters_run(archive: Path, output: Path | None, runs_db: Path | None) -> tuple[Any, str | None]:
    """Before the long part: the archive must exist; the outputs (``--output``, the run log and its predictions
    folder) are checked against it and each other. Returns the run log (None without ``runs_db``) and the
    archive's hash (when recorded, of a file)."""
    from clfeval.io import check_paths, resolve_output
    from clfeval.protocols import RunLog, file_hash, predictions_dir

    if not archive.exists():
        raise InputFileError(f"the archive {str(archive)!r} (option --archive) does not exist; give the path of the "
                             f"original reuters21578.tar.gz or of a directory holding its 22 files reut2-000.sgm … "
                             f"reut2-021.sgm, or download it with `clfeval datasets fetch reuters21578 --dest DIR`.")
    outputs: list[Any] = [("--output", output)]
    if runs_db is not None:
        outputs += [("--runs-db", runs_db), resolve_output(predictions_dir(runs_db), option="--runs-db",
                                                           directory=True)]
    check_paths([("--archive", archive)], outputs)
    log = None if runs_db is None else RunLog(runs_db)
    return log, file_hash(archive) if log is not None and archive.is_file() else None


def reuters_record(log: Any, result: Any, archive: Path, data_hash: str | None) -> Callable[[Any, Any], int]:
    """``record(files, on_id)``: the study's run recorded in ``log`` (its outputs put in place as it commits)."""
    def record(files: Any, on_id: Any) -> int:
        summary: dict[str, Any] = dict(result.summary())
        per_fold: list[dict[str, Any]] = []
        cv = result.cross_validation
        if cv is not None:
            summary["cv_micro_f1"], summary["cv_macro_f1"] = cv["micro_f1"], cv["macro_f1"]
            per_fold = [dict(f, repeat=1) for f in cv["per_fold"]]
        sig = result.signature
        settings = {"model": sig.get("model"),
                    "tokenization": {k: v for k, v in sig.get("tokenization", {}).items() if k != "why"},
                    "processing": sig.get("processing"), "split": sig.get("split"), "parts": list(result.parts),
                    "category": result.terms["category"] if result.terms else None, "samples": sig.get("samples"),
                    "seed": sig.get("seed")}
        protocol = {"kind": "fixed split", "split": "ModApte (" + result.split["choice"] + ")",
                    "train": result.split["train"], "test": result.split["test"],
                    "cross_validation": None if cv is None else {"folds": cv["folds"], "splitter": cv["splitter"]}}
        return int(log.record("reuters", settings=settings, seed=sig.get("seed"), protocol=protocol,
                              summary=summary, per_fold=per_fold, data_path=str(archive.resolve()),
                              data_hash=data_hash, task="Reuters-21578 ModApte, ten largest categories",
                              versions=sig.get("versions"), result=result.to_dict(), outputs=files, on_id=on_id))

    return record
