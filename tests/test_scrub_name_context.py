"""Names told by the words and lines around them (issue 36): titles, naming words, who speech is for,
transcript speakers, lists typed in lower case, user handles, and names NER labels as something else.
Hand-written examples of several cultures; each has a twin that must stay."""

from __future__ import annotations

import pytest

from promote.scrubbing import engine


def _scrub(text: str) -> str:
    return engine().scrub_text(text, engine().new_context())


@pytest.mark.parametrize(("text", "names"), [
    ("Please ask Ms. Okonkwo-Baptiste to sign the form.", ["Okonkwo-Baptiste"]),  # a title before a name
    ("Dr Thandiwe reviewed the claim.", ["Thandiwe"]),
    ("Her maiden name is Valdés-Quintero.", ["Valdés-Quintero"]),  # a naming word
    ("My grandmother was called Zsófia Bánhidi.", ["Zsófia", "Bánhidi"]),
    ("\"Not again,\" said Ksawery to Ingeborg.", ["Ksawery", "Ingeborg"]),  # who speaks, and to whom
    ("Tuomas shouted at Radomir: \"Stop!\"", ["Radomir"]),
    ("Keiko: Where were you?\nAnselm: At the depot all night.", ["Keiko", "Anselm"]),  # transcript speakers
    ("we invited marisol, bogdan, kwame and ilse", ["marisol", "bogdan", "kwame", "ilse"]),  # lower-case list
    ("lol @kwame_osei that was wild", ["kwame_osei"]),  # a handle
    ("thanks u/quiet_ferret_77 for the link", ["quiet_ferret_77"]),
])
def test_a_name_told_by_its_context_is_replaced(text: str, names: list[str]) -> None:
    out = _scrub(text)
    for name in names:
        assert name not in out, out


@pytest.mark.parametrize("text", [
    "Please ask Support to sign the form.",  # a title needs a title: "ask" alone takes known names only
    "The file was called report-final.docx.",  # a naming word before a file name
    "Namespace: default\nStatus: deployed\nRevision: 3",  # label lines, not a transcript
    "Note: restart the pod.\nReason: the config changed.",  # labels that are common words
    "we need apples, pears, plums and figs",  # a lower-case list of common words
    "use @property here; email ops@example.org",  # a frequent word and an e-mail keep their @
    "@pytest.fixture\ndef engine(): ...",  # a decorator
])
def test_the_same_shapes_without_a_person_stay(text: str) -> None:
    out = _scrub(text)
    assert "<PERSON" not in out and "<USER_NAME" not in out, out


@pytest.mark.parametrize(("text", "names"), [
    ("i broke my favourite Betsey Johnson necklace today", ["Betsey", "Johnson"]),  # part found, part beside
    ("getting a real Kylie minogue feel from this", ["Kylie", "minogue"]),  # a lower-case surname beside
    ("I spoke with Thaddeus Pennywhistle yesterday.", ["Thaddeus", "Pennywhistle"]),  # NER says ORG
    ("GOT A PIC WITH EVA MENDES AT THE MALL", ["EVA", "MENDES"]),  # a given name shouted beside a surname
    ("JUST IN : DEMI LOVATO is coming to Manila on April 30", ["DEMI", "LOVATO"]),
    ("MUST LISTEN ( FT JIM JONES )", ["JIM", "JONES"]),  # "JIM" is an airport code too
])
def test_the_rest_of_a_name_found_in_part_goes_with_it(text: str, names: list[str]) -> None:
    out = _scrub(text)
    for name in names:
        assert name not in out, out


@pytest.mark.parametrize(("text", "kept"), [
    ("FLIGHTS FROM LAX TO JFK WITH JONES", "LAX"),  # an airport code beside a shouted name stays a code
    ("NO ME GUSTA ESTA JONES PERO SI LA CASA", "ESTA"),  # a shout in another language: "Esta" is a name too
])
def test_a_shouted_neighbour_joins_a_name_only_when_it_is_one(text: str, kept: str) -> None:
    assert kept in _scrub(text)


@pytest.mark.parametrize(("text", "kept"), [
    ("Hi, I'm Gregory Hallman, from payroll.", "Hi, I'm "),  # a contraction is no part of a name
    ("We signed with Globex Corporation yesterday.", "Globex Corporation"),  # an organisation holds a word
    ("Elena Ruiz in Vienna approved it.", " in Vienna approved it."),  # a place beside a name stays
    ("he hasn't filed the claim since March", "hasn't filed"),  # "Hasn" is on the name lists; "'t" says verb
    ("Maria Gonzalez's form is in.", "'s form is in."),  # a possessive is no part of a name
])
def test_words_beside_a_name_that_are_no_part_of_it_stay(text: str, kept: str) -> None:
    assert kept in _scrub(text)


@pytest.mark.parametrize(("text", "names"), [
    ("Ilmatar Kuusisto\n\nWarehouse shift lead\nPhone: see below", ["Ilmatar", "Kuusisto"]),  # a header line
    ("Back then Oyelowo and Haverkamp were the best engineers.", ["Oyelowo", "Haverkamp"]),  # a pair of names
    ("Ms. Austin booked the room.", ["Austin"]),  # a title: a person, though a city bears the name
    ("\"Enough,\" said Wiremu to Logan.", ["Logan"]),  # "to" after speech takes a person, not a place
    ("It was a done thing between him and Franciska's kid.", ["Franciska"]),  # possessive
])
def test_names_told_by_their_line_title_pair_or_possessive(text: str, names: list[str]) -> None:
    out = _scrub(text)
    for name in names:
        assert name not in out, out


@pytest.mark.parametrize("text", [
    "Quarterly Report\n\nSales went up in the second quarter.",  # a heading of common words
    "We flew to Austin on Monday.",  # a city after "to" with no speech verb
])
def test_headings_and_places_stay(text: str) -> None:
    assert "<PERSON" not in _scrub(text)


def test_one_word_found_as_a_person_goes_wherever_the_trace_writes_it_when_it_is_no_word() -> None:
    # WNUT17 train: NER finds the first "Cadel" only; the second leaked beside the placeholder of the first
    text = "I think Cadel will be pissed at Dennis if he dosnt ride for Cadel tomorrow ."
    eng = engine()
    ctx = eng.new_context()
    out = eng.scrub_many([(ctx, "input.value", text), (ctx, "output.value", "Booked the van for Cadel.")],
                         learn=True)
    assert "Cadel" not in " ".join(out), out
    # a word taken for a person once ("Salesperson" heading a résumé) stays a word elsewhere in the trace
    resume = "Energetic and driven Salesperson with 8+ years of experience. Top salesperson in 2021."
    assert "Top salesperson" in eng.scrub_many([(eng.new_context(), "input.value", resume)], learn=True)[0]
