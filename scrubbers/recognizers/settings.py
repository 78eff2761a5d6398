"""The policy's `recognizers:` section (kept apart so `scrubbers.policy` stays free of recognizer code)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class RecognizerSettings(BaseModel):
    """Switches and lists of the recognizers in `scrubbers/recognizers/`."""

    model_config = ConfigDict(extra="forbid")

    name_gazetteer: bool = True
    """Find names by the name lists and their place in the text (greetings, sign-offs, lists, scripts)."""
    lone_names: bool = True
    """Find a name standing alone with no cue: a capitalised word on the name lists, weighed by how common
    it is as an English word and where it stands, and lists of names (`recognizers/lone_names.py`)."""
    east_asian_names: bool = True
    """Find names the English NER model cannot see: Han or Hangul names before an honorific ("山田さん",
    "王秀英女士", "김민준 님") and hyphenated Korean given names ("Ji-woo") (`recognizers/east_asian_names.py`)."""
    ner_person_filter: bool = True
    """Drop NER person spans that are common words, labels, places or hold digits (never a known name)."""
    strict_places: bool = False
    """Strict geographic redaction: a city, country or airport that NER tags alone is removed too."""
    international_phones: bool = True
    """E.164 numbers anywhere and national numbers of `phone_regions` after a cue or a leading 0/( ."""
    phone_regions: list[str] = Field(default_factory=lambda: [
        "US", "CA", "GB", "IE", "FR", "DE", "AT", "CH", "BE", "NL", "LU", "IT", "ES", "PT", "DK", "SE", "NO",
        "FI", "EE", "LV", "LT", "PL", "CZ", "SK", "HU", "RO", "BG", "GR", "CY", "HR", "SI", "RS", "UA", "TR",
        "IL", "AE", "SA", "EG", "MA", "ZA", "NG", "KE", "IN", "PK", "BD", "CN", "HK", "TW", "JP", "KR", "VN",
        "TH", "MY", "SG", "ID", "PH", "AU", "NZ", "BR", "AR", "MX", "CL", "CO", "PE", "RU"])
    """Regions whose national numbers (no country code) are recognised when written as phones."""
    card_after_cue_digits: tuple[int, int] = (12, 19)
    """A run of this many digits (spaces and dashes allowed) after a card word is a card number."""
    luhn_cards: bool = True
    """Every Luhn-valid 13-19 digit number is a card, unless it reads as a Unix time (s, ms, us, ns)."""
    iban_any_case: bool = True
    """IBANs in lower or mixed case and grouped in fours, checked by their mod-97 digits."""
    international_addresses: bool = True
    """Street lines with the number after the street (Europe), postal-code lines, flat and floor parts."""
    spelled_emails: bool = True
    """E-mail addresses written out: "jdoe42 at example dot com", "jdoe42 [at] example [dot] com"."""
    handles: bool = True
    """`@handle` and `u/handle` in chat and social text are user names (`recognizers/handles.py`)."""
    logins: bool = True
    """Log-ins built from a name with no cue (`akowalczyk`, `tomasz.lewandowski`) and profile links
    (`github.com/kwame-dev`, `linkedin.com/in/x`) are user names (`recognizers/logins.py`)."""
    home_paths: bool = True
    """The user name in `/Users/x`, `/home/x`, `C:\\Users\\x` is a `USER_NAME`; the rest of the path stays."""
    url_names: bool = True
    """User names in URLs (`user@host`, `/users/x`, `/~x`) and hosts or deployments named after a person."""
    system_users: list[str] = Field(default_factory=lambda: [
        "root", "runner", "ubuntu", "admin", "user", "app", "node", "vscode", "jovyan", "circleci",
        "ec2-user", "www-data", "nobody", "docker", "gitlab-runner", "Shared", "Public", "Default",
        "Default User", "All Users", "runneradmin", "travis", "jenkins", "buildkite-agent", "codespace"])
    """Account names of machines and CI images, not of people: kept in home paths."""
    not_names: list[str] = []
    """Words never taken for a name alone, whatever NER says (a domain's own vocabulary)."""
    person_roles: list[str] = Field(default_factory=lambda: [
        "author", "owner", "contact", "customer", "client", "member", "user", "recipient", "sender",
        "holder", "account holder", "cardholder", "applicant", "candidate", "colleague", "coworker",
        "co-worker", "teammate", "friend", "spouse", "partner", "parent", "reporter", "requester",
        "requestor", "approver", "reviewer", "assignee", "attendee", "participant", "speaker", "caller",
        "signatory", "beneficiary", "payee", "payer", "tenant", "landlord", "buyer", "seller", "witness",
        "new hire", "hire", "contractor", "intern", "volunteer", "student", "patient", "guardian"])
    """Nouns for a person in any domain: a name after one ("Reporter: Zinal Ganguly", "guest = Ants
    Lauri", "Author of the test: Major Marcell") is a name (`scrubbers/recognizers/cues.py`)."""
    domain_person_roles: list[str] = []
    """A domain's own nouns for a person ("employee", "passenger", "maintainer"): added to `person_roles`."""
    brands: list[str] = []
    """Brand and product words (hotel chains, card schemes, software vendors, meeting products): a
    PERSON span made only of these, venue words and common words ("Grand Hyatt", "Mastercard Gold",
    "Google Meet") or starting with one of these is a brand, not a person. The policy's vocabulary."""
    venue_words: list[str] = []
    """Head nouns of organisations and venues ("Hotel", "Inn", "Airlines", "GmbH"): a PERSON span holding
    one is an organisation or a place, not a person ("Hilton Garden Inn", "The Plaza Hotel")."""
