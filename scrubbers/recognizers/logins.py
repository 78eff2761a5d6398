"""Log-in names built from a person's name, with no cue word: `akowalczyk`, `wkamau`, `jfernandes7`,
`tomasz.lewandowski`, `ines_faria`, `sre-jmartinez`, and profile links (`github.com/kwame-dev`,
`linkedin.com/in/oksana-shevchenko-4821`).

Directories build log-ins the same few ways in every company: an initial and the surname, the given name
and the surname joined by a dot, an underscore or a hyphen, sometimes a digit or two after. A token in
lower case is a log-in when one of its parts is one of those shapes over the name lists: the surname
(five letters or more) a list holds, and the whole no word of English ("across" is "a" and "cross");
or a given name then a surname. A given name alone ending a hyphenated or underscored token
(`deploy-bot-ravi`) makes it a log-in too when it is among a country's most common (`redis-cli`,
`argo-cd` are no one). Tool and product names are none of these shapes (`kubectl`, `redis`, `nagios`:
no list holds "ubectl", "edis" or "agios"), and a token inside an e-mail address, a path or a URL is
left to their own recognizers.
"""

from __future__ import annotations

from collections.abc import Iterator

import regex

from scrubbers.recognizers.base import OneEntityRecognizer
from scrubbers.recognizers.lexicon import Lexicon, lexicon

ENTITY = "USER_NAME"
_SCORE = 0.55  # below a key rule's own finding (0.6), which names the placeholder where both apply
# a lower-case token of letters and digits, parts joined by ".", "_" or "-"; not inside a path, a URL, an
# e-mail address's domain, a channel (`#eugene-office`) or a longer identifier; before an "@" only when no
# domain follows (`rkapoor@host`)
_TOKEN = regex.compile(
    r"(?<![\w./\\:$%{<#-])(?P<login>[a-z][a-z0-9]*(?:[._-][a-z0-9]+){0,3})"
    r"(?![\w/\\(]|[.-][a-z0-9]|@[\w-]+\.[a-z])")
_PART = regex.compile(r"[a-z]+")
_VERSION_PART = regex.compile(r"[._-]\d+[._-]")  # a number between two parts: `-2.0-`, `-3-5-`
_ENDINGS = ("ing", "ed", "es", "s", "er", "ers", "ly")
_WHERE_A_LOGIN_STANDS = regex.compile(
    r"\b(?:by|for|to|from|user|users|username|login|account|owner|assignee|assigned|add|added|remove|removed"
    r"|reset|unlock|unlocked|disable|disabled|enable|enabled|ping|cc|as|via|sudo|su|and)[ \t]*[:=]?[ \t]+$",
    regex.IGNORECASE)
_TOP_LEVEL_DOMAINS = frozenset("""com net org io dev app ai co uk de fr es it nl be ch at se no dk fi pl
ru cn jp kr in au nz ca us br mx ar za ng ke eu info biz me tv cloud local internal corp lan""".split())
_SURE, _WHERE_ONE_STANDS = "sure", "where one stands"  # what `LoginRecognizer.login_shape` says
_SURNAME_MIN = 5  # "kamau", "petrov"; shorter tails ("edis" of "redis") are too often something else
# profile pages: the first path segment is a person's (on GitHub and GitLab only a bare profile link:
# `github.com/google/adk-python` names an organisation as often)
_PROFILE = regex.compile(
    r"(?<![\w.-])(?:https?://)?(?:www\.)?(?:(?P<code>github\.com|gitlab\.com)|linkedin\.com/(?:in|pub)"
    r"|twitter\.com|x\.com|instagram\.com|facebook\.com|behance\.net|dribbble\.com|tiktok\.com/@"
    r"|medium\.com/@|threads\.net/@|t\.me|bsky\.app/profile)/(?P<user>[A-Za-z0-9_.-]*[A-Za-z0-9_])"
    r"(?P<more>/)?", regex.IGNORECASE)
_NOT_A_PROFILE = frozenset("""home search explore settings groups pages events watch hashtag i intent share
login signup about help legal privacy policies jobs company school feed notifications messages""".split())


class LoginRecognizer(OneEntityRecognizer):
    """USER_NAME: log-ins built from a name, and profile links (see the module docstring)."""

    ENTITY = ENTITY
    NAME = "log-in names"

    def __init__(self) -> None:
        self.lexicon = lexicon()
        super().__init__()

    def spans(self, text: str) -> Iterator[tuple[int, int, float]]:
        for match in _TOKEN.finditer(text):
            shape = self.login_shape(match.group("login"))
            if shape == _SURE or shape == _WHERE_ONE_STANDS and (
                    _WHERE_A_LOGIN_STANDS.search(text, max(0, match.start() - 30), match.start())
                    or text.startswith("@", match.end())):
                yield match.start("login"), match.end("login"), _SCORE
        if "/" in text:
            for match in _PROFILE.finditer(text):
                user = match.group("user")
                if match.group("code") and match.group("more") or user.lower() in _NOT_A_PROFILE:
                    continue
                yield match.start("user"), match.end("user"), 0.85

    def built_from_a_name(self, token: str) -> bool:
        """Is `token` (lower case) a log-in made from a name (see the module docstring), wherever it
        stands?"""
        return self.login_shape(token) is not None

    def login_shape(self, token: str) -> str | None:
        """`_SURE` for a log-in made from a name (see the module docstring); `_WHERE_ONE_STANDS` for one
        word of an initial and a surname (`wkamau`): chat's slang and typos take that shape too ("hangin",
        "amazin"), so it is a log-in only where one stands, after a verb of accounts or a word of who
        ("reset MFA for wkamau", "silenced by kmurphy") or before an `@` (`rkapoor@build-07`); None for
        any other token."""
        lex = self.lexicon
        parts = _PART.findall(token)
        if not parts or (len(parts) == 1 and (lex.is_frequent_word(parts[0]) or _inflected(parts[0], lex))):
            return None
        if "." in token and parts[-1] in _TOP_LEVEL_DOMAINS:
            return None  # a host name (`souljaboytellem-iga.ning.com`): the URL recognizers judge it
        if _VERSION_PART.search(token):
            return None  # a model or package and its version: `gemini-2.0-flash`, `claude-3-5-sonnet`
        if any(_initial_and_surname(part, lex) for part in parts):
            alone = len(parts) == 1 and not _a_given_name(parts[0], lex)
            return _WHERE_ONE_STANDS if alone else _SURE
        for given, surname in zip(parts, parts[1:]):
            if _a_given_name(given, lex) and (surname in lex.last_lower or surname in lex.first_lower) \
                    and not lex.is_frequent_word(surname):
                return _SURE
            # a given name that is also a word ("sam", "mark") before a surname no word is: `sam_okonkwo92`
            if given in lex.first_lower and len(surname) >= _SURNAME_MIN and surname in lex.last_lower \
                    and not lex.is_word(surname) and not lex.is_frequent_word(surname):
                return _SURE
        # a popular given name ending a joined token: `deploy-bot-ravi`, `laptop-maria-01`; not `redis-cli`
        # ("Redis" is a given name somewhere, not among a country's most common) nor `argo-cd` (a tool
        # named first, its kind after)
        joined = len(parts) > 1 and regex.search(r"[_-]", token) is not None
        last = parts[-1]
        if joined and len(last) >= 4 and last.capitalize() in lex.popular_first \
                and not lex.is_frequent_word(last):
            return _SURE
        return None


def _inflected(word: str, lex: Lexicon) -> bool:
    """A word of English with an ending: "imaged" (image), "provisioned", "kamaus" is none."""
    for ending in _ENDINGS:
        stem = word[: -len(ending)]
        if word.endswith(ending) and len(stem) >= 3 and (lex.is_word(stem) or lex.is_word(stem + "e")):
            return True
    return False


def _initial_and_surname(part: str, lex: Lexicon) -> bool:
    """`akowalczyk`, `wkamau`: one letter, then a surname of the lists that is no English word."""
    surname = part[1:]
    return (len(surname) >= _SURNAME_MIN and surname in lex.last_lower and not lex.is_frequent_word(surname)
            and not lex.is_word(part) and not lex.is_frequent_word(part))


def _a_given_name(part: str, lex: Lexicon) -> bool:
    return len(part) >= 3 and part in lex.first_lower and not lex.is_frequent_word(part)
