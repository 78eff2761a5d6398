"""Entities: map the production user to an overlay handle (picked from the eval repo's catalog, or typed:
a handle the catalog does not list yet is allowed); params; tenant.

The handle field is the case's handle. Picking a catalog entry fills it (and the entry's record, scenario
pack and calendar); typing a catalog handle takes that entry too; typing any other handle maps the user
to that handle alone (no record, pack or calendar: they belonged to the handle before). The picker shows
the catalog entry the field names, or its prompt when the field names none.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.suggester import SuggestFromList
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
        listed = {entity.handle for entity in self.catalog}
        yield Label("the user → an overlay handle from the catalog")
        handles = [(f"{e.handle}  ({e.resolves_to or '?'})", e.handle) for e in self.catalog]
        prompt = "pick a handle from the catalog" if self.catalog else "no catalog (evals/entities.yaml)"
        yield Select(handles, value=first.handle if first and first.handle in listed else Select.NULL,
                     prompt=prompt, id="entity-handle")
        yield Label("or type one (not in the catalog is fine)")
        yield FieldInput(first.handle if first else "", id="entity-handle-text", placeholder="overlay handle",
                         suggester=SuggestFromList(sorted(listed)) if listed else None,
                         tooltip="the case's handle (right arrow takes a catalog handle it suggests)")
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
    def _picked(self, event: Select.Changed) -> None:
        event.stop()
        chosen = next((e for e in self.catalog if e.handle == event.value), None)
        if chosen is None or (self.entities and self.entities[0].handle == chosen.handle):
            return  # the handle the case already maps to (a Select also reports its first value)
        field = self.query_one("#entity-handle-text", Input)
        with field.prevent(Input.Changed):
            field.value = chosen.handle  # not being typed in: the SME is in the picker
        self._map_to(Entity(**chosen.model_dump(exclude_none=True)))

    @on(Input.Changed, "#entity-handle-text")
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        handle = event.value.strip()
        current = self.entities[0] if self.entities else None
        if current is not None and current.handle == handle:
            return
        chosen = next((e for e in self.catalog if e.handle == handle), None)
        picker = self.query_one("#entity-handle", Select)
        with picker.prevent(Select.Changed):
            picker.value = chosen.handle if chosen else Select.NULL
        if not handle:
            # No handle: the case keeps its last one until one is typed (a problem meanwhile).
            why = "type a handle or pick one from the catalog"
            self.post_message(CaseEdited("entities", list(self.entities), {"entities[0].handle": why}))
            return
        self._map_to(Entity(**chosen.model_dump(exclude_none=True)) if chosen else Entity(handle=handle))

    def _map_to(self, entity: Entity) -> None:
        self.entities = [entity, *self.entities[1:]]
        about = self.query_one("#entity-about", Label)
        if str(about.content) != self._about(entity):  # an update lays the screen out again: not per key
            about.update(self._about(entity))
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
