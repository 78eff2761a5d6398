"""`promote draft`: one scrubbed trace turn → a draft portable-v1 case an SME only has to review."""

from promote.draft.builder import DraftOptions, DraftResult, draft_case
from promote.draft.export import (
    NothingMatched,
    draft_all,
    draft_from_export,
    draft_text,
    draft_turn,
    write_draft,
)
from promote.draft.inputs import DraftInputs, gather_inputs

__all__ = ["DraftInputs", "DraftOptions", "DraftResult", "NothingMatched", "draft_all", "draft_case",
           "draft_from_export", "draft_text", "draft_turn", "gather_inputs", "write_draft"]
