"""User handles in chat and social text: `@jessejane`, `@Jessica_Chobot`, Reddit's `u/throwaway_123`.

A handle names one person as surely as their name does, in any culture and any script of writing. The
`@` or `u/` stays, the handle goes. Code keeps its own `@`: a decorator (`@property` heading a line,
`@app.route(...)`, a frequent word such as `@property` in prose about code), a scoped package
(`@types/node`), an e-mail address (a word before the `@`).
"""

from __future__ import annotations

from collections.abc import Iterator

import regex

from scrubbers.recognizers.base import OneEntityRecognizer
from scrubbers.recognizers.lexicon import lexicon

ENTITY = "USER_NAME"
_SCORE = 0.7
# GitHub and GitLab handles hold hyphens ("@ngozi-dev")
_AT_HANDLE = regex.compile(
    r"(?<![\w.@/\\+-])@(?P<handle>[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,38}[A-Za-z0-9_])?)"
    r"(?![\w@(/]|\.[A-Za-z])")
_REDDIT = regex.compile(r"(?<![\w/.-])/?u/(?P<handle>[A-Za-z0-9_-]{3,20})(?![\w/-])")
_LINE_START = regex.compile(r"(?:^|\n)[ \t]*$")


class HandleRecognizer(OneEntityRecognizer):
    """USER_NAME: `@handle` and `u/handle` in prose (see the module docstring)."""

    ENTITY = ENTITY
    NAME = "user handles"

    def __init__(self) -> None:
        self.words = lexicon()
        super().__init__()

    def spans(self, text: str) -> Iterator[tuple[int, int, float]]:
        if "@" in text:
            for match in _AT_HANDLE.finditer(text):
                if _LINE_START.search(text, max(0, match.start() - 40), match.start()) and (
                        text[match.end():match.end() + 1] in ("", "\n", "(")):
                    continue  # a decorator alone on its line
                handle = match.group("handle")
                if handle.isdigit() or self.words.is_frequent_word(handle):
                    continue  # "@2" a count; "@property", "@dataclass" in prose about code
                yield match.start("handle"), match.end("handle"), _SCORE
        if "u/" in text:
            for match in _REDDIT.finditer(text):
                yield match.start("handle"), match.end("handle"), _SCORE
