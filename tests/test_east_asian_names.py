"""East Asian names the English NER model cannot see (`scrubbers/recognizers/east_asian_names.py`): Han and
Hangul names before an honorific lose the name and keep the honorific; hyphenated Korean given names go;
English hyphenated words, identifiers, role words before an honorific and words holding an honorific's
character stay byte-identical.

The English spaCy model sometimes tags a whole CJK clause as a person ("校長先生の話", "承認者山田太郎様"
come out as one placeholder with or without this recognizer): those texts are checked on the recognizer's
own spans, the others on the engine's exact output."""

from __future__ import annotations

import pytest

from scrubbers import ScrubEngine
from scrubbers.recognizers.east_asian_names import EastAsianNameRecognizer


@pytest.fixture(scope="module")
def eng() -> ScrubEngine:
    return ScrubEngine()


def scrub(eng: ScrubEngine, text: str) -> str:
    return eng.scrub_text(text, eng.new_context())


REPLACED = [
    # Japanese: a surname, a full name, a given name in hiragana; the honorific stays
    ("山田太郎さんの休暇申請を承認しました。", "<PERSON_1>さんの休暇申請を承認しました。"),
    ("田中様", "<PERSON_1>様"),
    ("佐藤先生", "<PERSON_1>先生"),
    ("営業部の鈴木さんに連絡してください。", "営業部の<PERSON_1>さんに連絡してください。"),
    ("人事部長谷川様", "人事部<PERSON_1>様"),  # no space between words: cut where a known surname starts
    ("佐々木健太くんの宿題", "<PERSON_1>くんの宿題"),
    ("鈴木花子ちゃん", "<PERSON_1>ちゃん"),
    ("伊藤先生によると、明日は休みです。", "<PERSON_1>先生によると、明日は休みです。"),
    ("小泉進次郎氏は述べた。", "<PERSON_1>氏は述べた。"),
    ("山田太郎殿", "<PERSON_1>殿"),
    # Chinese: from a surname, one to three characters; a word before the name stays
    ("王秀英女士", "<PERSON_1>女士"),
    ("李先生", "<PERSON_1>先生"),
    ("感谢张伟先生的帮助。", "感谢<PERSON_1>先生的帮助。"),
    ("请通知经理王秀英女士。", "请通知经理<PERSON_1>女士。"),
    ("向李先生致敬", "向<PERSON_1>先生致敬"),
    ("谢谢刘老师", "谢谢<PERSON_1>老师"),
    ("欧阳娜娜小姐", "<PERSON_1>小姐"),
    ("陳大文先生", "<PERSON_1>先生"),  # traditional characters (Hong Kong, Taiwan)
    # Korean: after one space or none; a full name, a given name alone, a compound surname
    ("김민준 님의 계정이 잠겼습니다.", "<PERSON_1> 님의 계정이 잠겼습니다."),
    ("박지성 씨", "<PERSON_1> 씨"),
    ("김민준님의 계정", "<PERSON_1>님의 계정"),
    ("이서연 씨가 왔습니다.", "<PERSON_1> 씨가 왔습니다."),
    ("박서준씨의 이메일", "<PERSON_1>씨의 이메일"),
    ("김지은 선생님께서 승인하셨습니다.", "<PERSON_1> 선생님께서 승인하셨습니다."),
    ("남궁민수 님", "<PERSON_1> 님"),
    # romanised Korean given names with a hyphen
    ("Ji-woo will send the minutes.", "<PERSON_1> will send the minutes."),
    ("Thanks, Do-yun", "Thanks, <PERSON_1>"),
    ("Ha-eun and Seo-yeon will cover the help desk.", "<PERSON_1> and <PERSON_2> will cover the help desk."),
    ("Ji-Woo", "<PERSON_1>"),
    ("Min-jun, Hye-jin and Jae-hyun joined the call.",
     "<PERSON_1>, <PERSON_2> and <PERSON_3> joined the call."),
]

# the recognizer's own spans, where NER's wider span would hide them in the engine's output
FOUND = [
    ("承認者山田太郎様", ["山田太郎"]),
    ("田中みゆきさんが来ます。", ["田中みゆき"]),
    ("山田部長さんの承認", ["山田"]),  # a surname before a title: the title stays
    ("张同学的作业", ["张"]),
    ("민준 씨, 안녕하세요.", ["민준"]),
    ("Min-jun, Seo-yeon and Ha-eun joined.", ["Min-jun", "Seo-yeon", "Ha-eun"]),
    *((text, []) for text in (
        "ping @ji-woo about it", "ping @Ji-woo about it", "校長先生の話", "尊敬的女士们、先生们",
        "관리자님 확인 부탁드립니다.", "花子ちゃんと遊んだ", "男女士兵", "张丽君")),
]

GONE = [
    ("Kim Ji-woo", ["Kim", "Ji-woo"]),  # NER's already: one name, nothing of it left
    ("Please ask Seo-Yeon Park about the invoice.", ["Seo-Yeon"]),
]

KEPT = [
    # English hyphenated words and identifiers
    "In-house counsel reviewed it.",
    "Co-op members get a discount.",
    "Re-run the job.",
    "Do-it-yourself repairs are not covered.",
    "So-called experts disagreed.",
    "Ha-ha, very funny.",
    "Yo-yo dieting is common.",
    "Mid-year reviews start in June.",
    "Pre-tax deductions apply.",
    "Sign-on bonus: 2000.",
    "Log-in failed twice.",
    "Opt-in is required.",
    "Ye-olde shoppe",
    "A-ha! Found it.",
    "Deploy ji-woo-service to staging.",
    "see svc/ji-woo and svc/Ji-woo",
    "open Ji-woo.txt",
    "JI-WOO",
    # Japanese: no name, a bare honorific, a polite prefix, a role, a word holding the honorific's character
    "会議は午後3時からです。",
    "先生のご意見",
    "お客様の情報を更新しました。",
    "ご担当者様",
    "担当者様へ",
    "ご本人様確認",
    "お疲れさまでした。",
    "ご苦労さまです。",
    "製品仕様書を確認しました。",
    "同様の問題があります。",
    "氏名を入力してください。",
    "申請者氏名",
    "部長さんに聞いた",
    "皆さん、こんにちは",
    "会員様限定",
    "宮殿を見学した",
    "様々な問題",
    "宿題ちゃんとやった？",
    "旦那さん",
    # Chinese
    "请把合同发给王秀英。",  # no honorific: no safe signal
    "我们首先生成一个密钥。",
    "语文老师",
    "数学老师",
    "班主任老师",
    "高中同学",
    "各位同学",
    "这位女士",
    "我先生下班了",
    "零下摄氏五度",
    "太和殿",
    # Korean
    "계정이 잠겼습니다.",
    "고객님의 계정이 잠겼습니다.",
    "사장님께 보고했습니다.",
    "선생님께서 말씀하셨다.",
    "수학 선생님",
    "우리 선생님",
    "아저씨가 왔다.",
    "마음씨가 좋다.",
    "씨앗을 심었다.",
    "하나님의 사랑",
    "고객센터님",
]


@pytest.mark.parametrize(("text", "expected"), REPLACED)
def test_an_east_asian_name_goes_and_the_honorific_stays(eng: ScrubEngine, text: str, expected: str) -> None:
    assert scrub(eng, text) == expected


@pytest.mark.parametrize(("text", "names"), FOUND)
def test_the_recognizer_finds_exactly_the_name(text: str, names: list[str]) -> None:
    found = sorted({(start, end) for start, end, _ in EastAsianNameRecognizer().spans(text)})
    assert [text[start:end] for start, end in found] == names


@pytest.mark.parametrize(("text", "parts"), GONE)
def test_a_hyphenated_given_name_after_or_before_a_surname_is_gone(
        eng: ScrubEngine, text: str, parts: list[str]) -> None:
    out = scrub(eng, text)
    assert "<PERSON_1>" in out
    assert not any(part in out for part in parts)


@pytest.mark.parametrize("text", KEPT)
def test_words_identifiers_and_roles_stay(eng: ScrubEngine, text: str) -> None:
    assert scrub(eng, text) == text


def test_the_recognizer_can_be_switched_off() -> None:
    from scrubbers.recognizers.registry import build_recognizers
    from scrubbers.recognizers.settings import RecognizerSettings

    class Policy:
        entities = ["PERSON"]
        allow_terms: list[str] = []
        recognizers = RecognizerSettings(east_asian_names=False, name_gazetteer=False, lone_names=False)

    names = [r.name for r in build_recognizers(Policy())]  # type: ignore[arg-type]
    assert "east asian names" not in names
    Policy.recognizers = RecognizerSettings(name_gazetteer=False, lone_names=False)
    assert "east asian names" in [r.name for r in build_recognizers(Policy())]  # type: ignore[arg-type]
