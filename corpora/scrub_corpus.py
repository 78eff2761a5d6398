"""Labelled corpus for the scrub accuracy benchmark: synthetic HR/payroll/benefits agent traces as the
scrubber sees them (span attribute strings), with the exact span and type of every planted personal
value and of every value a golden case must keep.

Deterministic: trace `i` of seed `s` depends only on `(s, i)`, so a 20-trace corpus is the prefix of
the 300-trace one. Regenerate with:

    .venv/bin/python -m corpora.scrub_corpus --traces 300 -o benchmarks/data/scrub_corpus.jsonl
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from corpora import scrub_corpus_values as v
from corpora.scrub_corpus_text import Seg, Text, Tree, fmt, join, keep, pii, render_json, render_text

DEFAULT_SEED = 20260629
# generated, not tracked: under benchmarks/data/ (git-ignored) with the other generated inputs
DEFAULT_PATH = Path(__file__).resolve().parent.parent / "benchmarks" / "data" / "scrub_corpus.jsonl"

PII_TYPES = ("PERSON", "EMAIL_ADDRESS", "PHONE_NUMBER", "US_SSN", "CREDIT_CARD", "US_BANK_NUMBER",
             "ROUTING_NUMBER", "STREET_ADDRESS", "DATE_OF_BIRTH", "EMPLOYEE_ID", "SECRET", "IP_ADDRESS")
KEEP_CATEGORIES = ("HOURS", "MONEY", "DATE", "POLICY_ID", "STATE", "ACRONYM", "REQUEST_ID",
                   "CASE_NUMBER", "JOB_TITLE", "TOOL_NAME", "DURATION")
StringKind = Literal["system_prompt", "user_message", "tool_args", "tool_result", "retrieval",
                     "chat_history", "model_reply", "resource_attribute", "stack_trace", "tool_output"]


class LabelledSpan(BaseModel):
    """A planted value inside one corpus string."""

    model_config = ConfigDict(extra="forbid")
    start: int = Field(description="Offset of the first character in the string's text.")
    end: int = Field(description="Offset just past the last character.")
    kind: Literal["pii", "keep"] = Field(description="pii: must be removed; keep: must survive verbatim.")
    label: str = Field(description="Entity type (PII_TYPES) or keep category (KEEP_CATEGORIES).")
    text: str = Field(description="The planted value, equal to text[start:end].")
    json_key: str | None = Field(default=None, description="The JSON object key whose value holds it.")
    keyed: bool = Field(default=False, description="The value is the whole string under json_key.")


class LabelledString(BaseModel):
    """One span attribute value of a synthetic trace."""

    model_config = ConfigDict(extra="forbid")
    string_id: str = Field(description="`<trace_id>/<kind>`, unique in the corpus.")
    kind: StringKind = Field(description="What part of an agent turn the string is.")
    attribute: str = Field(description="The span attribute key it would be exported under.")
    format: Literal["text", "json", "repr"] = Field(description="Free text, JSON text, or a Python repr.")
    text: str = Field(description="The string exactly as exported.")
    spans: list[LabelledSpan] = Field(description="Planted PII and keep items, in offset order.")


class LabelledTrace(BaseModel):
    """One synthetic agent turn: the strings that share a placeholder context."""

    model_config = ConfigDict(extra="forbid")
    trace_id: str = Field(description="Unique id, `t0000`-style.")
    scenario: str = Field(description="The HR request the turn is about.")
    strings: list[LabelledString] = Field(description="The turn's attribute strings.")


def _cast(rng: random.Random, scenario_tool: str, heldout: bool) -> dict[str, Seg | str]:
    """Every value one trace can mention, labelled."""
    first, last = v.person(rng, heldout=heldout)
    mgr_first, mgr_last = v.person(rng, heldout=heldout)
    cow_first, cow_last = v.person(rng, heldout=heldout)
    dob_iso, dob_written = v.birth_date(rng)
    date_iso, date_written = v.date_of_record(rng)
    _, date2_written = v.date_of_record(rng)
    code, state_name, policy_prefix, law = rng.choice(v.JURISDICTIONS)
    secret_kind, secret = v.secret(rng)
    ssn = v.ssn(rng)  # HRIS JSON holds the same number, sometimes without dashes
    ssn_json = ssn.replace("-", rng.choice(("-", "-", "", " ")))
    tools = [scenario_tool] + rng.sample([t for t in v.TOOLS if t != scenario_tool], 2)
    return {
        "first": pii(first, "PERSON"), "full": pii(f"{first} {last}", "PERSON"),
        # HRIS exports often write "Last, First"; the held-out set does
        "full_hris": pii(f"{last}, {first}" if heldout else f"{first} {last}", "PERSON"),
        "mgr_first": pii(mgr_first, "PERSON"), "mgr_full": pii(f"{mgr_first} {mgr_last}", "PERSON"),
        "cow_first": pii(cow_first, "PERSON"), "cow_full": pii(f"{cow_first} {cow_last}", "PERSON"),
        "email": pii(v.email(rng, first, last), "EMAIL_ADDRESS"),
        "mgr_email": pii(v.email(rng, mgr_first, mgr_last), "EMAIL_ADDRESS"),
        "phone": pii(v.phone(rng), "PHONE_NUMBER"), "ssn": pii(ssn, "US_SSN"),
        "ssn_json": pii(ssn_json, "US_SSN"),
        "dob_w": pii(dob_written, "DATE_OF_BIRTH"), "dob_iso": pii(dob_iso, "DATE_OF_BIRTH"),
        "address": pii(v.street_address(rng), "STREET_ADDRESS"),
        "empid": pii(v.employee_id(rng), "EMPLOYEE_ID"),
        "account": pii(v.bank_account(rng), "US_BANK_NUMBER"),
        "routing": pii(v.routing_number(rng), "ROUTING_NUMBER"),
        "card": pii(v.credit_card(rng), "CREDIT_CARD"), "ip": pii(v.ip_address(rng), "IP_ADDRESS"),
        "secret": pii(secret, "SECRET"),
        "secret_kind": {"api_key": "API key", "aws_key": "AWS access key", "bearer": "bearer token",
                        "jwt": "session token"}[secret_kind],
        "secret_prefix": "Bearer " if secret_kind == "bearer" else "",
        "hours": keep(f"{v.hours(rng)} hours", "HOURS"), "hours2": keep(f"{v.hours(rng)} hours", "HOURS"),
        "accrual": keep(f"{v.hours(rng)} hours", "HOURS"),
        "money": keep(v.money(rng), "MONEY"), "money2": keep(v.money(rng), "MONEY"),
        "date_w": keep(date_written, "DATE"), "date_iso": keep(date_iso, "DATE"),
        "date2_w": keep(date2_written, "DATE"), "dec31": keep("December 31", "DATE"),
        "policy": keep(v.policy_citation(rng, policy_prefix), "POLICY_ID"),
        "policy2": keep(v.policy_citation(rng, rng.choice(("FMLA-US", "BEN-US", "PAY-US"))), "POLICY_ID"),
        "state": keep(code, "STATE"), "state_name": keep(state_name, "STATE"),
        "law": keep(law, "ACRONYM"), "pto": keep("PTO", "ACRONYM"), "hris": keep("HRIS", "ACRONYM"),
        "hsa": keep(rng.choice(("HSA", "FSA")), "ACRONYM"), "acr": keep(rng.choice(v.ACRONYMS), "ACRONYM"),
        "req": keep(v.request_id(rng), "REQUEST_ID"), "case": keep(v.case_number(rng), "CASE_NUMBER"),
        "title": keep(rng.choice(v.JOB_TITLES), "JOB_TITLE"),
        "tool": keep(tools[0], "TOOL_NAME"), "tool_b": keep(tools[1], "TOOL_NAME"),
        "tool_c": keep(tools[2], "TOOL_NAME"),
        "duration": keep(rng.choice(("14 days", "12 weeks", "3 weeks", "5 business days")), "DURATION"),
    }


# scenario -> (the user's request, the tool called, extra tool args, the reply's answer)
SCENARIOS: dict[str, tuple[str, str, dict[str, str], str]] = {
    "pto_carryover": (
        "I think I have {hours} of {pto} left as of {date_w}. Can I carry it over past {dec31}?",
        "get_pto_balance", {},
        "you have {hours} of {pto} available as of {date_w}. Under {policy}, {state_name} employees may "
        "carry over up to {hours2}; anything above that on {dec31} is forfeited."),
    "leave_request": (
        "My manager {mgr_full} approved {duration} of {law} leave starting {date_w}. Please file it.",
        "submit_leave_request", {"leave_type": "law", "start_date": "date_iso", "approver": "mgr_full",
                                 "approver_email": "mgr_email"},
        "I filed {req} for {duration} of {law} leave from {date_w} and sent it to {mgr_full} "
        "({mgr_email}) for approval."),
    "direct_deposit": (
        ("Please switch my direct deposit to account {account}, routing {routing}, before the "
         "{date_w} payroll."),
        "update_direct_deposit", {"account_number": "account", "routing_number": "routing",
                                  "effective_date": "date_iso"},
        ("your direct deposit now goes to the new account, effective {date_w}. "
         "The change is logged as {req}.")),
    "address_change": (
        "I moved. My new address is {address} and my cell is {phone}.",
        "get_employee_profile", {"home_address": "address", "phone": "phone"},
        "I updated your home address to {address}. Your {acr} withholding for {state_name} stays at "
        "{money} per pay period."),
    "benefits": (
        "I want to enroll in the {hsa}. My SSN is {ssn} and my date of birth is {dob_w}.",
        "enroll_benefits", {"plan": "hsa", "ssn": "ssn", "date_of_birth": "dob_iso"},
        "you are enrolled in the {hsa} from {date_w}; your per-paycheck contribution is {money}, and "
        "{policy2} caps it at {money2} a year."),
    "expense": (
        "I paid the {money} certification fee with my card {card}. Can I get reimbursed?",
        "get_pay_stub", {"card_number": "card", "amount": "money"},
        "your reimbursement of {money} will appear on your {date2_w} pay stub (case {case})."),
    "access": (
        "I got locked out of the {hris} portal after a login from {ip}. My case number is {case}. "
        "This is the {secret_kind} it showed me: {secret_prefix}{secret}",
        "lookup_login_activity", {"ip_address": "ip", "case_number": "case", "access_token": "secret"},
        "the login from {ip} was blocked and case {case} is with IT. Please never paste a {secret_kind} "
        "in chat; IT will rotate it within {duration}."),
}
class Phrasing(NamedTuple):
    """The wording around the planted values: how people open, add, sign off; how the agent replies."""

    openings: tuple[str, ...]
    extras: tuple[str, ...]
    sign_offs: tuple[str, ...]
    greetings: tuple[str, ...]
    closings: tuple[str, ...]


OPENINGS = ("Hi, I'm {full} ({empid}).", "Hello, this is {full}, employee {empid}.",
            "{full} here, ID {empid}, {title} in {state_name}.", "Hi there. Employee {empid}, {full}.")
EXTRAS = ("You can reach me at {phone} or {email}.",
          "My coworker {cow_full} said the {hris} shows a different number.",
          "{cow_first} from payroll told me to ask you.", "My DOB is {dob_w} if you need to verify me.",
          "My {title} contract is under {policy}.")
SIGN_OFFS = ("Thanks, {first}", "Best,\n{full}", "Thanks!\n{first}", "- {first}", "Thank you.")
GREETINGS = ("Hi {first}, ", "Hello {first}! Sure: ", "Thanks for asking, {first}: ", "Good news, {first}: ")
CLOSINGS = ("Your manager {mgr_first} has been notified.", "Anything else I can help with?",
            "I also emailed a copy to {email}.", "Reply here if the {hris} record looks wrong.")


PHRASINGS = {
    "main": Phrasing(OPENINGS, EXTRAS, SIGN_OFFS, GREETINGS, CLOSINGS),
    # Held out: a generalisation check. Tune the engine on "main" only, then look at this one.
    "heldout": Phrasing(
        ("Good morning! {full} from the {title} team, badge {empid}.",
         "This is {first} ({empid}) writing in.",
         "Hey - {full}, {empid}, quick one.", "Employee number {empid} ({full}) here."),
        ("Please loop in {mgr_full} if needed.", "{cow_full} on my team had the same problem.",
         "Text me on {phone} or mail {email}.", "Ask {cow_first} in accounting if anything is unclear.",
         "Born {dob_w}, in case you need it."),
        ("Regards,\n{full}", "Cheers, {first}", "Many thanks\n{first}", "{full}\n{title}",
         "Sent from my phone"),
        ("Dear {first}, ", "{first}, ", "Hey {first} - ", "Morning {first}! "),
        ("I've copied {mgr_full} on this.", "Let me know if {cow_first} needs the same change.",
         "Have a good day!", "A confirmation went to {email}."),
    ),
}


def _user_message(rng: random.Random, s: dict, scenario: str, p: Phrasing) -> Text:
    parts = [fmt(rng.choice(p.openings), s), fmt(SCENARIOS[scenario][0], s)]
    parts += [fmt(t, s) for t in rng.sample(p.extras, rng.randint(0, 2))]
    return join(join(*parts), fmt(rng.choice(p.sign_offs), s), sep="\n")


def _reply(rng: random.Random, s: dict, scenario: str, p: Phrasing) -> Text:
    answer = SCENARIOS[scenario][3]
    return join(fmt(rng.choice(p.greetings) + answer, s), fmt(rng.choice(p.closings), s))


def _tool_args(s: dict, scenario: str) -> dict[str, Tree]:
    args: dict[str, Tree] = {"employee_id": s["empid"], "state": s["state"], "as_of": s["date_iso"]}
    args.update({key: s[slot] for key, slot in SCENARIOS[scenario][2].items()})
    return args


def _hris_result(rng: random.Random, s: dict) -> dict[str, Tree]:
    employee: dict[str, Tree] = {"employee_id": s["empid"], "name": s["full_hris"],
                                 "preferred_name": s["first"], "email": s["email"], "job_title": s["title"],
                                 "work_state": s["state"]}
    optional = {"phone": s["phone"], "home_address": s["address"], "date_of_birth": s["dob_iso"],
                "ssn": s["ssn_json"], "jurisdiction": s["state_name"]}
    employee.update({k: optional[k] for k in rng.sample(sorted(optional), rng.randint(2, len(optional)))})
    employee["manager"] = {"name": s["mgr_full"], "email": s["mgr_email"]}
    result: dict[str, Tree] = {"status": "success", "employee": employee, "balances": [
        {"type": s["pto"], "available": s["hours"], "accrual_rate": fmt("{accrual} per pay period", s),
         "as_of": s["date_iso"], "hours_numeric": 62.5},
        {"type": s["law"], "available": s["hours2"], "policy": s["policy"]}]}
    if rng.random() < 0.5:
        result["direct_deposit"] = [{"bank": "First Example Bank", "account_number": s["account"],
                                     "routing_number": s["routing"], "active": True}]
    if rng.random() < 0.4:
        result["recent_logins"] = [{"ip": s["ip"], "at": f"{s['date_iso'].text}T14:03:11Z", "ok": False}]
    if rng.random() < 0.4:
        result["open_cases"] = [{"case_number": s["case"], "request_id": s["req"], "opened": s["date_iso"]}]
    return result


def _retrieval(s: dict) -> dict[str, Tree]:
    return {"query": fmt("{pto} carryover {state_name}", s), "chunks": [
        {"citation": s["policy"], "source": "policies/pto.md", "text": fmt(
            "Per {policy}, {state_name} employees accrue {accrual} per pay period, up to a cap of {hours2}. "
            "Unused {pto} above the cap on {dec31} is forfeited.", s)},
        {"citation": s["policy2"], "source": "policies/leave.md", "text": fmt(
            "{law} leave runs up to {duration}. Requests such as {req} go through the {hris}; "
            "a {title} keeps seniority during leave.", s)}]}


def _chat_history(rng: random.Random, s: dict, scenario: str, user_message: Text) -> list[Tree]:
    earlier_user = fmt(rng.choice(("Hi, I'm {full}. What is my {pto} balance?",
                                   "Hello, {full} here ({empid}). Quick question about my {pto}.")), s)
    earlier_reply = fmt("Hi {first}, you have {hours} of {pto} as of {date_w}.", s)
    call_id = f"call_{rng.randrange(16**8):08x}"
    return [
        {"role": "user", "parts": [{"type": "text", "content": earlier_user}]},
        {"role": "assistant", "parts": [{"type": "tool_call", "id": call_id, "name": s["tool"],
                                         "arguments": _tool_args(s, scenario)}]},
        {"role": "user", "parts": [{"type": "tool_call_response", "id": call_id, "response": {
            "name": s["full"], "email": s["email"], "status": "active", "balance": s["hours"]}}]},
        {"role": "assistant", "parts": [{"type": "text", "content": earlier_reply}]},
        {"role": "user", "parts": [{"type": "text", "content": user_message}]},
    ]


def _system_prompt(rng: random.Random, s: dict) -> Text:
    prompt = fmt("You are WorkforceAssist, the HR assistant for Acme Corp. Use {tool}, {tool_b} and {tool_c} "
                 "to answer. Cite policy sections such as {policy} and never guess {pto} balances.", s)
    if rng.random() < 0.6:
        prompt = join(prompt,
                      fmt("Current user: {full} ({empid}), {title}, work state {state}. Email: {email}.", s),
                      sep="\n")
    return prompt


def generate_trace(seed: int, index: int, phrasing: str = "main") -> LabelledTrace:
    """Trace `index` of the corpus for `seed` and `phrasing` (a PHRASINGS key)."""
    rng = random.Random(seed * 1_000_003 + index)
    scenario = sorted(SCENARIOS)[index % len(SCENARIOS)]  # round robin: any 7 traces cover every PII type
    s = _cast(rng, SCENARIOS[scenario][1], heldout=phrasing == "heldout")
    p = PHRASINGS[phrasing]
    user = _user_message(rng, s, scenario, p)
    reply = _reply(rng, s, scenario, p)
    compact = rng.random() < 0.5  # ADK's experimental semconv writes compact JSON, 1.x json.dumps defaults
    tool_result_repr = rng.random() < 0.05  # some tools' results reach the span as a Python repr
    plain_reply = rng.random() < 0.5
    items: list[tuple[StringKind, str, str, tuple[str, list]]] = [
        ("system_prompt", "gen_ai.system_instructions", "json",
         render_json([{"type": "text", "content": _system_prompt(rng, s)}], compact=compact)),
        ("user_message", "llm.input_messages.1.message.content", "text", render_text(user)),
        ("tool_args", "gen_ai.tool.call.arguments" if compact else "gcp.vertex.agent.tool_call_args", "json",
         render_json(_tool_args(s, scenario), compact=compact)),
        ("tool_result", "output.value" if tool_result_repr else "gcp.vertex.agent.tool_response",
         "repr" if tool_result_repr else "json",
         render_json(_hris_result(rng, s), style="repr" if tool_result_repr else "json")),
        ("retrieval", "gen_ai.tool.call.result", "json", render_json(_retrieval(s), compact=compact)),
        ("chat_history", "gen_ai.input.messages", "json",
         render_json(_chat_history(rng, s, scenario, user), compact=compact)),
        ("model_reply", "llm.output_messages.0.message.content" if plain_reply else "gen_ai.output.messages",
         "text" if plain_reply else "json",
         render_text(reply) if plain_reply else render_json(
             [{"role": "assistant", "parts": [{"type": "text", "content": reply}], "finish_reason": "stop"}],
             compact=compact)),
    ]
    trace_id = f"t{index:04d}"
    strings = []
    for kind, attribute, fmt_name, (text, marks) in items:
        spans = [LabelledSpan(start=m.start, end=m.end, kind=m.kind, label=m.label, text=text[m.start:m.end],
                              json_key=m.json_key, keyed=m.whole_value and m.kind == "pii") for m in marks]
        strings.append(LabelledString(string_id=f"{trace_id}/{kind}", kind=kind, attribute=attribute,
                                      format=fmt_name, text=text, spans=spans))
    return LabelledTrace(trace_id=trace_id, scenario=scenario, strings=strings)


def assemble_trace(trace_id: str, scenario: str,
                   items: list[tuple[StringKind, str, str, tuple[str, list]]]) -> LabelledTrace:
    """A trace from (kind, attribute key, format, rendered (text, marks)) items: the other corpora's door."""
    strings = []
    for kind, attribute, fmt_name, (text, marks) in items:
        spans = [LabelledSpan(start=m.start, end=m.end, kind=m.kind, label=m.label, text=text[m.start:m.end],
                              json_key=m.json_key, keyed=m.whole_value and m.kind == "pii") for m in marks]
        strings.append(LabelledString(string_id=f"{trace_id}/{kind}/{len(strings)}", kind=kind,
                                      attribute=attribute, format=fmt_name, text=text, spans=spans))
    return LabelledTrace(trace_id=trace_id, scenario=scenario, strings=strings)


def generate_corpus(
    n_traces: int = 300, seed: int = DEFAULT_SEED, phrasing: str = "main"
) -> list[LabelledTrace]:
    """The first `n_traces` traces of the corpus for `seed` and `phrasing`."""
    return [generate_trace(seed, i, phrasing) for i in range(n_traces)]


def write_corpus(traces: list[LabelledTrace], path: Path = DEFAULT_PATH) -> Path:
    """Write one trace per JSON line (the directory is gitignored: the corpus is regenerated each run)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as out:
        for trace in traces:
            out.write(trace.model_dump_json() + "\n")
    return path


def read_corpus(path: Path) -> list[LabelledTrace]:
    with path.open(encoding="utf-8") as f:
        return [LabelledTrace.model_validate_json(line) for line in f if line.strip()]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--traces", type=int, default=300)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--phrasing", choices=sorted(PHRASINGS), default="main")
    parser.add_argument("-o", "--output", type=Path, default=DEFAULT_PATH)
    args = parser.parse_args(argv)
    traces = generate_corpus(args.traces, args.seed, args.phrasing)
    path = write_corpus(traces, args.output)
    n_strings = sum(len(t.strings) for t in traces)
    print(f"wrote {len(traces)} traces, {n_strings} strings to {path}")


if __name__ == "__main__":
    main()
