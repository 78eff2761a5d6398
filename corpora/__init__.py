"""Labelled text for measuring the scrubber, read by tests and benchmarks alike (neither imports the
other)."""
