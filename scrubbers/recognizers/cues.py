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
_CASED = (r"\p{Lu}[\p{Ll}\p{M}]*(?:\p{Lu}[\p{Ll}\p{M}]{2,})?(?:['’]\p{Lu}?[\p{Ll}\p{M}]+)*"
          r"(?:-\p{L}[\p{Ll}\p{M}]+)*")
_CASELESS = (r"[\p{Han}\p{Hiragana}\p{Katakana}ー]{1,4}|\p{Hangul}{1,4}|[\p{Devanagari}\p{M}]+|"
             r"[\p{Arabic}\p{M}]+|[\p{Bengali}\p{M}]+|[\p{Tamil}\p{M}]+|[\p{Telugu}\p{M}]+|"
             r"[\p{Thai}\p{M}]+|[\p{Hebrew}\p{M}]+|[\p{Georgian}\p{M}]+|[\p{Gujarati}\p{M}]+|"
             r"[\p{Gurmukhi}\p{M}]+|[\p{Kannada}\p{M}]+|[\p{Malayalam}\p{M}]+")
_WORD = rf"(?:{_CASED}|{_CASELESS})"
_PARTICLE = (r"(?:van|von|der|den|de|del|della|dei|di|da|das|dos|du|la|le|les|ter|ten|bin|binti|ibn|al|el|"
             r"y|e|zu|af|av|die|do|dello|degli)")
_NAME = rf"(?P<name>{_WORD}(?:[ \t](?:{_PARTICLE}[ \t])*(?:{_WORD}|\p{{Lu}}\.?)){{0,3}})"
_EDGE = r"(?<![\p{L}\p{M}\p{N}_@/\\.-])"
_CLAUSE_END = r"(?=[ \t]*(?:[;,.!?:)\]]|$|\n|[ \t]\(|[ \t]+(?:at|on|in|from|to|with|and|or|until|via)\b))"
_REPORTING = (r"said|says|wrote|writes|asked|asks|told|tells|mentioned|mentions|reported|reports|noted|notes|"
              r"confirmed|confirms|suggested|suggests|replied|replies|complained|complains|emailed|called|"
              r"pinged|messaged|texted|explained|explains|added|adds|insists|insisted|thinks|thought|"
              r"believes")
_AFTER_VERB_BY = (r"(?:reviewed|approved|signed|requested|reported|assigned|submitted|opened|raised|filed|"
                  r"written|authored|created|owned|maintained|escalated|handled|booked|made|sent|placed|"
                  r"paid|authori[sz]ed|initiated|triggered|closed|resolved|updated|edited|merged)")

# Verbs whose object is a person: "Ask Siobhan in accounting", "Please loop in Dakota Rivera Soto".
_PERSON_VERB = regex.compile(
    r"(?i:\b(?:ask|asked|asking|ping|pinged|tell|told|cc|bcc|loop(?:ed|ing)?[ \t]+in|e-?mail|message|"
    r"contact|thank|invite|include|copy|remind|notify|let|check[ \t]+with|talk[ \t]+to|speak[ \t]+(?:to|"
    r"with)|"
    r"reach[ \t]+out[ \t]+to|forward[ \t]+(?:it|this)[ \t]+to)\b)[ \t]+" + rf"{_EDGE}{_NAME}"
    r"(?=[ \t]*(?:[;,.!?:)]|$|\n|[ \t]+(?:in|from|at|on|if|about|for|and|or|when|to|know|that|before|"
    r"after)\b))")
# A clause's subject: "Let me know if Bo needs the same change".
_SUBJECT = regex.compile(rf"(?i:\b(?:if|whether|unless|when|once)\b)[ \t]+{_EDGE}{_NAME}(?=[ \t]+(?:needs|"
                         rf"wants|has|"
                         r"is|was|asks|gets|can|could|should|would|will|does|did)\b)")
_FOR = regex.compile(rf"(?i:\bfor)[ \t]+{_EDGE}{_NAME}{_CLAUSE_END}")
_FROM_COLON = regex.compile(rf"(?i:\bfrom)[ \t]+{_EDGE}{_NAME}(?=[ \t]*:)")
_FROM_TEAM = regex.compile(
    rf"{_EDGE}{_NAME}(?=[ \t]+(?:from[ \t]+(?:our|the|your|his|her|their|my)\b|(?:on|in|of|at)[ \t]+(?:our|"
    rf"the|"
    r"your|his|her|their|my)[ \t]+(?:[\p{L}-]+[ \t]+){0,2}(?:team|department|dept|office|group|squad|unit|"
    r"staff)\b))")
_HERE = regex.compile(rf"(?:^|(?<=[\n.!?][ \t]{{0,3}})|"
                      rf"(?<=^[ \t>*-]{{1,6}})){_NAME}(?=[ \t]+here\b[ \t]*[:,.!—–-])",
                      regex.MULTILINE)
_SAID = regex.compile(rf"{_EDGE}{_NAME}(?=[ \t]+(?:{_REPORTING})\b)")
_BY = regex.compile(rf"(?i:\b{_AFTER_VERB_BY}[ \t]+by)[ \t]+{_EDGE}{_NAME}")

_PERSON_VERB_WORDS = ("ask asked asking ping pinged tell told cc bcc loop looped looping email message "
                      "contact thank invite include copy remind notify let check talk speak reach forward")
_TEAM_WORDS = "team department dept office group squad unit staff"
_PREFILTER_WORDS = frozenset(f"for from here by if whether unless when once team {_PERSON_VERB_WORDS}".split()
                             + _REPORTING.split("|"))
_CUE_WORD = regex.compile(r"(?i:\b(?:e-mail|" + "|".join(sorted(_PREFILTER_WORDS | set(_TEAM_WORDS.split()),
                                                                 key=len, reverse=True)) + r")\b)")
_RULES: tuple[tuple[regex.Pattern, frozenset[str], dict[str, bool]], ...] = (
    (_HERE, frozenset({"here"}), {"strong": True, "trim_start": True}),
    (_SAID, frozenset(_REPORTING.split("|")), {"strong": True, "trim_start": True}),
    (_BY, frozenset({"by"}), {"strong": True, "trim_start": False}),
    (_PERSON_VERB, frozenset(_PERSON_VERB_WORDS.split()),
     {"strong": True, "trim_start": False, "places_ok": True}),
    (_SUBJECT, frozenset({"if", "whether", "unless", "when", "once"}),
     {"strong": False, "trim_start": False, "places_ok": True}),
    (_FOR, frozenset({"for"}), {"strong": False, "trim_start": False}),
    (_FROM_COLON, frozenset({"from"}), {"strong": False, "trim_start": False}),
    (_FROM_TEAM, frozenset({"from", *_TEAM_WORDS.split()}), {"strong": False, "trim_start": True}),
)
"""Each cue rule with the cue words it cannot match without, and how its matches are judged."""


def role_cue(roles: Iterable[str]) -> regex.Pattern | None:
    """The pattern of a role noun (any case, also "co-" and plural) then an optional "of the <noun>",
    a colon or equals sign, and a name."""
    words = sorted({r.strip().lower() for r in roles if r.strip()}, key=len, reverse=True)
    if not words:
        return None
    alternatives = "|".join(regex.escape(w).replace(r"\ ", r"[ \t]+") for w in words)
    return regex.compile(
        rf"(?i:\b(?:co-?)?(?:{alternatives})(?:e?s)?\b(?:[ \t]+(?:of|for|on)[ \t]+(?:the|this|that|a|an)"
        rf"[ \t]+\p{{Ll}}+)?)[ \t]*(?:[:=][ \t]*|[ \t]+)(?-i:{_EDGE}{_NAME})")


class CueNames:
    """The cue rules over one lexicon and one policy's role nouns."""

    def __init__(self, lex: Lexicon, roles: Iterable[str], not_names: frozenset[str]) -> None:
        self.lex = lex
        self.roles = role_cue(roles)
        self.not_names = not_names

    def spans(self, text: str) -> Iterator[tuple[int, int, float]]:
        if self.roles is not None:
            yield from self._matches(self.roles.finditer(text), strong=True, trim_start=False)
        # Each rule runs only where one of its own cue words occurs: a name pattern tried at every capital
        # of a long text costs far more than one pass that finds the cue words.
        cues = {word.lower().replace("-", "") for word in _CUE_WORD.findall(text)}
        if cues.isdisjoint(_PREFILTER_WORDS):
            return
        for rule, words, options in _RULES:
            if not cues.isdisjoint(words):
                yield from self._matches(rule.finditer(text), **options)

    def _matches(self, matches: Iterable[regex.Match], *, strong: bool, trim_start: bool,
                 places_ok: bool = False) -> Iterator[tuple[int, int, float]]:
        for m in matches:
            words = [(w.start() + m.start("name"), w.end() + m.start("name"), w.group())
                     for w in regex.finditer(r"\S+", m.group("name"))]
            if trim_start:  # "Yesterday Qarin Shenoy said": the sentence's first word is not the name
                while len(words) > 1 and self._plain(words[0][2]):
                    words.pop(0)
            while words and (words[-1][2] in _PARTICLES or self._plain(words[-1][2])):
                words.pop()
            if words and self._acceptable([w[2] for w in words], strong=strong, places_ok=places_ok):
                yield words[0][0], words[-1][1], SCORE

    def _acceptable(self, words: list[str], *, strong: bool, places_ok: bool = False) -> bool:
        """`places_ok`: the cue takes a person, never a place ("ask Bo", "if Bo needs"), so a given name
        that is also a town is a name."""
        lex = self.lex
        core = [w for w in words if w not in _PARTICLES and (len(w.rstrip(".")) > 1 or not _latin(w))]
        if not core or " ".join(words) in self.not_names or any(w in self.not_names for w in core):
            return False
        if any(w in lex.countries for w in core):
            return False
        if " ".join(words) in lex.places and not (places_ok and all(w in lex.first for w in core)):
            return False
        if len(core) == 1:
            word = core[0]
            if not _latin(word):
                return True
            clean = word in lex.first or word in lex.last
            unknown = strong and not lex.is_word(word) and word not in lex.places and "-" not in word
            return clean or unknown or (strong and word in lex.ambiguous)
        named = sum(lex.is_any_name(w) or not _latin(w) for w in core)
        plain = sum(self._plain(w) for w in core)
        if plain == 0:  # "for Stancu Tabacu:": several capitalised words, none a common word
            return named > 0 or strong or all(w[1:].islower() for w in core if _latin(w))
        return strong and named > 0 and plain < len(core) and not self._plain(core[-1])

    def _plain(self, word: str) -> bool:
        lex = self.lex
        return lex.is_word(word) and not lex.is_name(word) and word not in lex.ambiguous


_PARTICLES = frozenset("""van von der den de del della dei di da das dos du la le les ter ten bin binti ibn
    al el y e zu af av die do dello degli""".split())
_LATIN = regex.compile(r"\p{Latin}")


def _latin(word: str) -> bool:
    return bool(_LATIN.search(word))
