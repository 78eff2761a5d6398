"""What a draft needs from outside the trace, gathered before drafting: `draft_case` reads nothing itself.

`gather_inputs` reads the eval repo once (its settings, catalog, case ids and the duplicate index of its
cases, the budget policy, who promotes) and takes the export's digest from the caller (the source read
the export); `DraftInputs` is then all `draft_case` looks at besides the scrubbed trace and the options.
`draft --all` adds each case it writes (`DraftInputs.written`), so its next ids and duplicates count it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import Field, ValidationError

from promote.case.model import Case
from promote.case.yaml_io import load_tree
from promote.compile.policy import BudgetPolicy
from promote.draft.budgets import budget_policy
from promote.errors import PromoteError
from promote.models import Model
from promote.eval_repo import Catalog, EvalRepo, RepoConfig, next_free_id

if TYPE_CHECKING:
    from promote.draft.builder import DraftOptions

class DraftInputs(Model):
    """The eval repo as a draft sees it, and the export's digest."""

    config: RepoConfig
    """`evals/promote.yaml` (or the neutral defaults)."""
    catalog: Catalog
    """`evals/entities.yaml` (or an empty catalog)."""
    case_ids: set[str] = Field(default_factory=set)
    """The file stems of the cases already in the cases folder (the numbering of a new id)."""
    duplicates: dict[str, str] = Field(default_factory=dict)
    """`duplicate_key(input, tools)` of each existing case → its file (the first with that key)."""
    promoted_by: str
    """Who promotes: `--by`, else git `user.name`/`user.email` of the cases folder, else the login name."""
    budgets: BudgetPolicy
    """The eval repo's suite policy's budget settings."""
    export_sha256: str
    """The export's sha256, for the draft's provenance."""

    def next_id(self, prefix: str) -> str:
        """`<prefix>_<NNN>`, NNN one above the highest number in use for that prefix."""
        return next_free_id(prefix, self.case_ids)

    def duplicate_of(self, user_input: str | None, tool_names: list[str]) -> str | None:
        """The file of a case with the same input (whitespace aside) and tool-name trajectory."""
        return self.duplicates.get(duplicate_key(user_input, tool_names)) if user_input is not None else None

    def written(self, case: Case, path: Path) -> None:
        """A case drafted in this run was written at `path`: later drafts number on and see it."""
        self.case_ids.add(path.stem)
        tools = [call.name for call in case.expected_tools.calls] if case.expected_tools else []
        self.duplicates.setdefault(duplicate_key(case.input, tools), str(path))


def duplicate_key(user_input: str, tool_names: list[str]) -> str:
    """What two cases share when one duplicates the other: the input, whitespace aside, and the tools."""
    return "\x1f".join([" ".join(user_input.split()), *tool_names])


def gather_inputs(options: DraftOptions, *, export_sha256: str) -> DraftInputs:
    """Read what a draft needs from the eval repo `options` point at."""
    repo = EvalRepo.find(options.repo, cases_dir=options.cases_dir)
    case_ids, duplicates = existing_cases(repo)
    return DraftInputs(config=repo.config, catalog=repo.catalog, case_ids=case_ids, duplicates=duplicates,
                       promoted_by=repo.sme_identity(options.by), budgets=budget_policy(repo.root),
                       export_sha256=export_sha256)


def existing_cases(repo: EvalRepo) -> tuple[set[str], dict[str, str]]:
    """The stems of the repo's case files, and its duplicate index (`DraftInputs.duplicates`)."""
    case_ids: set[str] = set()
    duplicates: dict[str, str] = {}
    for path in repo.case_files():
        case_ids.add(path.stem)
        try:
            case = Case.model_validate(load_tree(path))
        except (PromoteError, ValidationError):
            continue  # not a readable case: `promote validate` reports it, drafting need not
        tools = [call.name for call in case.expected_tools.calls] if case.expected_tools else []
        duplicates.setdefault(duplicate_key(case.input, tools), str(path))
    return case_ids, duplicates
