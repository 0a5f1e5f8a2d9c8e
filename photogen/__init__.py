"""Realistic test photos of Qwixx score sheets (see photogen/README or the module docstrings)."""
