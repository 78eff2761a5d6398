"""`promote draft`: one scrubbed trace turn → a draft portable-v1 case an SME only has to review."""

from promote.draft.builder import DraftOptions, DraftResult, draft_case
from promote.draft.export import draft_all, draft_from_export, gated_yaml, write_draft

__all__ = ["DraftOptions", "DraftResult", "draft_all", "draft_case", "draft_from_export", "gated_yaml", "write_draft"]
