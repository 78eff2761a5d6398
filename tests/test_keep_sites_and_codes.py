"""What stays (issue 36's damage goal, on text others wrote for us): places named as the sites they are,
versions, ledger accounts, addresses that are no one's, holidays of many calendars, channels; and the
people beside them still go.

Every example is written here, none copied from a battery.
"""

from __future__ import annotations

import pytest

from scrubbers import ScrubEngine
from tests.scrub_text import scrub, survives


@pytest.mark.parametrize("text", [
    "Regina warehouse needs 6 seasonal pickers starting the week of October 7.",
    "Victoria and Alexandria sites both reported clock drift this week.",
    "The Dublin and Cork sites use the Irish public holiday calendar.",
    "Orlando call center needs bilingual associates.",
    "Policy HR-114 (Remote Work) v3.2 supersedes v3.1; the printer driver v5.2 is fine.",
    "FX revaluation gain posted to GL 7810 (Unrealized FX).",
    "nginx: [emerg] bind() to 0.0.0.0:443 failed; health checks hit 127.0.0.1:8080.",
    "Diwali, Lunar New Year and Eid al-Fitr are floating holidays; May Day and Matariki differ by country.",
    "Updates will be posted in the #eugene-office channel in Slack.",
])
def test_sites_versions_ledgers_local_addresses_holidays_and_channels_stay(
        engine: ScrubEngine, text: str) -> None:
    assert scrub(engine, text) == text


@pytest.mark.parametrize(("text", "names"), [
    ("Victoria's office is on the third floor.", ["Victoria"]),  # a person's office, not a site
    ("Maria and Tanvir approved the site plan.", ["Maria", "Tanvir"]),
])
def test_people_beside_site_words_still_go(engine: ScrubEngine, text: str, names: list[str]) -> None:
    out = scrub(engine, text)
    assert not any(survives(name, out) for name in names), out


def test_a_public_address_stays_and_a_private_one_goes(engine: ScrubEngine) -> None:
    out = scrub(engine, "bind() to 0.0.0.0:443 failed on 10.42.3.17")
    assert "0.0.0.0" in out and "10.42.3.17" not in out
