"""Names NER misses: found by the name lists together with where they stand in the text.

- **Full names**: two to four capitalised words (any alphabet with case; initials and particles such
  as "van", "de", "bin" between) whose first word is a given name and whose last is a name or an
  unknown word that is not a common English word: "Szabina J Gelencsér", "Nguyễn Văn An".
- **Single names with a cue**: after a greeting or thanks ("Thanks, Elena."), at the head of a line
  addressed to someone ("Elena, you have ..."), as a sign-off line, after "I'm" / "my name is" (also
  typed in lower case in chat), and in lists after a credit or membership word ("founders: Kónya,
  Becker and Vasquez", "Directed By: Johannes Varvio").
- **Other scripts** inside mostly Latin text: a run of Han or Hangul characters, or of words of another
  script that the name lists know ("Иван Петров", "محمد"), is a name.

Nothing here is domain vocabulary: words a domain uses that look like names belong in its policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import regex

from scrubbers.recognizers.base import OneEntityRecognizer
from scrubbers.recognizers.cues import _CASELESS, CueNames
from scrubbers.recognizers.lexicon import Lexicon, lexicon

ENTITY = "PERSON"
_FULL_SCORE = 0.75
_CUE_SCORE = 0.7
_WEAK_SCORE = 0.6

_PARTICLES = frozenset("""van von der den de del della dei di da das dos du la le les ter ten bin binti ibn
    al el y e zu af av st""".split())
# A word of a name: capitalised (Unicode), with inner apostrophes and hyphenated parts (O'Neil, Jean-Luc).
_NAME_WORD = (r"\p{Lu}[\p{Ll}\p{M}]*(?:\p{Lu}[\p{Ll}\p{M}]{2,})?(?:['’]\p{Lu}?[\p{Ll}\p{M}]+)*"
              r"(?:-\p{Lu}[\p{Ll}\p{M}]+)*")
_INITIAL = r"\p{Lu}\.?"
# an initial with its full stop, tried first: as a one-letter name word "D" would end "Faina D. Yefremova"
_DOTTED_INITIAL = r"\p{Lu}\.(?=[ \t])"
# A vocative or sign-off name may also be one word of a script without case ("विशाल,", "Thanks, 翼!").
_ANY_WORD = rf"(?:{_NAME_WORD}|{_CASELESS})"
_PARTICLE = r"(?:" + "|".join(sorted(_PARTICLES, key=len, reverse=True)) + r")"
_SEQ = regex.compile(
    rf"(?<![\p{{L}}\p{{M}}\p{{N}}_@/\\.-])(?:{_NAME_WORD})(?:[ \t](?:{_PARTICLE}[ \t])*(?:{_DOTTED_INITIAL}|"
    rf"{_NAME_WORD}|{_INITIAL}))"
    rf"{{1,5}}(?![\p{{L}}\p{{M}}\p{{N}}_@/\\-])"
)
_TOKEN = regex.compile(r"[^\s]+")
_GREETING = (r"(?:hi|hello|hey|hiya|dear|thanks|thank\s+you|thx|ty|cheers|bye|goodbye|welcome|sorry|congrats|"
             r"congratulations|(?:good\s+)?(?:morning|afternoon|evening)|good\s+night|ok|okay|sure|great|"
             r"regards|best|"
             r"sincerely|yours|ciao|hallo|hola|bonjour|salut|merci|danke|gracias|grazie|obrigad[oa]|"
             # verbs that take a person: "ping Hemal (...)", "ask Sven", "cc Dana"
             r"ping|ask|tell|email|e-mail|message|notify|cc|page|paging|contact|call|thank)")


def _both(pattern) -> tuple[regex.Pattern, regex.Pattern]:
    """`pattern` over cased name words (for ASCII texts: no script without case can occur there) and
    over words of any script."""
    return regex.compile(pattern(_NAME_WORD)), regex.compile(pattern(_ANY_WORD))


# "Thanks, Elena." / "Hi Elena!" / "Dear Dr. Elena Ruiz" (the full-name rule takes two words).
_AFTER_GREETING = _both(lambda word: rf"(?i:\b{_GREETING})[,!]?[ \t]+(?:(?i:mr|mrs|ms|dr|prof)\.?[ \t]+)?"
                                     rf"(?P<name>{word})(?=[ \t]*(?:[,.!?:;()]|$|\n))")
# A given name in a script without case after a cue, with no space: "ping 涛 (...)", "Thanks,翼!"
_AFTER_GREETING_CASELESS = regex.compile(
    rf"(?i:\b{_GREETING})[,!]?(?P<name>\p{{Han}}{{1,4}}|\p{{Hangul}}{{1,4}})(?=[ \t]*(?:[,.!?:;()]|$|\n))")
# "Elena, you have 48.0 hours" / "Grace: the form is ready" at the head of a line.
_LINE_HEAD = _both(lambda word: rf"(?m)^[ \t>*-]*(?P<name>{word})(?=[ \t]*[,!][ \t]*(?P<next>\S+)?)")
# ", Elena." at the end of a clause: "You're all set, Elena!"
_CLAUSE_END = _both(lambda word: rf",[ \t]+(?P<name>{word})(?=[ \t]*(?:[.!?]|$|\n))")
# A line that is only a name (1-3 words), optionally after a dash: a sign-off.
_LINE_ONLY = _both(lambda word: rf"(?m)^[ \t]*(?:[-–—~]+[ \t]*)?"
                                rf"(?P<name>{word}(?:[ \t](?:{_PARTICLE}[ \t]){{0,2}}{word}){{0,2}})"
                                r"[ \t]*[,.]?[ \t]*$")
_CLOSING_LINE = regex.compile(rf"(?i)(?:\b{_GREETING}|\bcheers|\btake\s+care|\bkind\s+regards)[ \t,.!]*$")
_INTRO = regex.compile(
    r"(?i:\b(?:i'm|i\s+am|im|my\s+name\s+is|my\s+name's|name's|this\s+is|it's|its|call\s+me|hi|hey|hello|"
    r"thanks|thx|ty|dear|signed)[,:]?[ \t]+)(?P<names>[\p{Ll}\p{M}'’-]+(?:[ \t][\p{Ll}\p{M}'’-]+){0,3})")
# a lower-case word where it is not glued to a word, a path, an address or a ":" before it
_LOWER_START = r"(?<![\w@./\\:-])\p{Ll}[\p{Ll}\p{M}]"
_LOWER_PAIR = regex.compile(rf"(?P<given>{_LOWER_START}+)[ \t]+"
                            r"(?P<surname>\p{Ll}[\p{Ll}\p{M}-]*\p{Ll})(?:['’]s?)?(?![\w@/\\-])")
# what `_LOWER_PAIR` can take for a given name of three letters or more (shorter ones are no name there)
_GIVEN_CANDIDATE = regex.compile(rf"{_LOWER_START}{{2,}}(?=[ \t])")
# a name key right before a value in a log line or a form: "name=", "full_name: ", "Display name = "
_NAME_KEY_BEFORE = regex.compile(r"(?i:(?<![\w.-])(?:(?:full|display|user|contact|employee|legal)[ _-]?)?name"
                                 r"[ \t]*[:=][ \t]*)$")
_STRONG_INTRO = regex.compile(r"(?i:i'm|i\s+am|im|my\s+name\s+is|my\s+name's|name's|this\s+is|call\s+me)\b")
_LIST_CUE = regex.compile(
    r"(?i:\b(?:founders?|co-?founders?|authors?|(?:directed|written|produced|created|edited|composed|signed|"
    r"approved|reviewed|reported|requested|assigned|presented|hosted)\s+by|by|cast|starring|credits?|"
    r"team|members?|attendees?|participants?|cc|bcc|to|speakers?|hosts?|guests?|owners?|assignees?|"
    r"reviewers?|approvers?|contacts?|signatories|staff|people|partners?|with|and)\b)[ \t]*:?[ \t]*")
_LIST_ITEM = regex.compile(
    rf"(?P<item>{_NAME_WORD}(?:[ \t](?:{_PARTICLE}[ \t])*(?:{_NAME_WORD}|{_INITIAL})){{0,3}})"
    rf"(?P<sep>[ \t]*(?:,|;|&|\band\b|\bund\b|\bet\b|\by\b)[ \t]*)?")
# Scripts without case or with another alphabet: a run of words of one script.
_HAN = regex.compile(r"\p{Han}{2,4}(?:[ \t·・][\p{Han}\p{Hiragana}\p{Katakana}]{1,4})?")
_HANGUL = regex.compile(r"\p{Hangul}{2,4}(?:[ \t]\p{Hangul}{1,4})?")
_OTHER_SCRIPT = regex.compile(
    r"(?:[\p{Cyrillic}\p{M}-]+|[\p{Greek}\p{M}]+|[\p{Arabic}\p{M}-]+|[\p{Hebrew}\p{M}]+|"
    r"[\p{Devanagari}\p{M}]+|"
    r"[\p{Bengali}\p{M}]+|[\p{Tamil}\p{M}]+|[\p{Telugu}\p{M}]+|[\p{Thai}\p{M}]+|[\p{Armenian}\p{M}]+|"
    r"[\p{Georgian}\p{M}]+)(?:[ \t][\p{Cyrillic}\p{Greek}\p{Arabic}\p{Hebrew}\p{Devanagari}\p{Bengali}"
    r"\p{Tamil}\p{Telugu}\p{Thai}\p{Armenian}\p{Georgian}\p{M}-]+){0,3}")
_LATIN_LETTER = regex.compile(r"\p{Latin}")
_OTHER_LETTER = regex.compile(r"[^\P{L}\p{Latin}]")
# Words that head a line before a comma but never name anyone ("Hi, I'm ...", "Sure, ...").
_INTERJECTIONS = frozenset("""Hi Hello Hey Hiya Thanks Thank Yes Yeah Yep No Nope Ok Okay Sure Great Well So
    Also Please Sorry Dear Welcome Note Done Update Hmm Oh Ah Wow Cool Nice Perfect Right Got Cheers Bye Good
    Morning
    Afternoon Evening Hola Ciao Hallo Salut Bonjour Merci Danke Gracias Regards Best Sincerely Yours First
    Second Third Finally Next Then Now Today Tomorrow Yesterday However Unfortunately Alright Fine
    Ping Ask Tell Email Message Notify Page Contact Call Mr Mrs Ms Mx Dr Prof Sir Madam""".split())
_SECOND_PERSON = frozenset("you your you're you've you'll yours here thanks thank please i i'm we we're "
                           "welcome sorry good great".split())


class NameRecognizer(OneEntityRecognizer):
    """Names by the name lists and structure (see the module docstring); one instance per analyzer."""

    ENTITY = ENTITY
    NAME = "name gazetteer"

    def __init__(self, not_names: list[str] = (), places_are_names: bool = False,
                 roles: list[str] = ()) -> None:
        self.lexicon: Lexicon = lexicon()
        self.not_names = frozenset(not_names)
        self.places_are_names = places_are_names
        self.cues = CueNames(self.lexicon, roles, self.not_names)
        super().__init__()

    def spans(self, text: str) -> list[tuple[int, int, float]]:
        """Each span once, with the best score any reading gave it."""
        found: dict[tuple[int, int], float] = {}
        for start, end, score in self._candidates(text):
            if text[start:end] in self.not_names:
                continue
            if found.get((start, end), 0) < score:
                found[(start, end)] = score
        return [(start, end, score) for (start, end), score in found.items()]

    def _candidates(self, text: str) -> Iterator[tuple[int, int, float]]:
        yield from self._full_names(text)
        yield from self._cued_names(text)
        yield from self._lower_case(text)
        yield from self._lower_pairs(text)
        yield from self._lists(text)
        yield from self._scripts(text)
        yield from self.cues.spans(text)

    # the kinds of evidence ---------------------------------------------------------------------------
    def _full_names(self, text: str) -> Iterator[tuple[int, int, float]]:
        lex = self.lexicon
        for match in _SEQ.finditer(text):
            words = [(m.start() + match.start(), m.end() + match.start(), m.group())
                     for m in _TOKEN.finditer(match.group())]
            # trim common words at either end ("Thanks Elena", "Elena Street"): the name is what is left
            while words and (self._plain_word(words[0][2]) or words[0][2] in _INTERJECTIONS):
                words.pop(0)
            while words and ((self._plain_word(words[-1][2]) and words[-1][2] not in lex.ambiguous)
                             or words[-1][2] in _PARTICLES):
                words.pop()
            core = [w for w in words if len(w[2].rstrip(".")) > 1 and w[2] not in _PARTICLES]
            if len(core) < 2:
                continue
            first, last = core[0][2], core[-1][2]
            span_text = text[words[0][0]:words[-1][1]]
            if self._is_place(span_text):
                continue
            # particles ("van", "de") or double-barrelled parts between capitalised words read as a name
            shaped = any(w[2] in _PARTICLES for w in words[1:-1]) or any("-" in w[2] for w in core)
            first_ok = first in lex.first or (first in lex.ambiguous and lex.is_name(last)) or (
                shaped and not any(self._plain_word(w[2]) or self._is_place(w[2]) for w in core))
            last_known = lex.is_any_name(last)
            place_last = self._is_place(last) and not (first in lex.first and lex.is_name(last))
            if first_ok and (last_known or not lex.is_word(last)) and not place_last:
                yield words[0][0], words[-1][1], _FULL_SCORE if last_known else _WEAK_SCORE

    def _cued_names(self, text: str) -> Iterator[tuple[int, int, float]]:
        lex = self.lexicon
        variant = 0 if text.isascii() else 1
        for match in _AFTER_GREETING[variant].finditer(text):
            if self._name_alone(match.group("name"), cued=True, text=text):
                yield match.start("name"), match.end("name"), _CUE_SCORE
        if not text.isascii():
            for match in _AFTER_GREETING_CASELESS.finditer(text):
                yield match.start("name"), match.end("name"), _CUE_SCORE
        for match in _CLAUSE_END[variant].finditer(text):
            if self._name_alone(match.group("name"), cued=True, text=text):
                yield match.start("name"), match.end("name"), _CUE_SCORE
        if "," in text or "!" in text:
            for match in _LINE_HEAD[variant].finditer(text):
                name, following = match.group("name"), (match.group("next") or "").lower()
                addressed = following.strip(",.!") in _SECOND_PERSON
                if name in _INTERJECTIONS:
                    continue
                if self._foreign_word(text, name):
                    yield match.start("name"), match.end("name"), _CUE_SCORE
                    continue
                if (name in lex.first or name in lex.last or (name in lex.ambiguous and addressed)) and (
                        addressed or not self._is_place(name)):
                    yield match.start("name"), match.end("name"), _CUE_SCORE
        lines = text.split("\n")
        if len(lines) > 1:
            yield from self._sign_offs(text)

    def _sign_offs(self, text: str) -> Iterator[tuple[int, int, float]]:
        lex = self.lexicon
        for match in _LINE_ONLY[0 if text.isascii() else 1].finditer(text):
            before = text[:match.start()].rstrip(" \t\n")
            after = text[match.end():].strip()
            previous_line = before.rsplit("\n", 1)[-1]
            dashed = text[match.start():match.end()].lstrip().startswith(("-", "–", "—", "~"))
            closing = bool(_CLOSING_LINE.search(previous_line)) or dashed
            if not (closing or (before and (not after or len(after) < 60))):
                continue
            words = [w for w in match.group("name").split() if w not in _PARTICLES]
            if any(self._is_place(w) for w in words):
                continue
            if closing and all(self._foreign_word(text, w) for w in words):
                yield match.start("name"), match.end("name"), _CUE_SCORE
                continue
            if all(lex.is_any_name(w) or not lex.is_word(w) for w in words) and any(
                    w in lex.first or w in lex.last or (closing and w in lex.ambiguous) for w in words):
                yield match.start("name"), match.end("name"), _CUE_SCORE if closing else _WEAK_SCORE

    def _lower_case(self, text: str) -> Iterator[tuple[int, int, float]]:
        lex = self.lexicon
        for match in _INTRO.finditer(text, overlapped=True):
            start = match.start("names")
            end = None
            strong = _STRONG_INTRO.match(match.group())
            held = False  # "bobby christiansen": a given name that is also a word, kept if a surname follows
            for word in _TOKEN.finditer(match.group("names")):
                bare = word.group().strip("'’-")
                parts = [p for p in bare.split("-") if p]  # "khatri-bumb", "łobacz-pal"
                unknown = strong and len(bare) > 1 and all(
                    p.isalpha() and p not in lex.english for p in parts)
                later = end is not None or held
                if bare in lex.first_lower or (later and bare in lex.last_lower) or unknown:
                    end = match.start("names") + word.end()
                    held = False
                elif later and bare in _PARTICLES:  # "ivan hemma van allemanië"
                    continue
                elif end is None and not held and strong and bare.capitalize() in lex.ambiguous:
                    held = True
                else:
                    break
            if end is not None:
                yield start, end, _CUE_SCORE

    def _lower_pairs(self, text: str) -> Iterator[tuple[int, int, float]]:
        """A given name and a surname typed in lower case with no cue ("ask elena vasquez about it"):
        both on the name lists and neither a common English word, the given name of four letters or
        more and the surname of three ("git repo" is no one, "sándor út" a street), not right after a
        ":" (":param str x" in a docstring). `benchmarks/lower_names.py` shows what it finds in text
        nobody here wrote; "greg hallman" needs a cue ("greg" is a common word)."""
        lex = self.lexicon
        # a pair's given name is one of `_GIVEN_CANDIDATE`'s words: where none is on the list, no pair
        # needs trying at each word
        if lex.first_lower.isdisjoint(_GIVEN_CANDIDATE.findall(text)):
            return
        for match in _LOWER_PAIR.finditer(text, overlapped=True):
            given, surname = match.group("given"), match.group("surname")
            if not (len(given) >= 3 and len(surname) >= 3 and given in lex.first_lower
                    and surname in lex.last_lower):
                continue
            # after a name key ("name=greg hallman" in a log line) words are names too ("greg" is a word)
            named = _NAME_KEY_BEFORE.search(text, max(0, match.start() - 40), match.start()) is not None
            if named or (len(given) >= 4 and given not in lex.english and surname not in lex.english):
                yield match.start(), match.end("surname"), _WEAK_SCORE  # a possessive "'s" stays

    def _lists(self, text: str) -> Iterator[tuple[int, int, float]]:
        lex = self.lexicon
        for cue in _LIST_CUE.finditer(text):
            pos = cue.end()
            items = []
            while True:
                item = _LIST_ITEM.match(text, pos)
                if not item:
                    break
                items.append(item)
                pos = item.end()
                if not item.group("sep"):
                    break
            labelled = cue.group().rstrip().endswith(":")  # "owner: Ștefania Suciu", "cc: Dana"
            if len(items) < 2 and not labelled:
                continue
            for item in items:
                words = item.group("item").split()
                if any(self._plain_word(w) for w in words) or self._is_place(item.group("item")):
                    continue
                if any(lex.is_any_name(w) for w in words) or len(items) > 1 or (labelled and len(words) > 1):
                    yield item.start("item"), item.end("item"), _CUE_SCORE

    def _scripts(self, text: str) -> Iterator[tuple[int, int, float]]:
        if text.isascii():
            return
        latin = len(_LATIN_LETTER.findall(text))
        lex = self.lexicon
        for pattern in (_HAN, _HANGUL):
            matches = list(pattern.finditer(text))
            if matches and sum(len(m.group()) for m in matches) <= 3 * latin:
                for m in matches:
                    yield m.start(), m.end(), _CUE_SCORE
        for m in _OTHER_SCRIPT.finditer(text):
            words = m.group().split()
            if not latin or len(m.group()) > 3 * latin:  # text in that script, not a name inside Latin text
                continue
            caseless = not any(ch.isupper() or ch.islower() for ch in m.group())
            cased = all(w[0].isupper() for w in words)
            if any(lex.is_any_name(w) for w in words) or (len(words) >= 2 and (cased or caseless)):
                yield m.start(), m.end(), _CUE_SCORE

    # word tests ----------------------------------------------------------------------------------------
    def _plain_word(self, word: str) -> bool:
        """A common English word that is not also a clean name ("Thanks", "Street", "Show")."""
        lex = self.lexicon
        return lex.is_word(word) and not lex.is_name(word)

    def _is_place(self, words: str) -> bool:
        return not self.places_are_names and words in self.lexicon.places

    def _name_alone(self, word: str, *, cued: bool, text: str = "") -> bool:
        lex = self.lexicon
        if word in self.not_names or word in _INTERJECTIONS or (not cued and self._is_place(word)):
            return False
        if cued and text and self._foreign_word(text, word):
            return True
        return word in lex.first or word in lex.last or (cued and word in lex.ambiguous)

    @staticmethod
    def _foreign_word(text: str, word: str) -> bool:
        """A word of another script than the mostly Latin text around it: where a name stands alone (a
        vocative, a greeting, a sign-off) such a word is a name ("Thanks, Εύκλεια", "विशाल, your ...")."""
        if _LATIN_LETTER.search(word):
            return False
        latin = len(_LATIN_LETTER.findall(text))
        return latin >= 8 and latin >= 2 * len(_OTHER_LETTER.findall(text))
