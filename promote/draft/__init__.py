"""`promote draft`: one scrubbed trace turn → a draft portable-v1 case an SME only has to review."""

from promote.draft.builder import DraftOptions, DraftResult, draft_case
from promote.draft.export import NothingMatched, draft_all, draft_from_export, draft_text, write_draft

__all__ = ["DraftOptions", "DraftResult", "NothingMatched", "draft_all", "draft_case", "draft_from_export",
           "draft_text", "write_draft"]
