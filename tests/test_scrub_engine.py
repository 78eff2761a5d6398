"""The scrubbing engine on real-shaped HR-agent text and JSON: PII gone, regulated text intact."""

from __future__ import annotations

import json
import weakref

import pytest

from scrubbers import ScrubEngine, ScrubReport

MARIA_MESSAGE = (
    "Hi, I'm Maria Gonzalez (maria.gonzalez@acme-retail.com, cell 415-555-0132). If I do not use all my "
    "PTO this year, how much carries into next year?"
)
HRIS_RESULT = {
    "employee_id": "E-44213",
    "name": "Maria Gonzalez",
    "email": "maria.gonzalez@acme-retail.com",
    "phone": "415-555-0132",
    "home_address": "1742 Evergreen Terrace, Springfield, IL 62704",
    "manager": "Thomas Reyes",
    "work_state": "CA",
    "job_title": "Store Operations Lead",
    "pto_balance_hours": 62.5,
}
POLICY_RESULT = {
    "chunks": [
        {"citation": "PTO-CA-2026 §4.2",
         "text": "Unused PTO carries over up to a maximum of 40 hours. Hours above 40 are forfeited "
                 "on December 31."},
        {"citation": "PTO-CA-2026 §4.3",
         "text": "Carryover hours must be used by March 31 of the following year."},
    ]
}
REPLY = (
    "Hi Maria, up to 40 hours of unused PTO carries into next year. Any balance above 40 hours "
    "is forfeited on December 31, and carried hours must be used by March 31 (PTO-CA-2026 "
    "§4.2). You currently have 62.5 hours, so as much as 22.5 hours could be at risk."
)
PLANTED = [
    "Maria Gonzalez", "Maria", "maria.gonzalez@acme-retail.com", "415-555-0132", "E-44213", "Thomas Reyes",
    "1742 Evergreen Terrace", "Springfield, IL 62704", "123-45-6789", "4111 1111 1111 1111", "021000021",
    "000123456789", "04/12/1986", "sk-live-51HrPay7d2Kq9XwVbN3mT8cR", "AKIAQ3EGPX7ZJ2LWKM5T", "Dana",
]
KEEP = [
    "62.5 hours", "22.5 hours", "40 hours", "PTO-CA-2026 §4.2", "PTO-CA-2026 §4.3", "December 31", "March 31",
    "June 29", "2026-06-29", "REQ-884213", "DENTAL-TX-2026 §3.2", "$2,431.18", "FMLA", "CFRA", "HRIS", "PTO",
    "get_employee_context", "pto_carryover", "Store Operations Lead",
]


@pytest.fixture(scope="module")
def engine() -> ScrubEngine:
    return ScrubEngine()


def _trace_strings() -> list[tuple[str, str]]:
    """The spans of the carryover hero case plus payroll/benefits turns, as ADK 2 writes them."""
    history = [
        {"role": "user", "parts": [{"type": "text", "content": MARIA_MESSAGE}]},
        {"role": "assistant", "parts": [{"type": "tool_call", "id": "call_1", "name": "get_employee_context",
                                         "arguments": {"employee_id": "E-44213"}}]},
        {"role": "tool", "parts": [{"type": "tool_call_response", "id": "call_1",
                                    "response": {"result": json.dumps(HRIS_RESULT)}}]},
    ]
    return [
        ("gen_ai.input.messages", json.dumps(history, separators=(",", ":"))),
        ("gen_ai.tool.call.arguments", json.dumps({"topic": "pto_carryover", "jurisdiction": "CA"})),
        ("gen_ai.tool.call.result", json.dumps(POLICY_RESULT, ensure_ascii=False)),
        ("gen_ai.output.messages", json.dumps([{"role": "assistant",
                                                "parts": [{"type": "text", "content": REPLY}]}])),
        ("gen_ai.input.messages", json.dumps([{"role": "user", "parts": [{"type": "text", "content":
            "Check my accruals. This is Dana Whitfield, SSN 123-45-6789, born 04/12/1986. My card on file is "
            "4111 1111 1111 1111. Switch deposit to routing 021000021, account 000123456789. "
            "Your FMLA and CFRA notes from HRIS as of June 29 (2026-06-29), request REQ-884213."}]}])),
        ("gcp.vertex.agent.tool_call_args", json.dumps({"api_key": "sk-live-51HrPay7d2Kq9XwVbN3mT8cR",
                                                       "period": "2026-06"})),
        ("gcp.vertex.agent.tool_response", "{'net_pay': '$2,431.18', 'plan': 'DENTAL-TX-2026 §3.2', "
                                           "'debug': 'key AKIAQ3EGPX7ZJ2LWKM5T'}"),
        ("gen_ai.output.messages",
         "Thanks, Dana. Net pay was $2,431.18 and Maria's manager Thomas Reyes approved."),
    ]


@pytest.fixture(scope="module")
def scrubbed(engine) -> list[str]:
    ctx = engine.new_context()
    return [engine.scrub_attribute(key, value, ctx) for key, value in _trace_strings()]


def test_planted_values_are_gone_and_regulated_text_survives(scrubbed):
    text = "\n".join(scrubbed)
    assert [value for value in PLANTED if value in text] == []
    assert [value for value in KEEP if value not in text] == []


def test_placeholders_are_consistent_and_numbered_in_reading_order(scrubbed):
    history = json.loads(scrubbed[0])
    user_text = history[0]["parts"][0]["content"]
    assert user_text.startswith("Hi, I'm <PERSON_1> (<EMAIL_ADDRESS_1>, cell <PHONE_NUMBER_1>).")
    assert history[1]["parts"][0]["arguments"] == {"employee_id": "<EMPLOYEE_ID_1>"}
    assert history[1]["parts"][0]["name"] == "get_employee_context"
    hris = json.loads(history[2]["parts"][0]["response"]["result"])
    assert (
        hris["name"] == "<PERSON_1>"
        and hris["email"] == "<EMAIL_ADDRESS_1>"
        and hris["phone"] == "<PHONE_NUMBER_1>"
    )
    assert hris["manager"] == "<PERSON_2>"
    assert hris["work_state"] == "CA" and hris["pto_balance_hours"] == 62.5
    # "Hi Maria" maps to the full name's placeholder; the manager found under a JSON key is caught in prose
    assert json.loads(scrubbed[3])[0]["parts"][0]["content"].startswith("Hi <PERSON_1>, up to 40 hours")
    assert "<PERSON_1>'s manager <PERSON_2> approved" in scrubbed[-1]


def test_json_and_repr_are_reencoded_the_way_they_came(engine, scrubbed):
    originals = dict(enumerate(value for _, value in _trace_strings()))
    history = json.loads(scrubbed[0])
    assert json.dumps(history, separators=(",", ":")) == scrubbed[0]  # compact stays compact
    inner = history[2]["parts"][0]["response"]["result"]
    assert json.dumps(json.loads(inner)) == inner  # JSON inside JSON keeps its own (spaced) style
    assert scrubbed[2] == originals[2]  # nothing personal in the policy chunks: byte-identical, § unescaped
    assert scrubbed[1] == originals[1]
    assert scrubbed[6].startswith("{'net_pay': '$2,431.18', 'plan': 'DENTAL-TX-2026 §3.2', "
                                  "'debug': 'key <SECRET_")
    escaped = engine.scrub_value(json.dumps({"note": "Maria Gonzalez — 62.5 hours"}), engine.new_context())
    assert escaped == '{"note": "<PERSON_1> \\u2014 62.5 hours"}'


def test_keyed_mode_gives_the_same_short_token_across_traces_and_engines(engine):
    keyed = ScrubEngine(engine.loaded_policy, key=b"k" * 32)
    first = keyed.scrub_text(MARIA_MESSAGE, keyed.new_context())
    second = keyed.scrub_value({"name": "maria  GONZALEZ"}, keyed.new_context())
    token = first.split("I'm ")[1].split(" ")[0]
    assert token.startswith("<PERSON_") and len(token) == len("<PERSON_3fa2c1>")
    assert second == {"name": token}
    other_key = ScrubEngine(engine.loaded_policy, key=b"x" * 32)
    assert token not in other_key.scrub_text(MARIA_MESSAGE, other_key.new_context())


def test_values_under_sensitive_keys_go_even_when_no_recognizer_fires(engine):
    ctx = engine.new_context()
    result = engine.scrub_value(
        {"employee": {"first_name": "Zyx", "lastName": "Qwv", "dob": "1986-04-12", "account": 123456789,
                      "routing_number": "021000021", "address": {"street": "12 Elm", "zip": "62704"},
                      "password": "hunter22", "pto_hours": 40, "state": "CA"},
         "plan": {"name": "Dental PPO Plus", "phone": "800-555-0100"}},
        ctx,
    )
    employee = result["employee"]
    assert employee["first_name"] == "<PERSON_1>" and employee["lastName"] == "<PERSON_2>"
    assert employee["dob"] == "<DATE_OF_BIRTH_1>" and employee["account"] == "<US_BANK_NUMBER_1>"
    assert employee["address"] == {"street": "<STREET_ADDRESS_1>", "zip": "<STREET_ADDRESS_2>"}
    assert employee["password"] == "<SECRET_1>" and employee["routing_number"] == "<ABA_ROUTING_NUMBER_1>"
    assert employee["pto_hours"] == 40 and employee["state"] == "CA"
    assert result["plan"]["name"] == "Dental PPO Plus"  # a plan's name is not a person's
    # the known values now catch the same strings in free text NER would miss
    out = engine.scrub_text("Zyx asked about account 123456789", ctx)
    assert out == "<PERSON_1> asked about account <US_BANK_NUMBER_1>"


def test_safe_attributes_pass_unchanged_and_unknown_ones_are_scrubbed(engine):
    ctx = engine.new_context()
    assert engine.scrub_attribute("gen_ai.request.model", "gemini-2.5-flash", ctx) == "gemini-2.5-flash"
    assert engine.scrub_attribute("gen_ai.usage.input_tokens", 1820, ctx) == 1820
    assert engine.scrub_attribute("gen_ai.tool.name", "get_employee_context", ctx) == "get_employee_context"
    assert engine.scrub_attribute("user.email", "someone", ctx) == "<EMAIL_ADDRESS_1>"
    assert engine.scrub_attribute("app.note", "call Maria Gonzalez", ctx) == "call <PERSON_1>"


def test_scrub_many_equals_one_by_one_and_caches_repeated_text(engine):
    strings = _trace_strings()
    one_by_one_engine = ScrubEngine(engine.loaded_policy)
    ctx_a, ctx_b = one_by_one_engine.new_context(), one_by_one_engine.new_context()
    expected = [one_by_one_engine.scrub_attribute(k, v, ctx) for ctx in (ctx_a, ctx_b) for k, v in strings]
    batch_engine = ScrubEngine(engine.loaded_policy)
    ctx_c, ctx_d = batch_engine.new_context(), batch_engine.new_context()
    items = [(ctx, k, v) for ctx in (ctx_c, ctx_d) for k, v in strings]
    assert batch_engine.scrub_many(items) == expected
    analyzed = batch_engine.report.unique_strings
    assert analyzed < batch_engine.report.strings  # the second trace repeats every text: analyzed once
    batch_engine.scrub_many(items)
    assert batch_engine.report.unique_strings == analyzed  # cache across calls


def test_report_has_counts_and_never_values(engine, scrubbed):
    report = engine.report
    assert report.entities["PERSON"] >= 4 and report.entities["EMAIL_ADDRESS"] >= 2
    assert report.by_attribute["gen_ai.input.messages"] >= 5
    dumped = report.model_dump_json()
    assert [value for value in PLANTED if value in dumped] == []
    merged = ScrubReport()
    merged.merge(report)
    merged.merge(report)
    assert merged.entities["PERSON"] == 2 * report.entities["PERSON"] and merged.strings == 2 * report.strings


def test_a_sentence_after_a_salutation_is_not_taken_for_a_name(engine) -> None:
    # Seen on the ADK payroll fixture: "Thanks! And what was my net pay" lost the word "And".
    ctx = engine.new_context()
    assert engine.scrub_text("Thanks! And what was my net pay on the last statement?", ctx) == (
        "Thanks! And what was my net pay on the last statement?")
    assert "Crystal" not in engine.scrub_text("Thanks, Crystal", ctx)


def test_json_with_nothing_to_scrub_comes_back_byte_for_byte_whatever_its_style(engine):
    # Re-encoding would normalise the spacing; a string none of whose leaves changed is kept as it was.
    ctx = engine.new_context()
    odd = '{"policy":   "PTO-CA-2026 §4.2",\n "hours" : 62.5, "note": "Carryover is capped at 40 hours."}'
    assert engine.scrub_value(odd, ctx, key="tool.result") == odd
    changed = engine.scrub_value(odd.replace("Carryover", "Maria Gonzalez asked: carryover"), ctx,
                                 key="tool.result")
    assert "Maria" not in changed and json.loads(changed)["hours"] == 62.5


def test_known_values_match_like_the_whole_word_regex_they_stand_for():
    from scrubbers.trace_state.context import ScrubContext, _surface_pattern

    ctx = ScrubContext()
    ctx.remember("PERSON", "Maria Gonzalez")
    ctx.remember("EMAIL_ADDRESS", "maria.gonzalez@acme-retail.com")
    ctx.remember("PHONE_NUMBER", "(415) 555-0132")
    texts = [
        "Call MARIA  GONZALEZ or Maria\nGonzalez, not Mariah Gonzalezz.",
        "maria.gonzalez@acme-retail.com wrote; so did x.maria.gonzalez@acme-retail.com",
        "Maria said hi. Gonzalez-Smith is someone else; Maria's form is in.",
        "phone (415) 555-0132, not 1(415) 555-01329",
        "Straße Maria",
    ]
    words = __import__("regex").compile(r"\w+")
    for text in texts:
        fast = ctx.known_matches(text, frozenset(w.casefold() for w in words.findall(text)))
        slow = sorted(
            (m.start(), m.end(), entity)
            for surface, (entity, case_sensitive) in ctx._known.items()
            for m in _surface_pattern(surface, case_sensitive).finditer(text)
        )
        chosen: list = []
        for item in sorted(slow, key=lambda f: (f[0], f[0] - f[1], f[2])):
            if not chosen or item[0] >= chosen[-1][1]:
                chosen.append(item)
        assert fast == chosen, text
    first = texts[0]
    assert [first[s:e] for s, e, _ in ctx.known_matches(first, frozenset({"maria", "gonzalez", "call"}))] == [
        "MARIA  GONZALEZ", "Maria\nGonzalez"]


def test_reloading_the_model_to_drop_its_grown_vocabulary_changes_no_result(engine, monkeypatch):
    import scrubbers.analysis.analyzer as analysis

    strings = _trace_strings()
    fresh = ScrubEngine(engine.loaded_policy)
    fresh_ctx = fresh.new_context()
    expected = [fresh.scrub_many([(fresh_ctx, k, v)])[0] for k, v in strings]
    monkeypatch.setattr(analysis, "VOCABULARY_RELOAD_TEXTS", 2)
    reloading = ScrubEngine(engine.loaded_policy)
    model = reloading.analyzer.nlp_engine.nlp["en"]
    ctx = reloading.new_context()
    got = [reloading.scrub_many([(ctx, k, v)])[0] for k, v in strings]  # one batch per string: many reloads
    assert reloading.analyzer.nlp_engine.nlp["en"] is not model
    assert got == expected
    dropped = weakref.ref(model)
    del model
    assert dropped() is None  # the replaced model is freed, not kept alive


def test_a_value_learned_early_in_a_json_string_is_caught_later_in_the_same_string(engine):
    # Only leaves that can change are visited; a name learned from a leaf under a personal key must make
    # the later leaves of the same value be looked at again, even ones the analyzer finds nothing in.
    note = "Forwarded to Qwv for review."
    assert engine.detections(note) == []  # so only the learned value can catch it
    value = json.dumps({"name": "Zyx Qwv", "note": note})
    scrubbed = json.loads(engine.scrub_value(value, engine.new_context(), key="tool.result"))
    assert scrubbed == {"name": "<PERSON_1>", "note": "Forwarded to <PERSON_1> for review."}


def test_json_strings_of_different_styles_each_keep_their_own(engine):
    ctx = engine.new_context()
    styles = [{"separators": (",", ":")}, {"separators": (", ", ": ")}, {"indent": 2},
              {"separators": (",", ": ")}]
    for options in [*styles, *reversed(styles)]:
        value = {"note": "Maria Gonzalez asked about carryover", "hours": [62.5, 40], "state": "CA"}
        scrubbed = engine.scrub_value(json.dumps(value, **options), ctx, key="tool.result")
        assert scrubbed == json.dumps({**value, "note": "<PERSON_1> asked about carryover"}, **options)


def test_tool_schemas_and_media_types_keep_their_labels(engine):
    # Seen on the OpenInference fixture: every trace's tool schema had "title": "Employee Id" turned into
    # "<PERSON_7> <PERSON_8>", ADK's Gemini schemas had {"type": "STRING"} under `employee_id` replaced as an
    # employee id, and "application/json" became "application/<PERSON_1>".
    ctx = engine.new_context()
    schema = {"type": "object", "properties": {
        "employee_id": {"title": "Employee Id", "type": "string"}, "as_of": {"type": "STRING"},
        "name": {"type": "STRING", "description": "Legal name", "default": "Maria Gonzalez"}}}
    scrubbed = json.loads(engine.scrub_value(json.dumps(schema), ctx, key="llm.tools.0.tool.json_schema"))
    kept = {**schema["properties"]["name"], "default": "<PERSON_1>"}
    assert scrubbed["properties"] == {**schema["properties"], "name": kept}  # examples are still scrubbed
    assert engine.scrub_attribute("output.mime_type", "application/json", ctx) == "application/json"
    assert engine.scrub_text("Sent as application/json to Maria Gonzalez", ctx) == (
        "Sent as application/json to <PERSON_1>")


def test_words_and_ids_taken_for_names_are_kept(engine):
    # From the accuracy report's false positives: every one of them damaged the text.
    ctx = engine.new_context()
    assert engine.scrub_text("Hi there. Employee E-88645, Trevor Ramirez. Reply here if wrong.", ctx) == (
        "Hi there. Employee <EMPLOYEE_ID_1>, <PERSON_1>. Reply here if wrong.")
    history = [{"role": "assistant", "parts": [{"type": "tool_call", "id": "call_a958cf64",
                                                "name": "enroll_benefits",
                                                "arguments": {"employee_id": "E-94613"}}]}]
    scrubbed = json.loads(engine.scrub_value(json.dumps(history), ctx, key="gen_ai.input.messages"))
    assert scrubbed[0]["parts"][0]["id"] == "call_a958cf64"
    assert scrubbed[0]["parts"][0]["arguments"] == {"employee_id": "<EMPLOYEE_ID_2>"}


def test_a_trace_s_known_values_never_stick_to_the_shared_analysis_cache(engine):
    # The same system prompt is written by every trace; one trace knows "Orla Quennell" (from a key), the
    # next does not. The analysis cache of the prompt must not keep the first trace's known value.
    prompt = "You are the HR advisor. Orla Quennell asked about carryover; cite the policy section."
    first, second = engine.new_context(), engine.new_context()
    engine.scrub_attribute("name", "Orla Quennell", first)
    cached = list(engine.detections(prompt) or [])
    for _ in range(3):
        assert "Orla Quennell" not in engine.scrub_attribute("gen_ai.system_instructions", prompt, first)
    assert engine.detections(prompt) == cached
    assert engine.scrub_attribute("gen_ai.system_instructions", prompt, second).count("<") <= len(cached)


def test_a_name_part_that_is_no_word_is_caught_in_any_case_and_one_that_is_a_word_only_as_written(engine):
    # a tool result names the user; the reply writes her names in lower and upper case
    ctx = engine.new_context()
    engine.scrub_value({"employee": {"name": "Rose Whitfield", "id": "E-30188"}}, ctx)
    out = engine.scrub_text("cc whitfield and WHITFIELD; Rose asked. A rose garden is rose-coloured.", ctx)
    assert "whitfield" not in out.lower() and "Rose asked" not in out
    assert "A rose garden is rose-coloured." in out  # "rose" is a word: only "Rose" the name goes


def test_a_name_in_a_url_query_goes_with_the_placeholder_of_the_name_and_the_url_stays(engine):
    # NER read the URL up to the name as one person, and "+" made the name another value than the name
    ctx = engine.new_context()
    url = "https://hr.acme-retail.com/search?q=Maria+Gonzalez&view=full"
    assert engine.scrub_text(url, ctx) == "https://hr.acme-retail.com/search?q=<PERSON_1>&view=full"
    assert engine.scrub_text("Maria Gonzalez asked", ctx) == "<PERSON_1> asked"
