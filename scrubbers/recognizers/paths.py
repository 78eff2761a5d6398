"""User names in home-directory paths and URLs; the rest of the path or URL stays.

- `/Users/<x>/`, `/home/<x>/`, `C:\\Users\\<x>\\` (also with doubled or JSON-escaped backslashes, and
  `~<x>`) wherever they occur: source-location attributes, stack traces, log lines. Machine and CI
  accounts (`runner`, `ubuntu`, `root`, ...) are not people and stay.
- In URLs: the user of `scheme://user@host`, the segment after `/users/`, `/u/`, `/people/`, `/~`,
  `/@`; and a host label or an Azure-style `/deployments/<x>` segment that holds a given name of the
  name lists ("https://elena-ruiz-openai.openai.azure.com").
"""

from __future__ import annotations

from collections.abc import Iterator

import regex

from scrubbers.recognizers.base import OneEntityRecognizer
from scrubbers.recognizers.lexicon import lexicon

ENTITY = "USER_NAME"
_HOME = regex.compile(
    r"(?:(?<=/(?:Users|home|export/home|var/home)/)|(?<=\b[A-Za-z]:(?:\\{1,4}|/)(?:Users|"
    r"Documents and Settings)"
    r"(?:\\{1,4}|/))|(?<=(?:^|[\s\"'(=:])~))(?P<user>[^/\\\s\"'<>:*?|,;)]{1,64})(?=[/\\\"'\s:,;)]|$)")
_URL = regex.compile(r"\b[a-z][a-z0-9+.-]{1,15}://[^\s\"'<>]+", regex.IGNORECASE)
_URL_USER = regex.compile(r"(?<=://)(?P<user>[^\s/:@]+)(?=(?::[^\s/@]*)?@)")
_URL_PATH_USER = regex.compile(
    r"(?<=/(?:users|user|u|people|person|profile|profiles|members|member|accounts|account|~|@))"
    r"/?(?P<user>[^/?#\s\"']+)", regex.IGNORECASE)
_URL_TILDE = regex.compile(r"/(?:~|@)(?P<user>[\w.-]+)")
_HOST = regex.compile(r"(?<=://(?:[^\s/@]*@)?)(?P<host>[A-Za-z0-9.-]+)")
_DEPLOYMENT = regex.compile(r"(?<=/deployments/)(?P<name>[^/?#\s\"']+)", regex.IGNORECASE)
_PARTS = regex.compile(r"[A-Za-z\p{L}]+")


class PathUserRecognizer(OneEntityRecognizer):
    """USER_NAME in home paths and URLs (see the module docstring)."""

    ENTITY = ENTITY
    NAME = "user names in paths"

    def __init__(self, *, system_users: list[str] = (), home_paths: bool = True, urls: bool = True) -> None:
        self.system_users = frozenset(u.lower() for u in system_users)
        self.home_paths, self.urls = home_paths, urls
        self.lexicon = lexicon()
        super().__init__()

    def spans(self, text: str) -> Iterator[tuple[int, int, float]]:
        if "/" not in text and "\\" not in text and "~" not in text:
            return
        if self.home_paths:
            for m in _HOME.finditer(text):
                user = m.group("user")
                if user.lower() not in self.system_users and not user.startswith(("$", "%", "{", "<")):
                    yield m.start("user"), m.end("user"), 0.9
        if self.urls and "://" in text:
            for url in _URL.finditer(text):
                yield from self._in_url(url.group(), url.start())

    def _in_url(self, url: str, offset: int) -> Iterator[tuple[int, int, float]]:
        for pattern in (_URL_USER, _URL_PATH_USER, _URL_TILDE):
            for m in pattern.finditer(url):
                if m.group("user").lower() not in self.system_users:
                    yield offset + m.start("user"), offset + m.end("user"), 0.85
        host = _HOST.search(url)
        tenant: set[str] = set()  # the parts of a host label taken for a person, minus the domain's own
        if host and host.group("host").count(".") >= 2:  # the leftmost label of a subdomain names the tenant
            label, domain = host.group("host").split(".", 1)
            # "openai" in "x-openai.openai.azure.com" is the vendor's word, not the tenant's
            own = set(_PARTS.findall(domain.lower()))
            parts = [p for p in _PARTS.findall(label.lower()) if p not in own]
            # "<tenant>-openai.openai.azure.com": the tenant is whoever created the resource, often a
            # person the name lists do not hold ("sergius", "ties"): fail closed
            vendor_named = bool(parts) and len(parts) < len(_PARTS.findall(label.lower()))
            if vendor_named or self._names_someone("-".join(parts)):
                yield offset + host.start("host"), offset + host.start("host") + len(label), 0.8
                tenant = {p for p in parts if len(p) >= 3}
        for m in _DEPLOYMENT.finditer(url):
            # "sergius-openai.../deployments/sergius-gpt4o": a deployment named like its tenant is too
            if self._names_someone(m.group("name")) or tenant & set(_PARTS.findall(m.group("name").lower())):
                yield offset + m.start("name"), offset + m.end("name"), 0.8

    def _names_someone(self, label: str) -> bool:
        """A host label or deployment name holding a given name ("elena-gpt4o", "ruiz-elena-dev")."""
        lex = self.lexicon
        for part in _PARTS.findall(label.lower()):
            if len(part) >= 3 and part in lex.first_lower:
                return True
            # "karlwerner", "joseantonio": a given name run together with a name
            if any(part[:i] in lex.first_lower and (part[i:] in lex.first_lower or part[i:] in lex.last_lower)
                   for i in range(3, len(part) - 2)):
                return True
        return False
