"""promote."""
