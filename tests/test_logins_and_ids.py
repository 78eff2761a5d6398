"""Log-ins built from a name, who-did-it keys in logs, ids by their form or with words between them and
their cue, and private keys (issue 36: "wherever they sit in a trace and however they are written").

Every example is written here: help-desk, SRE, payroll and benefits text of the kind agents read and write.
"""

from __future__ import annotations

import json

import pytest

from scrubbers import ScrubEngine
from scrubbers.recognizers.logins import LoginRecognizer
from tests.scrub_text import scrub, survives


@pytest.mark.parametrize(("text", "login"), [
    ("I've reset MFA for akowalczyk. Next sign-in will prompt for a new authenticator.", "akowalczyk"),
    ("The VPN cert for wkamau expired; reissued with a new serial.", "wkamau"),
    ("Deploy started by lpetrov (scheduling-svc v2.15.0, canary 10%).", "lpetrov"),
    ("sudo by jfernandes7 on bastion-01: systemctl restart nginx", "jfernandes7"),
    ("Please add tomasz.lewandowski to the Tableau Viewer group.", "tomasz.lewandowski"),
    ("Helm upgrade run by sre-jmartinez (revision 57).", "sre-jmartinez"),
    ("Please revoke the token for deploy-bot-ravi.", "deploy-bot-ravi"),
    ("Her portfolio is under ines_faria_design on Behance.", "ines_faria_design"),
    ("ssh key comment shows rkapoor@build-07; remove it from the bastion.", "rkapoor"),
])
def test_a_login_built_from_a_name_is_a_user_name(engine: ScrubEngine, text: str, login: str) -> None:
    out = scrub(engine, text)
    assert not survives(login, out) and "<USER_NAME_1>" in out, out


@pytest.mark.parametrize(("text", "user"), [
    ("github profile: github.com/kwame-dev, lots of rust work", "kwame-dev"),
    ("LinkedIn: https://www.linkedin.com/in/oksana-shevchenko-4821 applied for Data Analyst.",
     "oksana-shevchenko-4821"),
])
def test_the_user_of_a_profile_link_is_a_user_name(engine: ScrubEngine, text: str, user: str) -> None:
    out = scrub(engine, text)
    assert not survives(user, out), out


@pytest.mark.parametrize("text", [
    "kubectl get pods -n monitoring | grep jaeger && redis-cli ping; nagios and grafana are up",
    "Steps: 1. Get the Argo app argo-cd 2. Inspect labels of argo-cd-74d4e7-1960d27",
    "See github.com/google/adk-python for the source; pip install opentelemetry-sdk; run pytest -x",
    "The payroll-svc on api-prod-02 restarted; check the celery workers and the django admin.",
    "Default model switched from gemini-1.5-pro to gemini-2.0-flash; fallback claude-3-5-sonnet.",
    "New hire IT checklist: laptop imaged, accounts provisioned, badge access requested.",
    "User: what's my balance\nAssistant: You have 62.5 hours of PTO.",
    "- [ ] Add a synthetic check for the SSO login flow (owner: Identity team, due 06/01)",
    "about to get dressed, hangin with the team tonite, that would be amazin",  # chat's shape of a log-in
])
def test_tools_models_words_and_speaker_labels_stay(engine: ScrubEngine, text: str) -> None:
    assert scrub(engine, text) == text


def test_what_makes_a_login_is_its_shape_over_the_name_lists() -> None:
    logins = LoginRecognizer()
    assert logins.built_from_a_name("wkamau") and logins.built_from_a_name("maria-lopez-01")
    # "across" is "a" and "cross", "imaged" an English word with an ending, "redis" no popular given name
    assert not any(logins.built_from_a_name(word) for word in ("across", "imaged", "redis-cli", "kubectl"))


@pytest.mark.parametrize(("text", "value"), [
    ("2026-05-11T03:14:07Z ERROR auth failed user=pixelmonk reason=bad_password", "pixelmonk"),
    ("Device enrolled: owner=zx81fan, serial=C02FQ3XJMD6M", "zx81fan"),
    ("alert silenced_by=nightowl42 for 2h", "nightowl42"),
])
def test_who_did_it_in_a_log_line_is_removed(engine: ScrubEngine, text: str, value: str) -> None:
    out = scrub(engine, text)
    assert not survives(value, out), out


def test_who_did_it_under_a_json_key_is_removed(engine: ScrubEngine) -> None:
    ctx = engine.new_context()
    record = {"user": "pixelmonk", "created_by": "nightowl42", "role": "user", "status": "closed"}
    out = engine.scrub_value(record, ctx)
    assert "pixelmonk" not in json.dumps(out) and "nightowl42" not in json.dumps(out)
    assert out["role"] == "user" and out["status"] == "closed"


@pytest.mark.parametrize(("text", "values"), [
    ("Your National Insurance number on file is JM 40 21 87 D.", ["JM 40 21 87 D"]),
    ("PAN for the Form 16 is BKRPS4821K.", ["BKRPS4821K"]),
    ("The resident ID on the IIT filing is 110105198806123712.", ["110105198806123712"]),
    ("Visa transfer: H-1B receipt number WAC2612345678.", ["WAC2612345678"]),
    ("Medicare number for the claim: 2428 77813 2.", ["2428 77813 2"]),
    ("Background check complete (Clear), SA ID 8501015800089.", ["8501015800089"]),
    ("Deduction correction approved, badge B77412: $208.33 refunded.", ["B77412"]),
    ("Attendance points update (badge WH-55621): 6.5 points.", ["WH-55621"]),
    ("employee id: E-1234, badge: BDG-99821", ["BDG-99821"]),
    ("Missed punch for employee 7734-221 at store 0417 on 05/02.", ["7734-221"]),
    ("The orthodontist needs the member ID, which is W482917736.", ["W482917736"]),
    ("Vision claim submitted, member VSP-44718203.", ["VSP-44718203"]),
    ("Send the payout to IBAN LT12 3250 0247 1938 5562 please.", ["LT12", "5562"]),
    ("User ID u_88213 has been deprovisioned.", ["u_88213"]),
])
def test_ids_by_their_form_or_with_words_before_them_are_removed(
        engine: ScrubEngine, text: str, values: list[str]) -> None:
    out = scrub(engine, text)
    assert not any(value in out for value in values), out


@pytest.mark.parametrize("text", [
    "The badge reader at door 3 is offline; member services opens at 9.",
    "Ticket INC0012345 and CHG-2291 were closed; see SKU AB123456.",
    "The IBAN field is required; member of the team since 2019.",
    "Overtime for employee 2026 planning is on hold.",
])
def test_codes_that_are_no_ones_stay(engine: ScrubEngine, text: str) -> None:
    assert scrub(engine, text) == text


def test_the_body_of_a_private_key_is_a_secret_and_its_frame_stays(engine: ScrubEngine) -> None:
    body = ["b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQy",
            "QyNTUxOQAAACDx7kAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=="]
    text = ("Private key pasted in the ticket:\n-----BEGIN OPENSSH PRIVATE KEY-----\n" + "\n".join(body)
            + "\n-----END OPENSSH PRIVATE KEY-----\nplease rotate it")
    out = scrub(engine, text)
    assert not any(line in out for line in body), out
    assert "-----BEGIN OPENSSH PRIVATE KEY-----" in out and "-----END OPENSSH PRIVATE KEY-----" in out
    assert out.endswith("please rotate it")
    truncated = scrub(engine, "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7xq\nabc+/defQ==")
    assert "MIIEpAIBAAKCAQEA7xq" not in truncated and "abc+/defQ==" not in truncated


@pytest.mark.parametrize(("text", "values"), [
    ("card 4118.6252.7601.8954", ["4118.6252.7601.8954"]),  # a card in fours with dots, after its word
    ("aws secret VOqg6YYZYn9ZhyiA4uoRgnatmUdjAWtGSU8po/79", ["VOqg6YYZYn9ZhyiA4uoRgnatmUdjAWtGSU8po/79"]),
    ("Service account password rotated: svc_payroll_etl / Zk4!rW9#pQ2m$Lx8", ["Zk4!rW9#pQ2m$Lx8"]),
    ("The new hire's username will be aadeyemi.", ["aadeyemi"]),
    ("Please pay into account 12345678, sort code 20-45-17.", ["20-45-17"]),
    ("A/C 50100234567 IFSC HDFC0001234", ["HDFC0001234"]),
    ("BSB 062-000 account 1234 5678", ["062-000"]),
])
def test_cards_secrets_and_bank_codes_as_people_write_them_are_removed(
        engine: ScrubEngine, text: str, values: list[str]) -> None:
    out = scrub(engine, text)
    assert not any(value in out for value in values), out


@pytest.mark.parametrize("text", [
    "commit 4bf92f3577b34da6a3ce929d0e0e473600112233 merged",  # a git SHA: hex in lower case
    "see Build#2026-05-12 and the runbook",
])
def test_hashes_and_build_tags_stay(engine: ScrubEngine, text: str) -> None:
    assert scrub(engine, text) == text


@pytest.mark.parametrize(("text", "names"), [
    ("Customer: maria josé da conceição, CPF on file", ["maria", "josé", "conceição"]),
    ("customer: ana maria dos santos", ["ana", "maria", "santos"]),
])
def test_a_lower_case_name_takes_its_given_names_across_a_particle(
        engine: ScrubEngine, text: str, names: list[str]) -> None:
    out = scrub(engine, text)
    assert not any(survives(name, out) for name in names), out


@pytest.mark.parametrize(("text", "values"), [
    ("O CPF do colaborador é 382.941.607-15, conferir com o cadastro.", ["382.941.607-15"]),
    ("About the NI number: it reads QQ 73 51 02 D. Could you check?", ["QQ 73 51 02 D"]),
    ("Numéro de sécurité sociale : 2 91 07 75 112 043 58, à vérifier.", ["2 91 07 75 112 043 58"]),
    ("Terminate worker 100238745 effective 2024-07-31.", ["100238745"]),
    ("401(k) participant ID 7730-221-904 is showing a loan default.", ["7730-221-904"]),
    ("we need her Medicare number, which is 1EG4-TE5-MK73 according to the card.", ["1EG4-TE5-MK73"]),
    ("my member number for the vision plan is VSP-22019384 but it's not found.", ["VSP-22019384"]),
    ("Cuenta para la nómina: ES12 0049 1500 0512 3456 7892", ["ES12", "7892"]),  # check digits wrong
    ("fecha de nacimiento: 12/09/1988. Falta la copia.", ["12/09/1988"]),
    ("Date de naissance : 21/04/1992.", ["21/04/1992"]),
    ("生年月日：1988年6月14日（年金手帳の記載と一致）", ["1988年6月14日"]),
    ("my date of birth is wrong on the payslip, it should be 19 May 1990, not 1999.", ["19 May 1990"]),
    ("Please remove ACME\\olena.s from the Payroll-Admins group.", ["olena.s"]),
    ("unlock sam_okonkwo92 in Okta pls", ["sam_okonkwo92"]),
    ("Jul 14 02:31:55 hr-jump-01 sudo: rpatel : 3 incorrect password attempts", ["rpatel"]),
    ("webhook https://hooks.slack.com/services/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 ok",
     ["Zq3Lr8Vw2Kp5Nt7Yb1Hc4Mx6"]),
])
def test_values_in_other_languages_forms_and_logs_are_removed(
        engine: ScrubEngine, text: str, values: list[str]) -> None:
    out = scrub(engine, text)
    assert not any(value in out for value in values), out


@pytest.mark.parametrize("text", [
    "calendar: Calendar@2026.2 resolves the plan year",  # a name, a symbol and a version: no password
    "Windows path C:\\Users\\Public and the DOMAIN\\ prefix; build 2026.05.12",
])
def test_versions_and_paths_stay(engine: ScrubEngine, text: str) -> None:
    assert scrub(engine, text) == text
