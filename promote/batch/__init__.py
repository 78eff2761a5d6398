"""Batch scrubbing of whole trace exports (promote scrub)."""
