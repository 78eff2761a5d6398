"""Suggested title, pillar and topic of a draft (the SME can change any of them)."""

from __future__ import annotations

import re

from promote.case.rules import PLACEHOLDER_RE
from promote.trace_model import ToolCall

TITLE_MAX = 72
_CONTEXT_WORDS = {"context", "profile", "whoami", "identity"}
_VERBS = {"get", "search", "list", "fetch", "lookup", "find", "query", "update", "set", "create",
          "delete", "read", "retrieve", "check", "submit", "request", "lookup", "compute", "calculate"}
_GENERIC = {"documents", "document", "records", "record", "data", "info", "details"}
_GREETING = re.compile(r"^(hi|hello|hey|thanks|thank you|dear)\b", re.IGNORECASE)
# Words that introduce a personal value ("account <US_BANK_NUMBER_1>"): cut with the value, as are the
# words of the placeholder's own label ("routing <ABA_ROUTING_NUMBER_1>", "badge <BADGE_ID_1>").
_LABELS = {"account", "born", "number", "cell", "id", "address", "at", "for", "in", "with", "from", "is",
           "are", "be"}
_FILLER = {"and", "or", "so", "but", "also", "please", "then", "a", "an", "the", "my", "i", "me", "do",
           "what", "how", "is", "can", "you", "much", "many", "this", "that", "of", "to", "if"}


def title_from_input(text: str) -> str:
    """A title from the input: its first question, else first sentence, naming no one (no placeholders,
    no greetings), at most 72 characters."""
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s.strip()]
    candidates = [_without_placeholders(s) for s in sentences]
    candidates = [c for c in candidates if len(c.split()) > 2 and not _GREETING.match(c)]
    questions = [c for c in candidates if c.endswith("?")]
    title = (questions or candidates or [PLACEHOLDER_RE.sub("", text)])[0]
    title = re.sub(r"^(and|so|but|also|ok|okay|well)\s+", "", title.strip(), flags=re.IGNORECASE)
    title = " ".join(title.rstrip(" .?!:,").split())
    if len(title) > TITLE_MAX:
        title = title[: TITLE_MAX - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"
    return title[:1].upper() + title[1:]


def _without_placeholders(sentence: str) -> str:
    """"Is my spouse <PERSON_1> covered?" → "Is my spouse covered?"; a statement is cut before its
    first placeholder ("Please switch my deposit to routing <ABA_ROUTING_NUMBER_1>, ..." → "Please switch
    my deposit"), since what follows a name or number is usually more of the same."""
    if not PLACEHOLDER_RE.search(sentence):
        return sentence
    if sentence.endswith("?"):
        cleaned = PLACEHOLDER_RE.sub("", sentence)
        return re.sub(r"\s+([,.?!)])", r"\1", re.sub(r"\(\s*[,\s]*\)", "", cleaned))
    first = PLACEHOLDER_RE.search(sentence)
    label = {part.lower() for part in re.findall(r"[A-Z]{2,}", first.group())}
    words = sentence[: first.start()].split()
    while words and words[-1].lower().strip(",:;") in _FILLER | _LABELS | label:
        words.pop()
    return " ".join(words).rstrip(",:;")


def main_call(calls: list[ToolCall]) -> ToolCall | None:
    """The last call that is not a context lookup (`get_employee_context`), else the last call."""
    for call in reversed(calls):
        if not _CONTEXT_WORDS & set(call.name.lower().split("_")):
            return call
    return calls[-1] if calls else None


def pillar_of(calls: list[ToolCall], agent_names: list[str], user_input: str,
              pillars: dict[str, list[str]]) -> str | None:
    """The first pillar (in `pillars` order, the eval repo's config) whose words the main tool, then any
    tool, then the agent, then the input uses; None when none does or there are no pillars."""
    main = main_call(calls)
    sources = [main.name if main else "", " ".join(c.name for c in calls), " ".join(agent_names), user_input]
    vocabulary = {pillar: {word.lower() for word in words} for pillar, words in pillars.items()}
    for text in sources:
        words = set(re.split(r"[^a-z0-9]+", text.lower()))
        for pillar, known in vocabulary.items():
            if words & known:
                return pillar
    return None


# Words that say what an agent is, not what it is about ("hr_policy_advisor" → hr).
_AGENT_WORDS = {"agent", "agents", "assistant", "advisor", "adviser", "bot", "chatbot", "service", "svc",
                "api", "app", "server", "adk", "google", "llm", "ai", "the", "a", "an", "my", "copilot",
                "helper"}


def neutral_pillar(agent: str | None, service: str | None) -> str:
    """The id prefix of a draft when the eval repo sets none: the first word of the agent's (else the
    service's) name that says what it is about (`helm_release_agent` → `helm`); `agent` when none does."""
    for name in (agent, service):
        words = [w for w in re.split(r"[^a-z0-9]+", (name or "").lower()) if w and w not in _AGENT_WORDS]
        words = [w for w in words if w[0].isalpha()]
        if words:
            return words[0]
    return "agent"


def topic_of(calls: list[ToolCall], user_input: str, pillar: str) -> str:
    """snake_case topic: the main tool's noun (+ the last word of its `topic` argument), else input words.

    `search_hr_policy(topic=pto_carryover)` → `policy_carryover`; `get_accrual_balances` →
    `accrual_balance`; `search_plan_documents(topic=dependent_coverage)` → `plan_coverage`.
    """
    main = main_call(calls)
    words: list[str] = []
    if main is not None:
        words = [w for w in main.name.lower().split("_") if w]
        if words and words[0] in _VERBS:
            words = words[1:]
        words = [w for w in words if w not in _GENERIC and w != pillar] or words
        if words:
            words[-1] = _singular(words[-1])
        argument = main.args.get("topic") if isinstance(main.args, dict) else None
        if isinstance(argument, str) and re.fullmatch(r"[a-z][a-z0-9_]*", argument):
            last = argument.split("_")[-1]
            if last not in words:
                words.append(last)
    if not words:
        title = PLACEHOLDER_RE.sub(" ", user_input)
        words = [w for w in re.findall(r"[a-z0-9]+", title.lower()) if w not in _FILLER | _VERBS][:2]
    topic = re.sub(r"[^a-z0-9_]+", "_", "_".join(words)).strip("_")
    return topic or "turn"


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word
