"""Keep pyarrow from importing pandas behind clfeval's back in the ``clfeval`` process (issue 23): installed by the
command line only (:func:`clfeval.cli.console_main`), which owns its process; the library never installs it.

pyarrow imports pandas, when installed, the first time it converts Python or NumPy values (``pa.array``,
``pa.scalar``, …), to ask whether they are pandas objects and to learn pandas' missing-value types: about 0.2 s on
every command, for objects the command line never hands it. The command line owns its process, so :func:`install`
(called by :func:`clfeval.cli.console_main`) refuses the *implicit* imports — made from pyarrow's compiled code
while clfeval's or pyarrow's Python code calls it — which then find "no pandas", as on a machine without it. A
*deliberate* import (an ``import pandas`` statement, ``importlib.import_module``, any import from other code) goes
through; from then on nothing is refused and pyarrow is told that pandas is there. The library never does this.
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
from collections.abc import Sequence
from types import FrameType, ModuleType

__all__ = ["install", "uninstall"]


def _implicit() -> bool:
    """Whether the import of pandas under way is a call from clfeval's or pyarrow's code, not an import statement."""
    try:
        frame: FrameType | None = sys._getframe(1)  # walked to the first frame outside importlib and this module
        while frame is not None and (frame.f_code.co_filename.startswith("<frozen importlib")
                                     or frame.f_code.co_filename == __file__):
            frame = frame.f_back
        if frame is None:
            return False
        files = [getattr(sys.modules.get(m), "__file__", None) for m in ("clfeval", "pyarrow")]
        dirs = tuple(os.path.join(os.path.dirname(os.path.realpath(f)), "") for f in files if f)
        if not dirs or not os.path.realpath(frame.f_code.co_filename).startswith(dirs):
            return False  # someone else's code: theirs to decide
        import opcode  # only when pyarrow asks for pandas

        return frame.f_lasti < 0 or frame.f_code.co_code[frame.f_lasti] != opcode.opmap["IMPORT_NAME"]
    except Exception:  # noqa: BLE001 - when in doubt, let the import happen
        return False


class _RefuseImplicitPandas:  # a meta path finder (no importlib.abc: it costs the start of every command)
    """Refuses pandas to pyarrow's implicit imports; gets out of the way at the first deliberate one."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname != "pandas":
            return None
        if _implicit():
            raise ModuleNotFoundError("pandas is not imported by the clfeval command line", name="pandas")
        uninstall()  # a deliberate import: from now on pandas is pandas, and pyarrow hears of it once it is loaded
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        run = getattr(spec.loader, "exec_module", None) if spec is not None else None
        if spec is not None and run is not None:
            def exec_module(module: ModuleType) -> None:  # pandas' own loader (a fresh one), then pyarrow told
                run(module)
                _tell_pyarrow()

            spec.loader.exec_module = exec_module  # type: ignore[method-assign,union-attr]
        return spec


def _tell_pyarrow() -> None:
    """After pandas is imported: pyarrow, which may have concluded it missing, probes again and finds it."""
    shim = getattr(sys.modules.get("pyarrow.lib"), "_pandas_api", None)
    lock = getattr(shim, "_lock", None)
    if shim is not None and not (lock is not None and lock.locked()):  # locked: pyarrow is importing it itself
        try:
            shim.pd  # noqa: B018 - a probe that imports pandas when pyarrow believes it missing
        except Exception:  # noqa: BLE001 - an unknown pyarrow: nothing is lost
            pass


def install() -> None:
    """Refuse pyarrow's implicit imports of pandas in this process (nothing if pandas is already imported)."""
    if "pandas" not in sys.modules and not any(isinstance(f, _RefuseImplicitPandas) for f in sys.meta_path):
        sys.meta_path.insert(0, _RefuseImplicitPandas())


def uninstall() -> None:
    """Let every import of pandas through again (pyarrow hears of pandas if it is already imported)."""
    for f in [f for f in sys.meta_path if isinstance(f, _RefuseImplicitPandas)]:
        sys.meta_path.remove(f)
    if sys.modules.get("pandas") is not None:
        _tell_pyarrow()

