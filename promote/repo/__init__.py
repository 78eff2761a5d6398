"""The eval repo: where cases live, its catalog and config, and (later) pull requests."""
