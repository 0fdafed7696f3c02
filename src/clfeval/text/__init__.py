"""Text classification helpers: corpus readers, model pipelines, term analysis.

Nothing here evaluates anything: these modules produce texts, labels and
scores, and the rest of clfeval counts and judges them.
"""
