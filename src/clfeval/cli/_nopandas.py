"""Keep pyarrow from importing pandas behind clfeval's back in the ``clfeval`` process (issue 23).

pyarrow imports pandas, when it is installed, the first time it converts Python or NumPy values (``pa.array``,
``pa.scalar``, ``pc.equal(column, "")``, …): to ask whether they are pandas objects (its ``_pandas_api`` shim), and,
in C++, to learn pandas' missing-value types. That is about 0.2 s on every command — more than reading a 1,000-row
CSV — for objects the command line never hands it (the local engine has no pandas).

The command line owns its process, so :func:`install` (called by :func:`clfeval.cli.console_main`) refuses the
*implicit* imports: an import of pandas made from inside pyarrow's compiled code while clfeval's or pyarrow's Python
code is calling it finds "no pandas", as on a machine without it, which pyarrow handles. A *deliberate* import —
an ``import pandas`` statement anywhere, ``importlib.import_module`` (the Dask engine, a plug-in) or any import made
from other code — goes through; from then on nothing is refused and pyarrow is told that pandas is there, before
anyone can hand it a pandas object. The library itself never does this: a user's process is the user's.
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
from collections.abc import Sequence
from types import FrameType, ModuleType
from typing import Any

__all__ = ["install", "uninstall"]


def _package_dir(module: str) -> str | None:
    file = getattr(sys.modules.get(module), "__file__", None)
    return os.path.join(os.path.dirname(os.path.realpath(file)), "") if file else None


def _caller(frame: FrameType | None) -> FrameType | None:
    """The first frame outside the import machinery (and this module)."""
    here = __file__
    while frame is not None:
        name = frame.f_code.co_filename
        if not (name.startswith("<frozen importlib") or name == here):
            return frame
        frame = frame.f_back
    return None


class _RefuseImplicitPandas:  # a meta path finder (no importlib.abc: it costs the start of every command)
    """Refuses pandas to pyarrow's implicit imports; gets out of the way at the first deliberate one."""

    def _implicit(self) -> bool:
        try:
            frame = _caller(sys._getframe(1))
            if frame is None:
                return False
            name = os.path.realpath(frame.f_code.co_filename)
            dirs = tuple(d for d in (_package_dir("clfeval"), _package_dir("pyarrow")) if d)
            if not dirs or not name.startswith(dirs):
                return False  # someone else's code: theirs to decide
            import opcode  # only when pyarrow asks for pandas

            code = frame.f_code.co_code
            return frame.f_lasti < 0 or code[frame.f_lasti] != opcode.opmap["IMPORT_NAME"]  # a call, not `import`
        except Exception:  # noqa: BLE001 - when in doubt, let the import happen
            return False

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname != "pandas":
            return None
        if self._implicit():
            raise ModuleNotFoundError("pandas is not imported by the clfeval command line", name="pandas")
        uninstall()  # a deliberate import: from now on pandas is pandas, and pyarrow hears of it once it is loaded
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is not None and spec.loader is not None and hasattr(spec.loader, "exec_module"):
            spec.loader = _ThenTellPyarrow(spec.loader)  # type: ignore[assignment]
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


class _ThenTellPyarrow:  # a loader
    """pandas' own loader, then :func:`_tell_pyarrow`."""

    def __init__(self, loader: Any) -> None:
        self._loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        _tell_pyarrow()

    def __getattr__(self, name: str) -> Any:  # is_package, get_resource_reader, … of the real loader
        return getattr(self._loader, name)


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
