"""The parts of a rebuilt agent turn, by role: what the engine is told a value *is* when it is not a span
attribute but a part of a turn (the user's input, a tool's arguments, its result, the reply).

A caller that scrubs a turn names each part's role (`ScrubEngine.scrub_items([(ctx, Role.USER_INPUT,
text), ...])`), never an attribute key of some trace format. How a role is read is this module's
business: each reads under the rule of the attribute that carries that part in the OpenTelemetry GenAI
conventions, so a tool name passes like `gen_ai.tool.name` (code-defined, when it looks like code), a
user id is an id like `user.id`, and a tool's arguments and result are JSON read member by member.
`Role` members are strings (the key the engine's rules read), so the engine needs no second path; a text
with no role (a warning that quotes the trace) is scrubbed under no key, as prose.
"""

from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    """What a part of a trace or turn is (each member's value is the key rule it is read under)."""

    USER_ID = "user.id"
    """The end user's id the producer recorded: an id, personal."""
    SESSION_ID = "session.id"
    """The conversation's id."""
    AGENT = "gen_ai.agent.name"
    """The agent's name: code-defined when it reads as code (`hr_policy_advisor`)."""
    SERVICE = "service.name"
    """The service that ran the agent."""
    INVOCATION_ID = "gcp.vertex.agent.invocation_id"
    """The producer's id of one turn (ADK's `e-…`)."""
    USER_INPUT = "user_input"
    """The user's message: prose, its parts joined by new lines."""
    TOOL_NAME = "gen_ai.tool.name"
    """A tool's name: code-defined when it reads as code (`get_employee_context`)."""
    TOOL_CALL_ID = "gen_ai.tool.call.id"
    """The model's id of one tool call."""
    TOOL_ARGS = "tool_call_args"
    """A tool call's arguments: JSON, each member read under its own key."""
    TOOL_RESULT = "tool_response"
    """A tool call's result: JSON or text."""
    TOOL_ERROR = "error"
    """A failed tool call's error message."""
    MODEL = "gen_ai.request.model"
    """The model a call asked for."""
    REPLY = "final_response"
    """The agent's final text reply: prose, its parts joined by new lines."""
