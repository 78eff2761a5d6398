"""Names found by the words around them, in any script, when the name lists alone cannot tell.

A cue is grammar, not a list of sentences: what stands before or after a name in most languages'
English chat and records.

- **Role nouns** (the policy's `person_roles` and `domain_person_roles`: "Reporter:", "guest =",
  "co-traveller", "new hire", "Author of the test:") followed by a name.
- **Reporting verbs** after a name ("Qarin Shenoy said ...", "Dana wrote ...").
- **Self-identification** at the head of a message or sentence ("Édouard here: ...").
- **Benefactive and source prepositions**: "for Pauline;", "booked for Jane Roe at 7pm", "Escalation
  from Trần:", "Nicklas from our Warsaw team".
- **An agent, by or with someone**: "reviewed by Aiden die Bont", "approved by Trọng Vũ".

What follows a cue must still look like a name: capitalised words (initials, particles, hyphens) or a
word of a script without case (Han, kana, Hangul, Devanagari, Arabic, ...). A single Latin word needs
the name lists unless the cue is strong; several words may not be common English words (a place, a
product or a venue is dropped later by `registry.Refiner`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import regex

from scrubbers.recognizers.lexicon import Lexicon

SCORE = 0.7
# A word of a name in a cased alphabet (as `names._NAME_WORD`) or in a script without case.
# ("I'm", "I'll" are the speaker, not a name word)
_CASED = (r"(?!I['’](?:m|ll|ve|d)\b)\p{Lu}[\p{Ll}\p{M}]*(?:\p{Lu}[\p{Ll}\p{M}]{2,})?"
          r"(?:['’]\p{Lu}?[\p{Ll}\p{M}]+)*(?:-\p{L}[\p{Ll}\p{M}]+)*")
_CASELESS = (r"[\p{Han}\p{Hiragana}\p{Katakana}ー]{1,4}|\p{Hangul}{1,4}|[\p{Devanagari}\p{M}]+|"
             r"[\p{Arabic}\p{M}]+|[\p{Bengali}\p{M}]+|[\p{Tamil}\p{M}]+|[\p{Telugu}\p{M}]+|"
             r"[\p{Thai}\p{M}]+|[\p{Hebrew}\p{M}]+|[\p{Georgian}\p{M}]+|[\p{Gujarati}\p{M}]+|"
             r"[\p{Gurmukhi}\p{M}]+|[\p{Kannada}\p{M}]+|[\p{Malayalam}\p{M}]+")
_WORD = rf"(?:{_CASED}|{_CASELESS})"
_PARTICLE = (r"(?:van|von|der|den|de|del|della|dei|di|da|das|dos|du|la|le|les|ter|ten|bin|binti|ibn|al|el|"
             r"y|e|zu|af|av|die|do|dello|degli)")
_NAME = rf"(?P<name>{_WORD}(?:[ \t](?:{_PARTICLE}[ \t])*(?:{_WORD}|\p{{Lu}}\.?)){{0,3}})"
_NAME_CASED = rf"(?P<name>{_CASED}(?:[ \t](?:{_PARTICLE}[ \t])*(?:{_CASED}|\p{{Lu}}\.?)){{0,3}})"
_EDGE = r"(?<![\p{L}\p{M}\p{N}_@/\\.-])"
_CLAUSE_END = r"(?=[ \t]*(?:[;,.!?:)\]]|$|\n|[ \t]\(|[ \t]+(?:at|on|in|from|to|with|and|or|until|via)\b))"
_REPORTING = (r"said|says|wrote|writes|asked|asks|told|tells|mentioned|mentions|reported|reports|noted|notes|"
              r"confirmed|confirms|suggested|suggests|replied|replies|complained|complains|emailed|called|"
              r"pinged|messaged|texted|explained|explains|added|adds|insists|insisted|thinks|thought|"
              r"believes|lives|lived|died|married|began|begins|listed|shouted|yelled|whispered|replied")
_AFTER_VERB_BY = (r"(?:reviewed|approved|signed|requested|reported|assigned|submitted|opened|raised|filed|"
                  r"written|authored|created|owned|maintained|escalated|handled|booked|made|sent|placed|"
                  r"paid|authori[sz]ed|initiated|triggered|closed|resolved|updated|edited|merged)")

# Each rule: a pattern over the name pattern (`name`), the lower-case words that must occur in the text
# for it to be tried at all (a cheap prefilter: most texts hold none), and how strong its evidence is.
_RULES = (
    # Verbs whose object is a person: "Ask Siobhan in accounting", "Please loop in Dakota Rivera Soto".
    ("person_verb",
     lambda name: r"(?i:\b(?:ask|asked|asking|ping|pinged|tell|told|cc|bcc|loop(?:ed|ing)?[ \t]+in|e-?mail|"
                  r"message|contact|thank|invite|include|copy|remind|notify|let|check[ \t]+with|talk[ \t]+to|"
                  r"speak[ \t]+(?:to|with)|reach[ \t]+out[ \t]+to|forward[ \t]+(?:it|this)[ \t]+to)\b)[ \t]+"
                  rf"{_EDGE}{name}(?=[ \t]*(?:[;,.!?:()]|$|\n|[ \t]+(?:in|from|at|on|if|about|for|and|or|"
                  r"when|to|know|that|before|after)\b))",
     ("ask", "ping", "tell", "told", "cc ", "loop", "mail ", "message ", "contact ", "thank", "invite",
      "include", "copy ", "remind", "notify", "let ", "check with", "talk to", "speak", "reach out",
      "forward"),
     dict(strong=True, places_ok=True, ambiguous_ok=True)),
    # A clause's subject: "Let me know if Bo needs the same change".
    ("subject",
     lambda name: rf"(?i:\b(?:if|whether|unless|when|once)\b)[ \t]+{_EDGE}{name}(?=[ \t]+(?:needs|wants|has|"
                  r"is|was|asks|gets|can|could|should|would|will|does|did)\b)",
     ("if", "whether", "unless", "when", "once"), dict(places_ok=True, ambiguous_ok=True)),
    # "for Pauline;", "booked for Jane Roe at 7pm"
    ("for", lambda name: rf"(?i:\bfor)[ \t]+{_EDGE}{name}{_CLAUSE_END}", ("for",), {}),
    # "Escalation from Trần:"
    ("from_colon", lambda name: rf"(?i:\bfrom)[ \t]+{_EDGE}{name}(?=[ \t]*:)", ("from",), {}),
    # "Nicklas from our Warsaw team", "Dakota de la Cruz on my team"
    ("from_team",
     lambda name: rf"{_EDGE}{name}(?=[ \t]+(?:from[ \t]+(?:our|the|your|his|her|their|my)\b|(?:on|in|of|at)"
                  r"[ \t]+(?:our|the|your|his|her|their|my)[ \t]+(?:[\p{L}-]+[ \t]+){0,2}(?:team|department|"
                  r"dept|office|group|squad|unit|staff)\b))",
     ("from", "team", "department", "dept", "office", "group", "squad", "unit", "staff"),
     dict(trim_start=True)),
    # "Employee E-30358 (Dakota King) here."
    ("here_bracketed", lambda name: rf"(?<=\(){name}(?=\)[ \t]+here\b)", (") here",), dict(strong=True)),
    # A greeting before a full name (one word after a greeting: names.py): "Hey - Dakota de la Cruz,".
    ("greeted",
     lambda name: r"(?i:\b(?:hi|hello|hey|hiya|dear|(?:good[ \t]+)?(?:morning|afternoon|evening)|thanks|"
                  r"thank[ \t]+you|welcome))"
                  rf"[ \t]*[,!]?[ \t]*(?:[-–—][ \t]*)?{_EDGE}{name}(?=[ \t]*(?:[,.!?:;]|$|\n))",
     ("hi", "hello", "hey", "dear", "morning", "afternoon", "evening", "thank", "welcome"),
     dict(strong=True, places_ok=True, ambiguous_ok=True, at_least=2)),
    # A self-introduction before a capitalised name ("I'm Hà Dương, ..."); "this is" is weaker
    # ("this is Zoom").
    ("intro",
     lambda name: r"(?i:\b(?:i'm|i[ \t]+am|my[ \t]+name[ \t]+is|my[ \t]+name's|call[ \t]+me))[ \t]+"
                  rf"{_EDGE}{name}",
     ("i'm", "i am", "my name", "call me"), dict(strong=True, places_ok=True)),
    ("this_is", lambda name: rf"(?i:\bthis[ \t]+is)[ \t]+{_EDGE}{name}", ("this is",), {}),
    # "Édouard here: ..." at the head of a message or sentence
    ("here",
     lambda name: rf"(?m:(?:^|(?<=[\n.!?][ \t]{{0,3}})|(?<=^[ \t>*-]{{1,6}})){name}"
                  r"(?=[ \t]+here\b[ \t]*[:,.!—–-]))",
     ("here",), dict(strong=True, trim_start=True)),
    # "Qarin Shenoy said ..."
    ("said", lambda name: rf"{_EDGE}{name}(?=[ \t]+(?:{_REPORTING})\b)", tuple(_REPORTING.split("|")),
     dict(strong=True, trim_start=True)),
    # A title before a name: "Ms. Austin", "Dr Quinzia Ferro", "ms. quinzia" is lower case: not here
    ("honorific",
     lambda name: rf"(?i:\b(?:mr|mrs|ms|mx|miss|dr|prof|sir|madam|dame)\.?)[ \t]+{_EDGE}{name}",
     ("mr", "ms", "mx", "miss", "dr", "prof", "sir", "madam", "dame"),
     dict(strong=True, places_ok=True, ambiguous_ok=True, titled=True)),
    # Naming words: "was called Djevad Šušulić", "her maiden name is Key", "a dog named Rex" is a name too
    ("named",
     lambda name: r"(?i:\b(?:named|called|nicknamed|aka|(?:maiden|last|first|family|middle|full|sur)[ \t]*"
                  rf"name[ \t]+(?:is|was)))[ \t]*:?[ \t]+{_EDGE}{name}",
     ("named", "called", "aka", "name is", "name was"), dict(strong=True, places_ok=True, ambiguous_ok=True)),
    # Who speech is for: "said Gladys to Logan", "Enrico shouted at Gary:"
    ("spoken_to",
     lambda name: r"(?i:\b(?:said|says|shouted|yelled|whispered|replied|cried|screamed|waved|smiled|talked|"
                  r"spoke|wrote|lied|complained)\b(?:[ \t]+\p{L}+){0,2}[ \t]+(?:to|at))[ \t]+"
                  rf"{_EDGE}{name}(?=[ \t]*(?:[.!?,:;\"]|$|\n))",
     ("said", "says", "shouted", "yelled", "whispered", "replied", "cried", "screamed", "waved", "smiled",
      "talked", "spoke", "wrote", "lied", "complained"),
     dict(strong=True, places_ok=True, ambiguous_ok=True)),
    # The speaker after a quote's verb: "said Gladys", "asked Timo"
    ("speaker", lambda name: rf"(?i:\b(?:said|asked|replied|shouted|whispered))[ \t]+{_EDGE}{name}"
                             r"(?=[ \t]*(?:[.!?,:;\"]|$|\n|[ \t]+(?:to|at)\b))",
     ("said", "asked", "replied", "shouted", "whispered"), dict(strong=True, places_ok=True)),
    # "reviewed by Aiden die Bont"
    ("by", lambda name: rf"(?i:\b{_AFTER_VERB_BY}[ \t]+by)[ \t]+{_EDGE}{name}", ("by",), dict(strong=True)),
)


def _compiled(pattern) -> tuple[regex.Pattern, regex.Pattern]:
    """The pattern for ASCII texts (cased names only: no script without case can occur) and for others."""
    return regex.compile(pattern(_NAME_CASED)), regex.compile(pattern(_NAME))


_COMPILED = tuple((key, _compiled(pattern), triggers, options) for key, pattern, triggers, options in _RULES)


def role_cue(roles: Iterable[str]) -> tuple[regex.Pattern, regex.Pattern] | None:
    """The pattern of a role noun (any case, also "co-" and plural) then an optional "of the <noun>",
    a colon or equals sign, and a name."""
    words = sorted({r.strip().lower() for r in roles if r.strip()}, key=len, reverse=True)
    if not words:
        return None
    alternatives = "|".join(regex.escape(w).replace(r"\ ", r"[ \t]+") for w in words)
    return _compiled(
        lambda name: rf"(?i:\b(?:co-?)?(?:{alternatives})(?:e?s)?\b(?:[ \t]+(?:of|for|on)[ \t]+"
                     rf"(?:the|this|that|a|an)[ \t]+\p{{Ll}}+)?)[ \t]*(?:[:=][ \t]*|[ \t]+)"
                     rf"(?-i:{_EDGE}{name})")


# What follows a role noun: a plural ending, "of the <noun>", a colon or equals sign, and a name.
_ROLE_TAIL = _compiled(
    lambda name: r"(?i:(?:e?s)?\b(?:[ \t]+(?:of|for|on)[ \t]+(?:the|this|that|a|an)[ \t]+\p{Ll}+)?)"
                 rf"[ \t]*(?:[:=][ \t]*|[ \t]+)(?-i:{_EDGE}{name})")


class CueNames:
    """The cue rules over one lexicon and one policy's role nouns."""

    def __init__(self, lex: Lexicon, roles: Iterable[str], not_names: frozenset[str]) -> None:
        self.lex = lex
        self.roles = role_cue(roles)
        # Role nouns are found by plain substring search and the rest matched where one ends: one big
        # alternation tried at every position of every text cost more than all other cue rules together.
        self.role_words = sorted({" ".join(r.lower().split()) for r in roles if r.strip()},
                                 key=len, reverse=True)
        self.not_names = not_names

    def spans(self, text: str) -> Iterator[tuple[int, int, float]]:
        low = text.lower()
        variant = 0 if text.isascii() else 1
        if self.roles is not None:
            if len(low) == len(text):
                yield from self._matches(text, self._after_roles(text, low, variant), strong=True)
            else:  # lower-casing changed the length ("İ"): offsets differ, use the one pattern
                yield from self._matches(text, self.roles[variant].finditer(text), strong=True)
        for _, patterns, triggers, options in _COMPILED:
            if any(word in low for word in triggers):
                yield from self._matches(text, patterns[variant].finditer(text), **options)

    def _after_roles(self, text: str, low: str, variant: int) -> Iterator[regex.Match]:
        tail = _ROLE_TAIL[variant]
        for word in self.role_words:
            start = low.find(word)
            while start >= 0:
                # "co-traveller", "(guest" count: the role noun starts a word
                if start == 0 or not (low[start - 1].isalnum() or low[start - 1] == "_"):
                    m = tail.match(text, start + len(word))
                    if m:
                        yield m
                start = low.find(word, start + 1)

    def _matches(self, text: str, matches: Iterable[regex.Match], *, strong: bool = False,
                 trim_start: bool = False,
                 places_ok: bool = False, ambiguous_ok: bool = False, at_least: int = 1,
                 titled: bool = False) -> Iterator[tuple[int, int, float]]:
        for m in matches:
            words = [(w.start() + m.start("name"), w.end() + m.start("name"), w.group())
                     for w in regex.finditer(r"\S+", m.group("name"))]
            # "Yesterday Qarin Shenoy said": a sentence's first word is no part of the name
            while words and words[0][2].rstrip(".").lower() in _TITLES:
                words.pop(0)  # "ask Ms. Okonkwo": the title is no name (the honorific rule reads on)
            first = words[0] if words else None
            if trim_start and len(words) > 1 and self._plain(first[2]) and _sentence_start(text, first[0]):
                words.pop(0)
            # a common word ends no name, unless a particle stands before it ("Maelle de la Tour")
            while words and not (titled and len(words) == 1) and (words[-1][2] in _PARTICLES or (
                    self._plain(words[-1][2]) and not (len(words) > 1 and words[-2][2] in _PARTICLES))):
                words.pop()
            texts = [w[2] for w in words]
            if len(words) >= at_least and (self._titled(texts) if titled else self._acceptable(
                    texts, strong=strong, places_ok=places_ok, ambiguous_ok=ambiguous_ok)):
                yield words[0][0], words[-1][1], SCORE

    def _acceptable(self, words: list[str], *, strong: bool, places_ok: bool = False,
                    ambiguous_ok: bool = False) -> bool:
        """`places_ok`: the cue takes a person, never a place ("ask Bo", "if Bo needs"), so a given name
        that is also a town is a name; `ambiguous_ok`: a capitalised word mid-sentence there is a name
        even when it is also a word ("if Dakota needs ...")."""
        lex = self.lex
        core = [w for w in words if w not in _PARTICLES and (len(w.rstrip(".")) > 1 or not _latin(w))]
        if not core or " ".join(words) in self.not_names or any(w in self.not_names for w in core):
            return False
        if any(w in lex.countries for w in core):
            return False
        if " ".join(words) in lex.places and not (
                places_ok and all(w in lex.first or w in lex.ambiguous for w in core)):
            return False
        if len(core) == 1:
            word = core[0]
            if not _latin(word):
                return True
            clean = word in lex.first or word in lex.last
            # "payments-api" is no name; "Okonkwo-Baptiste", every part capitalised, is
            unknown = strong and not lex.is_word(word) and word not in lex.places and (
                "-" not in word or all(part[:1].isupper() for part in word.split("-")))
            return clean or unknown or (ambiguous_ok and word in lex.ambiguous)
        after_particle = {b for a, b in zip(words, words[1:]) if a in _PARTICLES}
        named = sum(lex.is_any_name(w) or not _latin(w) or w in after_particle for w in core)
        plain = sum(self._plain(w) and w not in after_particle for w in core)
        if plain == 0:  # "for Stancu Tabacu:": several capitalised words, none a common word
            return named > 0 or strong or all(w[1:].islower() for w in core if _latin(w))
        return strong and named > 0 and plain < len(core) and (
            not self._plain(core[-1]) or core[-1] in after_particle)

    def _titled(self, words: list[str]) -> bool:
        """After a title ("Ms.", "Dr") capitalised words are a name, a town's or a word's though they be
        ("Ms. Austin", "Dr Wolf"): only a word the policy allows, or a common word ending it, is not."""
        core = [w for w in words if w not in _PARTICLES]
        return bool(core) and not any(w in self.not_names for w in core) \
            and " ".join(words) not in self.not_names

    def _plain(self, word: str) -> bool:
        lex = self.lex
        return lex.is_word(word) and not lex.is_name(word) and word not in lex.ambiguous


_PARTICLES = frozenset("""van von der den de del della dei di da das dos du la le les ter ten bin binti ibn
    al el y e zu af av die do dello degli""".split())
_LATIN = regex.compile(r"\p{Latin}")
_TITLES = frozenset("mr mrs ms mx miss dr prof sir madam dame".split())


def _sentence_start(text: str, pos: int) -> bool:
    before = text[max(0, pos - 4):pos].rstrip(" \t\"'*>-")
    return not before or before[-1] in ".!?:;\n"


def _latin(word: str) -> bool:
    return bool(_LATIN.search(word))
