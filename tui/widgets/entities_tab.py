"""Entities: map the production user to an overlay handle from the eval repo's catalog; params; tenant."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Input, Label, Select

from promote.case.model import Entity, Tenant
from tui.messages import CaseEdited
from tui.widgets.field_input import FieldInput
from tui.widgets.json_area import JsonArea


class EntitiesTab(VerticalScroll):
    def __init__(self, entities: list[Entity], catalog: list[Entity], params: dict, tenant: Tenant | None,
                 **kwargs) -> None:
        super().__init__(**kwargs)
        self.entities = list(entities)
        self.catalog = list(catalog)
        self.params = dict(params)
        self.tenant = tenant

    def compose(self) -> ComposeResult:
        first = self.entities[0] if self.entities else None
        yield Label("the production user → overlay handle (from the eval repo's catalog)")
        handles = [(f"{e.handle}  ({e.resolves_to or '?'})", e.handle) for e in self.catalog]
        if first is not None and first.handle not in {e.handle for e in self.catalog}:
            handles.insert(0, (first.handle, first.handle))
        yield Select(handles, value=first.handle if first else Select.NULL, prompt="pick a handle",
                     id="entity-handle")
        yield Label(self._about(first), id="entity-about")
        yield Label("params (JSON object)")
        yield JsonArea(self.params, id="entity-params")
        tenant = self.tenant
        yield Label("tenant id")
        yield FieldInput(tenant.id if tenant else "", id="tenant-id")
        yield Label("tenant environment")
        environment = tenant.environment if tenant else "sandbox"
        yield Select([(v, v) for v in ("sandbox", "staging")], value=environment, allow_blank=False,
                     id="tenant-environment")
        yield Label("tenant data")
        yield Select([(v, v) for v in ("synthetic", "production-scrubbed")],
                     value=tenant.data if tenant else "synthetic", allow_blank=False, id="tenant-data")

    @staticmethod
    def _about(entity: Entity | None) -> str:
        if entity is None:
            return "no entity"
        parts = [f"resolves to {entity.resolves_to}" if entity.resolves_to else "not resolved yet"]
        parts += [f"via {entity.via}"] if entity.via else []
        parts += [f"on {entity.calendar}"] if entity.calendar else []
        return " · ".join(parts)

    @on(Select.Changed, "#entity-handle")
    def _handle(self, event: Select.Changed) -> None:
        event.stop()
        chosen = next((e for e in self.catalog if e.handle == event.value), None)
        if chosen is None or (self.entities and self.entities[0].handle == chosen.handle):
            return  # the handle the case already maps to (a Select also reports its first value)
        entity = Entity(**chosen.model_dump(exclude_none=True))
        self.entities = [entity, *self.entities[1:]]
        self.query_one("#entity-about", Label).update(self._about(entity))
        self.post_message(CaseEdited("entities", list(self.entities)))

    @on(JsonArea.Parsed, "#entity-params")
    def _params(self, event: JsonArea.Parsed) -> None:
        event.stop()
        invalid = {"params": event.error} if event.error else {}
        self.post_message(CaseEdited("params", event.value or {}, invalid))

    @on(Input.Changed, "#tenant-id")
    @on(Select.Changed, "#tenant-environment")
    @on(Select.Changed, "#tenant-data")
    def _tenant(self, event) -> None:
        event.stop()
        tenant_id = self.query_one("#tenant-id", Input).value.strip()
        if not tenant_id:
            if self.tenant is not None:  # no id: no tenant (the shown controls and the case agree)
                self.tenant = None
                self.post_message(CaseEdited("tenant", None))
            return
        value = Tenant(id=tenant_id, environment=self.query_one("#tenant-environment", Select).value,
                       data=self.query_one("#tenant-data", Select).value)
        if value != self.tenant:
            self.tenant = value
            self.post_message(CaseEdited("tenant", value))
