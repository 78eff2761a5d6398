"""Pull requests into the eval repo: gates, branch, worktree, commit, push and the PR text (the eval repo
itself, its folders, catalog and config: `promote.eval_repo`)."""
