"""`promote compile`: route each valid case to its backends, write or check the artifacts, log it all.

The one place compile touches the disk. Backends are pure; this module loads the cases (valid ones
only: a draft is not compiled until it is reviewed, a retired case's artifacts become orphans), the
suite policy and the repo's entity catalog, runs every selected target of `targets.TARGETS`, and
compares what they produce with what the output folder holds: `in-sync`, `out-of-sync` (stale),
`missing`, or `orphaned` (a file compile wrote that no case produces any more). Writing makes the
files compile owns exactly the compiled set, and never touches another (`output_folder`: a manifest of
what compile wrote, no write or removal through a symlink); `check=True` writes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from promote.case.model import Case, Entity
from promote.case.problems import errors
from promote.case.store import load_case
from promote.case.validate import find_case_files, validate_case
from promote.compile import output_folder
from promote.compile.artifacts import Artifact, CompileUnit, CompileWarning, resolve_entities
from promote.compile.policy import LoadedPolicy, find_policy, load_suite_policy
from promote.compile.targets import TARGETS, Target, backend_metrics, target_names
from promote.errors import PromoteError
from promote.fsutil import atomic_write_text
from promote.eval_repo import EvalRepo

Result = Literal["written", "in-sync", "out-of-sync", "missing", "orphaned", "removed"]
STALE: frozenset[str] = frozenset({"out-of-sync", "missing", "orphaned"})


@dataclass(frozen=True)
class LogLine:
    """One artifact of the compile log."""

    target: str
    label: str
    path: str
    result: Result


@dataclass
class CompileReport:
    """What a compile did or would do."""

    policy: str
    check: bool
    lines: list[LogLine] = field(default_factory=list)
    warnings: list[CompileWarning] = field(default_factory=list)
    notes: list[CompileWarning] = field(default_factory=list)
    """Where each concern of a case went (a backend, or `promote check`): the log's routing lines."""
    routed: dict[str, list[str]] = field(default_factory=dict)
    """Case id -> the targets it was compiled to."""
    skipped: list[tuple[str, str]] = field(default_factory=list)
    """(case file, why) of cases not compiled."""
    kept: list[str] = field(default_factory=list)
    """Files in a target's folder that compile did not write: the user's, left as they are."""

    @property
    def stale(self) -> list[LogLine]:
        return [line for line in self.lines if line.result in STALE]


def parse_targets(text: str | None) -> list[str]:
    """`adk,ragas` -> ["adk", "ragas"]; None -> every target. An unknown name is bad input."""
    names = target_names()
    if text is None:
        return names
    chosen = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [name for name in chosen if name not in names]
    if unknown or not chosen:
        raise PromoteError(f"unknown target {', '.join(unknown) or repr(text)}",
                           hint=f"choose from {','.join(names)}")
    return [name for name in names if name in chosen]


def compile_paths(
    paths: list[str | Path], out_dir: Path, *, targets: list[str] | None = None,
    policy_path: Path | None = None, check: bool = False, pii_scan: bool = True,
) -> CompileReport:
    """Compile every case under `paths` into `out_dir` (or, with `check`, compare without writing).

    Fails closed: a case with residual PII is refused like in `promote validate`, since artifacts travel
    further than the case (a judge model, another team's runner); `pii_scan=False` skips that scan.
    """
    out_dir = Path(out_dir)
    output_folder.refuse_unusable(out_dir)
    selected = [target for target in TARGETS if target.name in (targets or target_names())]
    files = [path for path in find_case_files(paths) if not _inside(path, out_dir)]
    if not files:
        raise PromoteError("no case files found", where=", ".join(str(path) for path in paths),
                           hint="pass case files or the folder holding them")
    policy_file = policy_path if policy_path is not None else find_policy(Path(paths[0]))
    loaded = load_suite_policy(policy_file, backend_metrics())
    report = CompileReport(policy=loaded.path, check=check)
    units = _load_units(files, report, pii_scan)
    for target in selected:  # every path is checked before the first write
        output_folder.guard(out_dir, target.name)
    written = output_folder.read_manifest(out_dir)
    owned = set(written)
    for target in selected:
        produced = _run_target(target, units, loaded, out_dir, report, written)
        owned = {path for path in owned if not path.startswith(f"{target.name}/")} | produced
    if not check and (owned or written):
        output_folder.write_manifest(out_dir, owned)
    return report


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


def _load_units(files: list[Path], report: CompileReport, pii_scan: bool) -> list[CompileUnit]:
    catalog = _catalog_entities(files[0])
    units: list[CompileUnit] = []
    seen: dict[str, Path] = {}
    for path in files:
        case = _valid_case(path, pii_scan)
        if case.status != "valid":
            report.skipped.append((str(path), f"status {case.status}: only valid cases are compiled"))
            continue
        if case.id in seen:
            raise PromoteError(f"id {case.id} is also used by {seen[case.id]}", where=f"{path}:1",
                               hint="ids must be unique")
        seen[case.id] = path
        units.append(CompileUnit(case, path, resolve_entities(case, catalog)))
    return sorted(units, key=lambda unit: unit.case.id)


def _valid_case(path: Path, pii_scan: bool) -> Case:
    """The case in `path`, or PromoteError at its first error (the checks of `promote validate`)."""
    found = errors(validate_case(path) if pii_scan else validate_case(path, residual_scan=None))
    if found:
        first = found[0]
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise PromoteError(f"{first.field or 'case'}: {first.message}{more}", where=first.where,
                           hint="run promote validate; only valid cases compile")
    return load_case(path).case


def _catalog_entities(start: Path) -> list[Entity]:
    """The eval repo's entity catalog (`evals/entities.yaml`: the handles it defines), possibly empty."""
    return list(EvalRepo.find(start).catalog.entities)


def _run_target(
    target: Target, units: list[CompileUnit], loaded: LoadedPolicy, out_dir: Path, report: CompileReport,
    written: set[str],
) -> set[str]:
    """Write (or check) one target's artifacts and remove the ones compile wrote that are no longer
    produced; the paths it produces. `written`: what the manifest says compile wrote before."""
    routed = [unit for unit in units if target.select(unit.case, loaded.policy, target.name)]
    output = target.compile(routed, loaded.policy) if routed else None
    artifacts = output.artifacts if output else []
    if output:
        report.warnings += output.warnings
        report.notes += output.notes
    for unit in routed:
        report.routed.setdefault(unit.case.id, []).append(target.name)
    produced = {artifact.path for artifact in artifacts}
    if len(produced) != len(artifacts):
        raise PromoteError(f"target {target.name} produced one artifact path twice", hint="report this")
    for artifact in artifacts:
        output_folder.guard(out_dir, artifact.path)
    for artifact in artifacts:
        result = _sync(artifact, out_dir, report.check)
        report.lines.append(LogLine(target.name, target.label, artifact.path, result))
    present = output_folder.files_under(out_dir, target.name)
    for relative in sorted(path for path in written if path.startswith(f"{target.name}/")):
        if relative in produced or relative not in present:
            continue
        if not report.check:
            output_folder.remove_written(out_dir, relative)
        result = "orphaned" if report.check else "removed"
        report.lines.append(LogLine(target.name, target.label, relative, result))
    report.kept += [path for path in present if path not in produced and path not in written]
    return produced


def _sync(artifact: Artifact, out_dir: Path, check: bool) -> Result:
    path = out_dir / artifact.path
    try:
        current = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        current = None
    except (OSError, UnicodeDecodeError):
        current = ""  # unreadable or not text: stale, rewritten below
    if current == artifact.text:
        return "in-sync"
    if check:
        return "missing" if current is None else "out-of-sync"
    atomic_write_text(path, artifact.text)
    return "written"


def render_log(report: CompileReport) -> str:
    """The compile log: one line per artifact (target, artifact, result), then warnings and a summary."""
    width = max([len(line.label) for line in report.lines] + [len("Target")])
    path_width = max([len(line.path) for line in report.lines] + [len("Artifact")])
    lines = [f"{'Target':<{width}}  {'Artifact':<{path_width}}  Result"]
    lines += [f"{line.label:<{width}}  {line.path:<{path_width}}  {line.result}" for line in report.lines]
    for case_id, names in sorted(report.routed.items()):
        lines.append(f"{case_id}: {len(names)} target(s): {', '.join(names)}")
    lines += [f"routing: {note.target}: {note}" for note in report.notes]
    lines += [f"skipped {path}: {why}" for path, why in report.skipped]
    lines += [f"kept {path}: not written by promote compile" for path in report.kept]
    lines += [f"warning: {warning.target}: {warning}" for warning in report.warnings]
    counts: dict[str, int] = {}
    for line in report.lines:
        counts[line.result] = counts.get(line.result, 0) + 1
    summary = ", ".join(f"{count} {result}" for result, count in sorted(counts.items()))
    summary = summary or "nothing to compile"
    lines.append(f"{len(report.lines)} artifact(s): {summary} (policy {report.policy})")
    return "\n".join(lines)
