"""One benchmark job in a fresh interpreter, and its own peak memory (shared by the bench scripts)."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "..", "src")


def peak_rss() -> int:
    """This process's peak resident set (VmHWM), in bytes.

    Not ``getrusage``'s ``ru_maxrss``: Linux keeps that high-water mark across ``fork`` and ``exec``, so a
    child started by a parent that holds gigabytes (a data generator) would report the parent's size."""
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


#: The jobs run with bytecode caches, as an installed package does (pip compiles what it installs): without them
#: (``PYTHONDONTWRITEBYTECODE`` set, an editable install) each fresh interpreter compiles every clfeval module it
#: imports from source, about 2.5 ms a module, and a job that imports more modules than its baseline pays for that.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
_compiled = False


def _bytecode() -> None:
    """Compile the package once per bench run (``__pycache__`` is ignored by git), so that the first job of a run
    does not pay the compilation the later ones are spared."""
    global _compiled
    if not _compiled:
        subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(SRC, "clfeval")], env=ENV,
                       capture_output=True, check=False)
        _compiled = True


def run(module: str, name: str, args: tuple[str, ...], *, rss_key: str = "rss",
        children_key: str | None = None) -> dict:
    """``module.JOBS[name](*args)`` in a fresh interpreter: its result, with its peak RSS under ``rss_key``
    (and the largest child's, e.g. Dask workers, under ``children_key``)."""
    _bytecode()
    code = (f"import sys, json, resource; sys.path.insert(0, {SRC!r}); sys.path.insert(0, {HERE!r}); "
            f"import _child, {module} as m; r = m.JOBS[{name!r}](*{list(args)!r}); "
            f"r[{rss_key!r}] = _child.peak_rss(); "
            + (f"r[{children_key!r}] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024; "
               if children_key else "")
            + "print('RESULT' + json.dumps(r))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, env=ENV)
    if out.returncode != 0:
        raise SystemExit(f"job {name} {args} failed:\n{out.stderr[-4000:]}")
    line = [x for x in out.stdout.splitlines() if x.startswith("RESULT")][-1]
    return json.loads(line[len("RESULT"):])
