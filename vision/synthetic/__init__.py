"""The synthetic table: a virtual camera over a drawn table with tagged figures, with ground truth.

It is the demo's camera, the test fixture and the benchmark source.
"""
