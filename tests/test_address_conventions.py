"""Street addresses as several countries write them lose every part that locates the person, and ordinary
text with numbers stays byte for byte.

Hand-written examples of each convention (`scrubbers/recognizers/address_local.py` and the forms of
`addresses.py` and `address_blocks.py`): Dutch and German house-number suffixes, Spanish floor and door,
Turkish "No:" and "D:", Japanese chōme-ban-gō with their wards, Singapore's blocks and "#08-14" units,
Nigeria's plots and numbered districts, a level or a flat before the street (Australia, the UK, South
Africa), Kenya's post boxes with the post office's code, Canadian addresses typed in lower case. Each
piece listed must no longer occur as a whole word: house, plot, block and flat numbers, the street's
name, the unit, the postal code and the town or ward lines after the street (a country alone may stay).
"""

from __future__ import annotations

import pytest

from scrubbers import ScrubEngine
from tests.scrub_text import scrub as _scrub, survives as _survives


ADDRESSES = [
    # Dutch and German house-number suffixes: a floor, a house letter, "hs" (huis), "bis", a range
    ("Keizersgracht 123-II, 1015 CJ Amsterdam", ["Keizersgracht", "123-II", "1015", "CJ", "Amsterdam"]),
    ("Prinsengracht 263-1, 1016 GV Amsterdam", ["Prinsengracht", "263-1", "1016", "Amsterdam"]),
    ("Send the contract to Herengracht 401 hs, 1017 BP Amsterdam.",
     ["Herengracht", "401", "hs", "1017", "Amsterdam"]),
    ("Witte de Withstraat 12 III\n3012 BR Rotterdam", ["Withstraat", "12", "III", "3012", "Rotterdam"]),
    ("Lange Voorhout 34-H, 2514 EE Den Haag", ["Voorhout", "34-H", "2514", "Haag"]),
    ("Nieuwe Binnenweg 77-A02, 3014 GE Rotterdam", ["Binnenweg", "77-A02", "3014", "Rotterdam"]),
    ("Oudegracht 158 bis, 3511 AZ Utrecht", ["Oudegracht", "158", "bis", "3511", "Utrecht"]),
    ("Bergmannstraße 12a, 10961 Berlin", ["Bergmannstraße", "12a", "10961", "Berlin"]),
    ("Kastanienallee 7 b, 10435 Berlin", ["Kastanienallee", "7", "10435", "Berlin"]),
    ("Sonnenallee 221-223, 12059 Berlin", ["Sonnenallee", "221-223", "12059"]),
    # Spanish floor and door after the street (detection reads "º" as "o": NFKC)
    ("Calle de Alcalá 45, 3º izq., 28014 Madrid", ["Alcalá", "45", "3º", "izq", "28014", "Madrid"]),
    ("Calle Mayor 12, 2ºB, 28013 Madrid", ["Mayor", "12", "2ºB", "28013", "Madrid"]),
    ("Avenida de la Constitución 8, 4º dcha., 41004 Sevilla",
     ["Constitución", "8", "4º", "dcha", "41004", "Sevilla"]),
    ("C/ Gran Vía 30, 1º 2ª, 28013 Madrid", ["Gran", "30", "1º", "2ª", "28013"]),
    ("Paseo de Gracia 92, 2.º D, 08008 Barcelona", ["Gracia", "92", "2.º", "08008", "Barcelona"]),
    ("Calle Colón 3, esc. B, 6º C, 46004 Valencia", ["Colón", "3", "6º", "46004", "Valencia"]),
    ("Calle Sierpes 15, bajo A, 41004 Sevilla", ["Sierpes", "15", "bajo", "41004", "Sevilla"]),
    ("Envíalo a Calle del Pez 21, 3ºA izda, 28004 Madrid, España", ["Pez", "21", "3ºA", "izda", "28004"]),
    # Turkish: the street word after the name, "No:" before the number, "Kat:" (floor), "D:"/"Daire" (flat)
    ("Bağdat Caddesi No: 155 D: 7, Kadıköy, İstanbul 34728", ["Bağdat", "155", "7", "Kadıköy", "34728"]),
    ("Atatürk Bulvarı No: 87 K: 4 D: 12, Çankaya, Ankara 06680",
     ["Atatürk", "87", "4", "12", "Çankaya", "06680"]),
    ("İstiklal Caddesi No: 42/3, Beyoğlu, İstanbul", ["İstiklal", "42/3", "Beyoğlu"]),
    ("Gül Sokak No. 9 Daire 3, 35220 Konak/İzmir", ["Gül", "9", "3", "35220", "Konak"]),
    ("Cumhuriyet Mah. Lale Sk. No: 14 D: 2, Şişli, İstanbul 34380",
     ["Cumhuriyet", "Lale", "14", "2", "Şişli", "34380"]),
    ("Moda Cad. No:120 Kat:3, Kadıköy", ["Moda", "120", "3", "Kadıköy"]),
    ("Teslimat adresi: Barbaros Bulvarı No: 31 Daire: 8, 34353 Beşiktaş/İstanbul",
     ["Barbaros", "31", "8", "34353", "Beşiktaş"]),
    # Japanese chōme-ban-gō beside the district, then the ward or city ("-ku", "-shi", "-cho")
    ("2-21-1 Shibuya, Shibuya-ku, Tokyo 150-0002", ["2-21-1", "Shibuya", "Shibuya-ku", "150-0002"]),
    ("c/o Sakura Ito, 3-5-8 Minami-Aoyama, Minato-ku, Tokyo 107-0062",
     ["3-5-8", "Minami-Aoyama", "Minato-ku", "107-0062"]),
    ("1-9-1 Marunouchi, Chiyoda-ku, Tokyo 100-0005", ["1-9-1", "Marunouchi", "Chiyoda-ku", "100-0005"]),
    ("Room 502, 2-11-3 Meguro, Meguro-ku, Tokyo 153-0063", ["502", "2-11-3", "Meguro", "153-0063"]),
    ("3-1-1 Umeda, Kita-ku, Osaka-shi, Osaka 530-0001",
     ["3-1-1", "Umeda", "Kita-ku", "Osaka-shi", "530-0001"]),
    ("Nishi-Shinjuku 2-8-1, Shinjuku-ku, Tokyo 163-8001",
     ["Nishi-Shinjuku", "2-8-1", "Shinjuku-ku", "163-8001"]),
    ("Please ship to 4-2-8 Shibakoen, Minato-ku, Tokyo 105-0011, Japan",
     ["4-2-8", "Shibakoen", "Minato-ku", "105-0011"]),
    ("Tanaka Hiroshi\n5-7-2 Ginza\nChuo-ku, Tokyo 104-0061", ["5-7-2", "Ginza", "Chuo-ku", "104-0061"]),
    ("12-3 Higashiyama-cho, Sakyo-ku, Kyoto 606-8353", ["12-3", "Higashiyama-cho", "Sakyo-ku", "606-8353"]),
    ("2-chome-4-1 Kojimachi, Chiyoda-ku, Tokyo", ["2-chome-4-1", "Kojimachi", "Chiyoda-ku"]),
    ("1-2-3 Yukinoshita, Kamakura, Kanagawa 248-0005", ["1-2-3", "Yukinoshita", "248-0005"]),
    # Singapore: "Block"/"Blk", the street's number after its word, "#floor-unit", the postal code
    ("Block 231 Bishan Street 22, #08-14, Singapore 570231", ["231", "Bishan", "22", "08-14", "570231"]),
    ("Blk 118 Rivervale Drive, #05-221, Singapore 540118", ["Blk", "118", "Rivervale", "05-221", "540118"]),
    ("Blk 402 Ang Mo Kio Ave 10, #07-1123, Singapore 560402", ["402", "Kio", "10", "07-1123", "560402"]),
    ("80 Robinson Road #17-02, Singapore 068898", ["80", "Robinson", "17-02", "068898"]),
    ("Block 5 Tampines Street 32 #12-34 Singapore 529702", ["5", "Tampines", "32", "12-34", "529702"]),
    # Nigeria: a plot before a street with no number, districts with a number, "No." before the number
    ("Plot 14, Admiralty Way, Lekki Phase 1, Lagos", ["14", "Admiralty", "Lekki", "Phase 1", "Lagos"]),
    ("Plot 1012, Adetokunbo Ademola Street, Victoria Island, Lagos",
     ["1012", "Adetokunbo", "Ademola", "Victoria Island"]),
    ("Plot 7 Ikorodu Road, Maryland, Lagos", ["7", "Ikorodu", "Maryland"]),
    ("No. 22 Awolowo Road, Ikoyi, Lagos", ["22", "Awolowo", "Ikoyi"]),
    ("Plot 33, Aminu Kano Crescent, Wuse 2, Abuja", ["33", "Aminu", "Kano", "Wuse 2"]),
    ("Flat 4, Block C, 12 Herbert Macaulay Way, Yaba, Lagos", ["4", "12", "Herbert", "Macaulay", "Yaba"]),
    # a level, a flat or a suite before the street (Australia, the UK, South Africa)
    ("Office: Level 3, 100 Queen St, Melbourne VIC 3000", ["Level 3", "100", "Queen", "Melbourne", "3000"]),
    ("Level 12, 680 George Street, Sydney NSW 2000", ["Level 12", "680", "George", "Sydney", "2000"]),
    ("Suite 4, Level 2, 55 Collins St, Melbourne VIC 3000", ["4", "Level 2", "55", "Collins", "3000"]),
    ("Unit 3/45 Beach Road, Bondi NSW 2026", ["3/45", "45", "Beach", "Bondi", "2026"]),
    ("Apartment 12, 4 Nelson Mandela Drive, Cape Town 8001",
     ["12", "4", "Nelson", "Mandela", "Cape", "8001"]),
    ("Apartment 7B, 220 Long Street, Cape Town 8001", ["7B", "220", "Long", "8001"]),
    ("Unit 9, 14 Jan Smuts Avenue, Johannesburg 2196", ["9", "14", "Smuts", "2196"]),
    ("Flat 2, 18 Abbey Road, London NW8 9AY", ["2", "18", "Abbey", "NW8", "9AY"]),
    ("Her new place: Apt 5, 31 Kloof Street, Gardens, Cape Town 8001", ["5", "31", "Kloof", "8001"]),
    # Kenya: the post office's code after the box number, then the town
    ("PO Box 48291-00100, Nairobi", ["48291", "00100", "Nairobi"]),
    ("P.O. Box 30197-00100, Nairobi", ["30197", "00100", "Nairobi"]),
    ("Write to P.O Box 1234-40100 Kisumu", ["1234", "40100", "Kisumu"]),
    ("PO Box 90420 - 80100, Mombasa", ["90420", "80100", "Mombasa"]),
    # Canada in lower case: "on" (Ontario) is no clause word before a postal code
    ("send it to 88 wellington st, toronto on m5j 2n7", ["88", "wellington", "toronto", "m5j", "2n7"]),
    ("ship to 45 king st w, hamilton on l8p 1a1", ["45", "king", "hamilton", "l8p", "1a1"]),
    ("my address is 310 granville st, vancouver bc v6c 1s9", ["310", "granville", "vancouver", "v6c", "1s9"]),
    ("deliver to 77 spring garden rd, halifax ns b3j 3r4 thanks", ["77", "spring", "halifax", "b3j", "3r4"]),
    ("mail it to 1200 rue sherbrooke ouest, montreal qc h3a 1g1", ["1200", "sherbrooke", "montreal", "h3a"]),
]

KEPT = [
    "She used 62.5 hours of PTO and 14 days of leave.",
    "Ticket REQ-884213 logged 40 hours in week 23.",
    "Read Chapter 5 on page 112 of Volume 2.",
    "Upgrade from version 3.12.1 to 3.13 before 2026-06-29.",
    "Policy 4.2 - Overtime Rules",
    "Section 12 - Leave Policy\nEmployees accrue 1.5 days",
    "PTO-CA-2026 §4.2",
    "The meeting moved to Room 4 at Gate 12.",
    # the words of units, plots and blocks, with no street after them
    "Level 3 support will call back",
    "Block 2 of the training starts at 10",
    "Plot the 2024 figures by region",
    "Escalate to Level 2, then to Level 3 if unresolved.",
    "Level 4, 12 people were affected by the outage.",
    "Block 3, 25 minutes: group exercise.",
    "Plot 2, 14 weeks of data, shows the trend.",
    "Unit 4, 30 questions, covers overtime rules.",
    "Apartment 12 was inspected on 2026-03-04.",
    "Floor 3, 40 desks, all booked.",
    "Room 204, 10 am: benefits Q&A.",
    "Team on call: Level 2 (14 engineers).",
    "Suite 4, Level 2 meeting at 10",
    "Gate 12, Terminal B",
    "Phase 2, Sprint 3",
    "Zone 3, Phase 2 rollout begins 2026-07-01.",
    "Phase 1, Sprint 4 closed with 30 points.",
    "Floor plan v2, Block 3 - Sector 12",
    "Room 12 bis is closed",
    # "No:" and "D:" without a Turkish street word before them
    "No: 155 tickets were closed",
    "Item No: 12 D: 3 pages",
    "Invoice No: 4471 D: 12 lines",
    "Ticket No. 22 Awaiting Review",
    "See section 4.2.1, No. 7 for the rule.",
    # ordinal marks without a street: a quarter, a semester, a temperature
    "the 3º trimestre report",
    "The 2º semestre starts in August.",
    "Sección 4, 2º trimestre de 2026",
    "Capítulo 3, 1º parte",
    "Sprint 45, 3ºA team",
    "Set the thermostat to 21º and the fan to 2.",
    "Benefits tier 2ºB applies.",
    # numbers joined by dashes, beside a ward word or not
    "Step 2-3-1 of the runbook: restart the worker.",
    "Run tests 1-2-3 Monday, then deploy.",
    "Version 2-21-1 Beta shipped yesterday.",
    "Figure 2-21-1 shows Shibuya-ku sales.",
    "Team 3-2-1 Launch, Shibuya-ku office",
    "The 2-1-1 Rule, Naka-ku style",
    "Item 4-2-8, Final",
    "Score 123-II in the final",
    "Grant 221-223 covers Berlin travel.",
    "Apply patch 12 III to cluster 3.",
    "Apply rule 7 b to all claims.",
    # towns and codes after ordinary numbers
    "PO 48291-00100 was approved.",
    "Order #08-14 shipped to Singapore today.",
    "Box 12 of 40 contains the 2025 files.",
    "We grew 22% in Lagos, 14% in Abuja and 9% in Nairobi.",
    "Ship 12 boxes to Lagos, Abuja and Kano.",
    "Loaded 3 kg, Singapore 2026 trip",
    "Test 14 passed, Nairobi 2025 cohort",
    "In 2025, 3 offices moved: Tokyo, Osaka, Kyoto.",
    "Use port 8080 on host db-12, Tokyo region.",
    # "on" and "or" after a cue still end its clause when no postal code follows
    "Our toronto on call team has 12 people.",
    "send it to the team on monday",
    "mail it to the office or 12345 people",
]


@pytest.mark.parametrize(("text", "pieces"), ADDRESSES)
def test_every_locating_part_of_the_address_is_removed(engine: ScrubEngine, text: str,
                                                        pieces: list[str]) -> None:
    out = _scrub(engine, text)
    assert not [piece for piece in pieces if _survives(piece, out)], out


@pytest.mark.parametrize("text", KEPT)
def test_ordinary_text_with_numbers_stays_byte_for_byte(engine: ScrubEngine, text: str) -> None:
    assert _scrub(engine, text) == text
