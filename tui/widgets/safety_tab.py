"""Safety: must-not constraints picked from a list (pii-leak with its scope, content categories),
and whether a refusal is expected."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Checkbox, Input, Label, SelectionList

from promote.case.model import Safety, SafetyRule
from tui.edit_session import PII_LEAK_SCOPE
from tui.messages import CaseEdited
from tui.widgets.check_box import CheckBox
from tui.widgets.field_input import FieldInput

PII = "pii-leak"
CONTENT = "harmful-content"
# Llama Guard 4's hazard categories (shared/reference/backends.md §3.1): the scope of a harmful-content rule.
HAZARDS = ("S1 violent crimes", "S2 non-violent crimes", "S3 sex-related crimes",
           "S4 child sexual exploitation",
           "S5 defamation", "S6 specialized advice", "S7 privacy", "S8 intellectual property",
           "S9 indiscriminate weapons", "S10 hate", "S11 suicide and self-harm", "S12 sexual content",
           "S13 elections", "S14 code interpreter abuse")
DEFAULT_SCOPE = PII_LEAK_SCOPE


class SafetyTab(VerticalScroll):
    def __init__(self, safety: Safety | None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.safety = safety or Safety()
        self.had_safety = safety is not None

    def _rule(self, category: str) -> SafetyRule | None:
        return next((rule for rule in self.safety.must_not if rule.category == category), None)

    def compose(self) -> ComposeResult:
        pii = self._rule(PII)
        content_scopes = {rule.scope for rule in self.safety.must_not if rule.category == CONTENT}
        yield Label("the reply must not (space toggles)")
        options = [("pii-leak: personal data beyond the requesting user's own", PII, pii is not None)]
        options += [(f"{CONTENT}: {hazard}", hazard, hazard in content_scopes) for hazard in HAZARDS]
        yield SelectionList[str](*options, id="safety-must-not")
        yield Label("pii-leak scope")
        yield FieldInput(pii.scope if pii and pii.scope else DEFAULT_SCOPE, id="safety-scope")
        refusal = any(rule.category == "refusal" for rule in self.safety.must)
        yield CheckBox("a refusal is expected", refusal, id="safety-refusal")

    @on(SelectionList.SelectedChanged)
    @on(Input.Changed)
    @on(Checkbox.Changed)
    def _changed(self, event) -> None:
        event.stop()
        chosen = set(self.query_one("#safety-must-not", SelectionList).selected)
        scope = self.query_one("#safety-scope", Input).value.strip() or None
        known = {PII, CONTENT, "refusal"}
        must_not = [rule for rule in self.safety.must_not if rule.category not in {PII, CONTENT}]
        if PII in chosen:
            must_not.insert(0, SafetyRule(category=PII, scope=scope))
        must_not += [SafetyRule(category=CONTENT, scope=hazard) for hazard in HAZARDS if hazard in chosen]
        must = [rule for rule in self.safety.must if rule.category not in known]
        if self.query_one("#safety-refusal", Checkbox).value:
            must.append(SafetyRule(category="refusal"))
        fields = {"must_not": must_not} if must_not or "must_not" in self.safety.model_fields_set else {}
        if must or "must" in self.safety.model_fields_set:
            fields["must"] = must
        value = Safety(**fields) if fields else None
        if value == self.safety or (value is None and not self.had_safety):
            return
        self.post_message(CaseEdited("safety", value))
