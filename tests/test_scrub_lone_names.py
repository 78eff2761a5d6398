"""Names with no cue word (issue 36): the name lists weighed against word frequency, capitals, position
and the words around them; and what NER finds is kept unless a reason that generalises says otherwise.

Every example is written here (none is copied from a labelled set): names of several cultures, alone,
at a sentence start, in lower case, in lists, possessive, and the words that must stay.
"""

from __future__ import annotations

import pytest

from promote.scrubbing import engine
from scrubbers.recognizers.lexicon import lexicon
from scrubbers.recognizers.lone_names import LoneNameRecognizer, reads_as_place


def _scrub(text: str) -> str:
    return engine().scrub_text(text, engine().new_context())


@pytest.mark.parametrize(("text", "names"), [
    ("Adeyemi is from the Lagos office and leads the audit.", ["Adeyemi"]),  # Yoruba surname, sentence start
    ("The form was signed by nobody; Siobhán handled it later.", ["Siobhán"]),  # Irish given name
    ("We watched the match and Tanvir scored twice.", ["Tanvir"]),  # South Asian given name
    ("Yesterday Kowalczyk and Haverkamp reviewed the draft.", ["Kowalczyk", "Haverkamp"]),  # a pair
    ("They invited five: Aiyana, Bogdan, Chiamaka, Dmitri and Eleni.",
     ["Aiyana", "Bogdan", "Chiamaka", "Dmitri", "Eleni"]),  # a list of names of five cultures
    ("Poor Kaylee, she missed the bus again", ["Kaylee"]),
    ("I think Rachel was right about the rota.", ["Rachel"]),  # a name that is also a frequent word
    ("the rota says Justin works Friday", ["Justin"]),
    ("omg kaylee and tanvir were hilarious last night", ["kaylee", "tanvir"]),  # lower case chat
    ("CONGRATS KATHERINE ON THE NEW JOB", ["KATHERINE"]),
    ("Scott is a careful reviewer.", ["Scott"]),  # a frequent word at a sentence start, before "is"
    ("the verses from Ingrid D. Halvorsen's last book", ["Ingrid", "Halvorsen"]),  # an initial between
    ("Good luck to you and Murphy with the move!", ["Murphy"]),  # a small place that is a surname
])
def test_a_name_standing_alone_is_replaced(text: str, names: list[str]) -> None:
    out = _scrub(text)
    for name in names:
        assert name not in out, out


@pytest.mark.parametrize("text", [
    "Mark the request as done and close the ticket.",  # a name that is a verb at a sentence start
    "The budget went to Marketing, Finance and Legal for review.",  # a list of departments, not people
    "The office in Vienna opens at 9; flights from Athens are late.",  # big cities that are also names
    "City: Prague\nCountry: Czechia",
    "We moved from Davis, CA last year.",  # a place that is a surname, read as a place
    "the billing service is trending down after the riff",  # frequent words that are names somewhere
    "Send the IBAN over HTTPS; the API returns XML.",  # acronyms in capitals
    "Deadline: Jan 12, Mon and Sun are off.",  # calendar short forms are given names too
    "We wish you a Happy Rose festival!",  # a name inside a title
    "kubectl get pods -n monitoring | grep jaeger",
    "Pun idea: a play on words about carrots.",  # a word before a lower-case noun and a colon: a label
])
def test_words_that_only_look_like_names_stay(text: str) -> None:
    assert _scrub(text) == text


@pytest.mark.parametrize(("text", "names"), [
    ("Emily approved the timesheet yesterday.", ["Emily"]),  # frequent in English only as a name
    ("Derek's badge expired.", ["Derek"]),
    ("thanks to justin for the quick fix", ["justin"]),  # lower case in chat
    ("emily and jason covered the night shift", ["emily", "jason"]),
])
def test_a_name_no_dictionary_writes_in_lower_case_is_no_common_word(text: str, names: list[str]) -> None:
    """wordfreq folds case, so "emily" counts as frequent as "mark"; the lexicon leaves out of its common
    words the names no English dictionary (SCOWL) writes in lower case, so a sentence start or lower case
    no longer hides them, while "mark", "grace", "trump" and the calendar stay words."""
    out = _scrub(text)
    for name in names:
        assert name not in out, out
    lex = lexicon()
    assert not lex.is_word("Emily") and not lex.is_frequent_word("justin")
    assert all(lex.is_word(word) for word in ("Mark", "Grace", "trump", "April", "Sunday"))


@pytest.mark.parametrize("text", [
    "Grace periods apply to late enrolment.",
    "the trump card is the overtime rule",
    "Payday is April 15 and the next is in June.",
    "Rose and lily bulbs arrive in april.",
])
def test_names_a_dictionary_writes_in_lower_case_stay_words(text: str) -> None:
    assert _scrub(text) == text


def test_a_person_the_model_finds_is_kept_when_no_dictionary_writes_the_word_in_lower_case() -> None:
    """NER's single-word person at a sentence start is dropped when it is a common word ("Fetch the pods"),
    but "Rihanna" is frequent in English only as a name: no dictionary writes it in lower case."""
    assert "Rihanna" not in _scrub("Rihanna said she would come to the party.")
    assert _scrub("Fetch the pods first.") == "Fetch the pods first."
    lex = lexicon()
    assert lex.is_word("Rihanna") and not lex.is_dictionary_word("Rihanna")
    assert lex.is_dictionary_word("Fetch") and lex.is_dictionary_word("April")


def test_the_same_lone_name_gets_the_same_placeholder_across_a_trace() -> None:
    ctx = engine().new_context()
    first = engine().scrub_text("Tanvir asked about the rota.", ctx)
    second = engine().scrub_text("I told Tanvir it is fixed.", ctx)
    assert first.split()[0] in second


def test_a_place_reads_as_a_place_only_where_the_words_around_it_say_so() -> None:
    lex = lexicon()
    text = "He lives in Murphy now; Murphy said so."
    assert reads_as_place(text, text.index("Murphy"), text.index("Murphy") + 6, lex)
    later = text.rindex("Murphy")
    assert not reads_as_place(text, later, later + 6, lex)


def test_a_word_the_policy_says_is_no_name_is_never_a_lone_name() -> None:
    text = "We watched the match and Tanvir scored twice."
    assert list(LoneNameRecognizer().spans(text))  # on the lists, mid-sentence: a name
    assert list(LoneNameRecognizer(not_names=["Tanvir"]).spans(text)) == []


@pytest.mark.parametrize(("text", "name"), [
    ("i cant believe kendrick dropped that verse", "kendrick"),  # NER's lower-case person, on the lists
    ("thank you fake kevin smith", "kevin"),
    ("I love watching Roman on that channel", "Roman"),  # a place and a name: NER's person stays
])
def test_what_ner_calls_a_person_is_kept_when_the_name_lists_agree(text: str, name: str) -> None:
    assert name not in _scrub(text)


def test_the_policy_switches_take_lone_names_and_handles_out() -> None:
    from scrubbers.policy import load_policy
    from scrubbers.recognizers.handles import HandleRecognizer
    from scrubbers.recognizers.registry import build_recognizers

    policy = load_policy().policy
    kinds = {type(r) for r in build_recognizers(policy)}
    assert {LoneNameRecognizer, HandleRecognizer} <= kinds
    off = policy.recognizers.model_copy(update={"lone_names": False, "handles": False})
    kinds = {type(r) for r in build_recognizers(policy.model_copy(update={"recognizers": off}))}
    assert not kinds & {LoneNameRecognizer, HandleRecognizer}
