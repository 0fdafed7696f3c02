"""The repository's root conftest: the README's and the guide's examples are tests (see docexamples.py)."""

from docexamples import sybil

pytest_collect_file = sybil.pytest()

# the MkDocs hooks and the example-data generator are not test modules
collect_ignore_glob = ["docs/*.py", "docs/**/*.py"]
# the old name of clfeval.engines.dask re-points itself there when imported (issue 38): no doctest of its own
collect_ignore = ["src/clfeval/dask.py"]
