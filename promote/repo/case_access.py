"""What `promote pr` needs of the case layer and the eval repo, in one place.

TEMPORARY ADAPTER over today's functions until `save_case`, `validate_case` and `EvalRepo` (the seams
issue) are on main: then each function below becomes one call into them (or this module goes away).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from promote.case.model import Case, Provenance, Review
from promote.case.yaml_io import load_tree
from promote.errors import PromoteError

DEFAULT_CASES_DIR = Path("evals/cases")


class ProblemLike(Protocol):
    where: str
    field: str
    rule: str
    message: str
    severity: str


def case_problems(path: Path) -> list[ProblemLike]:
    """Schema, the portable-v1 rules and the residual-PII scan of one case file."""
    from promote.case.validate import validate_case

    return list(validate_case(path))


def read_case(path: Path) -> tuple[bytes, Case | None]:
    """The file's bytes and its case (None when it is not a schema-valid case; the gates say why)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise PromoteError("no such file", where=str(path)) from None
    except OSError as exc:
        raise PromoteError(f"cannot read: {exc.strerror}", where=str(path)) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PromoteError(f"not UTF-8 text (byte {exc.start})", where=str(path)) from None
    tree = load_tree(path, text)
    try:
        return data, Case.model_validate(tree)
    except ValueError:
        return data, None


def load_case_model(path: Path) -> Case | None:
    """The case in a file of the eval repo, or None when it is not a readable case."""
    try:
        return Case.model_validate(load_tree(path))
    except (PromoteError, ValueError):
        return None


def cases_dir(root: Path) -> Path:
    """The eval repo's case folder, relative to its root: where its cases are, else `evals/cases/`."""
    if (root / DEFAULT_CASES_DIR).is_dir():
        return DEFAULT_CASES_DIR
    for candidate in sorted(root.rglob("*.yaml")):
        if ".git" in candidate.parts:
            continue
        try:
            head = candidate.read_text(encoding="utf-8", errors="replace")[:4096]
        except OSError:
            continue
        if "format: portable-v1" in head:
            return candidate.parent.relative_to(root)
    return DEFAULT_CASES_DIR


def case_files(folder: Path) -> list[Path]:
    from promote.case.validate import case_files_under

    return case_files_under(folder)


def sme_identity(root: Path) -> str:
    from promote.repo.eval_repo import EvalRepo

    return EvalRepo.find(root).sme_identity()


def record_review(path: Path, pr_number: int) -> None:
    """Set `provenance.review` to the PR's number and `state: open`, changing only those lines."""
    from promote.case.store import load_case, save_case

    loaded = load_case(path)
    updated = loaded.case.model_copy(deep=True)
    provenance: Any = updated.provenance or Provenance()
    provenance.review = Review(pr=pr_number, state="open")
    updated.provenance = provenance
    save_case(updated, path, base=loaded)
