"""The core: labels, count tables that add, every count metric over stacks of tables, the metric catalogue,
the signature and the resampling engines. Nothing here imports scipy or scikit-learn.

Modules: ``validation`` (argument checks), ``labels`` (label encoding), ``labelforms`` (Unicode and number forms
of labels), ``gold`` (gold labels encoded once), ``tables`` (ConfusionTable, MultilabelTable, JointTable,
accumulators), ``metrics`` (count-metric functions), ``catalog`` (the one list of named metrics), ``scoring`` (the
catalogue evaluated on tables), ``resample`` (count-based and index-based resampling engines), ``signature`` (the
signature of every result), ``results`` (JSON-safe numbers), ``decimate`` (figure data), ``display`` (notebook
display of results).
"""
