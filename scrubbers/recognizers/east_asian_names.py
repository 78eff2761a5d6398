"""East Asian person names that the English spaCy model cannot see: names in Han or Hangul script before
an honorific, and romanised Korean given names written with a hyphen.

- **Han before a Japanese honorific** (さん, 様, さま, くん, 君, ちゃん, 先生, 氏, 殿): 2-4 Han characters
  ("山田太郎さん", "田中様"), or a Han surname and a given name in hiragana ("田中みゆきさん"). Japanese
  writes no space between words, so a longer Han run is cut where a known surname starts ("営業部山田さん"),
  else to its last four characters. A polite prefix (お客様, ご本人様, ご苦労さま), a role or kin word
  (担当者様, 部長さん, 校長先生, 祖母ちゃん) and a word the honorific's character is part of (仕様, 氏名,
  宮殿, 諸君) are no name.
- **Han before a Chinese honorific** (先生, 女士, 小姐, 老师, 同学): the name starts at a common surname
  (one character, or a compound such as 欧阳) and holds at most two more ("王秀英女士", "李先生",
  "感谢张伟先生"); a word ending in a surname character (感谢, 语文, 主任) is not the name's start, and
  先生 after 首/预/事 is no honorific ("首先生成": "first generate").
- **Hangul before a Korean honorific** (님, 씨, 선생님, right after or after one space): a word of 2-4
  syllables standing alone ("김민준 님의", "박지성 씨"): two syllables (a given name, "민준 씨") unless a
  role, kin or common word (고객님, 사장님, 아저씨, 마음씨); three only from a surname (김, 이, 박, ...),
  four only from a compound surname (남궁, 제갈). 씨 must end the word or take a particle (씨앗 is a seed).
- **Romanised Korean given names** ("Ji-woo", "Do-yun", "Seo-Yeon"): a capitalised `Syl-syl` of two
  different given-name syllables; never an English hyphenated word ("In-house", "Co-op", "Ha-ha",
  "Yo-yo", "Ye-olde": a part that is no name syllable, or the same twice) or a piece of an identifier
  (`ji-woo-service`, `svc/Ji-woo`, `@Ji-woo`). "Kim Ji-woo" is NER's already.

The honorific stays in the text: only the name is the PERSON span.
"""

from __future__ import annotations

from collections.abc import Iterator

import regex

from scrubbers.recognizers.base import OneEntityRecognizer

ENTITY = "PERSON"
_SCORE = 0.7

# --- Japanese and Chinese ---------------------------------------------------------------------------
_HONORIFIC = regex.compile(r"先生|女士|小姐|老师|老師|同学|同學|さん|さま|様|くん|君|ちゃん|氏|殿")
_CHINESE_HONORIFICS = frozenset("女士 小姐 老师 老師 同学 同學".split())
_HAN = regex.compile(r"\p{Han}")
_HIRAGANA = regex.compile(r"\p{Hiragana}")
_KANA = regex.compile(r"[\p{Hiragana}\p{Katakana}]")
# the honorific's character begins a word here: 様子, 氏名, 殿下, 君主, さまざま, ちゃんと (see below)
_WORD_AFTER = {
    "様": "子式々相態変", "氏": "名族神子", "殿": "下堂様中方内上", "君": "主臨子側",
    "さま": "ざよ", "くん": "せ", "女士": "兵气氣官卒",
}
_KANA_WORDS_AFTER = ("さんぽ", "さんせい", "さんすう", "さんかく", "さんしょう", "さんこう", "君が代")
# the character before the honorific and the honorific's first character make a word: 仕様, 彼氏, 宮殿
_JOINED = frozenset(
    "仕様 同様 多様 模様 異様 一様 文様 紋様 有様 左様 斯様 各様 別様 今様 外様 "
    "彼氏 同氏 両氏 摂氏 華氏 摄氏 华氏 源氏 平氏 某氏 諸氏 各氏 姓氏 "
    "宮殿 宫殿 神殿 御殿 本殿 拝殿 宝殿 貴殿 湯殿 仏殿 佛殿 正殿 聖殿 沈殿 大殿 "
    "諸君 主君 暴君 名君 細君 父君 母君 姫君 若君 貴君 夫君 大君".split())
# 先生 after these is no honorific: 首先|生成 "first generate", 事先, 预先, 原先, 优先, 率先, 祖先|生活
_NOT_BEFORE_SENSEI = frozenset("首预預事原优優率领領抢搶争爭祖早起居占当當最")
# plural: 先生们 "gentlemen", 同学们 "classmates": no one person
_PLURAL_AFTER = frozenset("们們")
_POLITE_PREFIX = frozenset("おご御")  # お客様, ご本人様, ご苦労さま, 御社様: a thing made polite

# Common Japanese surnames of two or three characters: where a name starts in a longer Han run
_JP_SURNAMES = frozenset("""
佐藤 鈴木 高橋 田中 伊藤 渡辺 渡邊 渡部 山本 中村 小林 加藤 吉田 山田 佐々木 山口 松本 井上 木村 斎藤
斉藤 清水 山崎 池田 橋本 阿部 石川 山下 中島 石井 小川 前田 岡田 長谷川 藤田 後藤 近藤 村上 遠藤 青木
坂本 福田 太田 西村 藤井 金子 岡本 藤原 中野 三浦 原田 中川 松田 竹内 小野 田村 中山 和田 石田 森田
上田 柴田 酒井 工藤 横山 宮崎 宮本 内田 高木 安藤 島田 谷口 大野 高田 丸山 今井 河野 藤本 村田 武田
上野 杉山 増田 小山 大塚 平野 菅原 久保 松井 千葉 岩崎 桜井 木下 野口 松尾 菊地 野村 新井 土屋 古屋
緒方 伊達 大西 北村 小松 吉川 山内 西田 菅野 市川 服部 五十嵐 小池 水野 久保田 星野 浅野 大橋 松下
中西 岩田 小西 望月 荒木 北川 平田 川口 小泉 大久保 小野寺 宇佐美 長尾 永井 松岡 熊谷 秋山 片山
""".split())
# role, kin and common words an honorific follows that are no name (the end of a Han run)
_JP_NOT_NAMES = frozenset("""
担当 主任 専務 常務 幹事 司会 教授 博士 大臣 知事 先輩 後輩 同期 上司 部下 同僚 相手 先方 当方 貴社
弊社 御社 各位 皆々 家族 両親 親御 子供 友達 彼女 彼氏 旦那 主人 本人 友人 恋人 知人 他人 大人 新人
住人 職人 夫人 婦人 証人 個人 法人 客人 来客 来賓 顧客 業者 営業 経理 人事 総務 受付 派遣 警察 消防
大工 王子 王女 女王 先祖 祖母 祖父 叔父 叔母 伯父 伯母 義母 義父 義兄 義姉 兄貴 姉貴 隠居 家主 神主
住職 和尚 坊主 観音 地蔵 天神 大仏 菩薩 如来 明神 稲荷 大黒 弁天 天皇 皇后 陛下 殿下 閣下 小鳥 子猫
子犬 新郎 新婦 花嫁 花婿 生徒 学生 院生 児童 園児 担任 主治医 弁護士 税理士 会計士 書士 社労士 保育士
介護士 紳士 力士 兵士 消防士 選手 歌手 助手 騎手 投手 捕手 若手 運転手
""".split())
# a Han run ending in one of these is a role, not a name: 担当者, 会員, 部長, 講師, 作家, 本屋, 友達, 先方
_JP_ROLE_ENDINGS = frozenset("者員長師家屋達方")

# Common Chinese surnames (simplified and traditional), and compound ones
_CN_SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕"
    "丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付傅方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严"
    "覃武戴莫孔向汤葛殷柯洪游詹赖施萧蕭張劉陳楊黃趙吳孫馬羅鄭謝許韓馮鄧葉蘇呂盧鍾譚陸賈韋鄒龍賀顧龔"
    "錢嚴湯賴簡简")
_CN_COMPOUND = frozenset("欧阳 歐陽 司马 司馬 诸葛 諸葛 上官 东方 東方 令狐 皇甫 慕容 司徒 公孙 公孫 夏侯".split())
# words ending in a surname character: the surname character is not where the name starts (感谢|张伟)
_CN_JOINED = frozenset("""
感谢 多谢 谢谢 致谢 道谢 答谢 感謝 多謝 謝謝 国王 行李 紧张 主张 开张 如何 任何 为何 几何 每周 上周
本周 下周 其余 对方 双方 各方 地方 资金 现金 黄金 奖金 基金 经常 非常 正常 日常 异常 提高 最高 主任
责任 信任 担任 现任 前任 新任 语文 中文 英文 日文 全文 原文 正文 历史 歷史 班主任
""".split())
# words starting with a surname character that an honorific can follow: 高中同学 is a schoolmate
_CN_NOT_NAMES = ("高中", "任何", "马上", "于是", "方面")
# prepositions that are also surnames, before a surname: 向李先生 is "to Mr Li", 于王女士 "by Ms Wang"
_CN_PREPOSITIONS = frozenset("向于谢謝")

# --- Korean -----------------------------------------------------------------------------------------
_KO = regex.compile(r"(?<!\p{Hangul})(?P<name>\p{Hangul}{2,4})(?P<gap> ?)(?P<hon>선생님|님|씨)")
_HANGUL = regex.compile(r"\p{Hangul}")
# after 씨, a particle or a copula (씨의, 씨는, 씨께, 씨입니다); anything else makes a word (씨앗, 씨름)
_KO_AFTER_SSI = frozenset("의는가를에께도와랑한이였예죠요만은과로입하네")
_KO_SURNAMES = frozenset(
    "김이박최정강조윤장임한오서신권황안송류유전홍고문양손배백허남심노하곽성차주우구민진나지엄채원천방공"
    "현함변염여추도소석선설마길연위표명기반왕금옥육인맹제모탁국은편용예경봉사부태라리")
_KO_COMPOUND = frozenset("남궁 황보 제갈 선우 독고 사공 서문 동방".split())
_KO_NOT_NAMES = frozenset("""
고객 손님 회원 사장 부장 과장 차장 팀장 실장 국장 원장 소장 반장 조장 점장 계장 이사 전무 상무 회장 대표
대리 주임 사원 직원 인턴 임원 간부 교수 교장 교감 선생 강사 조교 박사 석사 학생 선배 후배 동료 작가 기자
기사 기장 선장 대장 감독 코치 선수 의사 약사 판사 검사 목사 신부 수녀 변호사 노무사 세무사 회계사 설계사
간호사 한의사 상담사 이용자 사용자 신청자 구매자 방문자 지원자 작성자 담당자 관리자 운영자 판매자 참가자
연구원 공무원 주무관 상담원 안내원 배달원 경비원 미화원 위원 의원 위원장 이사장 부사장 부회장 본부장
지점장 지사장 센터장 구청장 도지사 장관 총리 시장 군수 경찰 소방관 부모 조부모 학부모 아버 어머 할머
할아버 아버지 어머니 형님 누님 오라버 장모 장인 사모 서방 도련 아드 따님 하나 하느 예수 부처 조상 신령
용왕 선녀 천사 도사 공주 왕자 왕비 주인 임금 임대인 임차인 집주인 세입자 아저 아가 마음 호박 수박 참깨
들깨 고추 채소 해바라기 우리 저희 너희 당신 그분 이분 저분 여러분 모든 해당 담당 다른 같은 모두 각각
수학 영어 국어 과학 체육 음악 미술 역사 사회 담임 기술 가정 물리 화학 생물 지리 도덕 한문 보건 상담 특수
유치원 학원 과외 피아노 태권도 원어민 주치의 치과 한국어 일본어 중국어
""".split())

# --- romanised Korean given names ---------------------------------------------------------------------
_HYPHENATED = regex.compile(
    r"(?<![\p{L}\p{M}\p{N}_@/\\.#$&+=~-])(?P<first>\p{Lu}\p{Ll}{0,5})-(?P<second>\p{Lu}?\p{Ll}{1,5})"
    r"(?![\p{L}\p{M}\p{N}_@/\\-]|\.[\p{L}\p{N}])")
# Syllables of Korean given names, Revised Romanization and the older spellings people still use
_KO_SYLLABLES = frozenset("""
a ah bin bo bok bom byeol byul byung byeong chae chan chang cheol cheon chul chun da dae dam do dong doo du
eun eui ga geon geum geun gi gil gu gun gyu gyeong ha hae han hee heon ho hoon hong hun hwa hwan hwi hye
hyeon hyeok hyo hyuk hyun hyung hyeong il in ja jae jeong ji jin jong joo joon ju jun jung kang ki kook
kwang kun kyu kyung kyeong mi min moo myung myeong na nam neul ra ram reum ri rin ryeong sang se seo seok
seon seong seul seung shin si sik so sol soo sook soon su subin suk sun sung tae won woo wook woong yang ye
yeol yeon yeong yong yoo yoon young yu yul yun
""".split())
# interjections and words made of name syllables: "A-ha!", "SoHo", "ye-ah"
_HYPHENATED_WORDS = frozenset("a-ha ah-ha ah-so bo-ho so-ho yo-ho ye-ah ha-ho".split())


class EastAsianNameRecognizer(OneEntityRecognizer):
    """PERSON: CJK and Hangul names before an honorific, hyphenated Korean given names (module docstring)."""

    ENTITY = ENTITY
    NAME = "east asian names"

    def spans(self, text: str) -> Iterator[tuple[int, int, float]]:
        if "-" in text:
            for start, end in _hyphenated_names(text):
                yield start, end, _SCORE
        if text.isascii():
            return
        if _HAN.search(text) is not None:
            kana = _KANA.search(text) is not None
            for start, end in _han_names(text, kana):
                yield start, end, _SCORE
        if _HANGUL.search(text) is not None:
            for start, end in _hangul_names(text):
                yield start, end, _SCORE


def _hyphenated_names(text: str) -> Iterator[tuple[int, int]]:
    for m in _HYPHENATED.finditer(text):
        first, second = m.group("first").lower(), m.group("second").lower()
        if first == second or first not in _KO_SYLLABLES or second not in _KO_SYLLABLES:
            continue  # "Ha-ha", "Yo-yo"; "In-house", "Co-op"
        if f"{first}-{second}" in _HYPHENATED_WORDS:
            continue
        yield m.start(), m.end()


def _han_names(text: str, kana: bool) -> Iterator[tuple[int, int]]:
    """Han names before a Japanese or Chinese honorific; `kana`: the text holds kana (it is Japanese)."""
    floor = 0  # a run never reaches back into the previous honorific ("田中様佐藤様")
    for m in _HONORIFIC.finditer(text):
        hon, end = m.group(), m.start()
        previous_floor, floor = floor, m.end()
        japanese = kana or hon == "様"  # 様 is no character of simplified (样) or traditional (樣) Chinese
        if not _an_honorific_here(text, m):
            continue
        start = end
        while start > previous_floor and _HAN.match(text[start - 1]):
            start -= 1
        if hon in _CHINESE_HONORIFICS or (hon == "先生" and not japanese):
            found = _chinese_name(text[start:end])
            if found is None and hon == "先生":
                found = _japanese_name(text[start:end], need_surname=True)  # 佐藤先生, no kana about
        elif start == end:
            found = _kana_given_name(text, end, previous_floor, hon)
            if found is not None:
                yield found
            continue
        elif start > previous_floor and text[start - 1] in _POLITE_PREFIX:
            continue
        else:
            found = _japanese_name(text[start:end], need_surname=not japanese or (
                hon == "ちゃん" and text.startswith("ちゃんと", m.start())))  # "ちゃんと": "properly"
        if found is not None:
            yield start + found[0], start + found[1]


def _an_honorific_here(text: str, m: regex.Match) -> bool:
    """Whether the honorific matched at `m` is one, not part of a word around it."""
    hon, end = m.group(), m.end()
    after = text[end:end + 1]
    if after and after in _WORD_AFTER.get(hon, ""):
        return False
    if after in _PLURAL_AFTER or any(text.startswith(w, m.start()) for w in _KANA_WORDS_AFTER):
        return False
    before = text[m.start() - 1:m.start()] if m.start() else ""
    if before and before + hon[0] in _JOINED:
        return False
    return not (hon == "先生" and before in _NOT_BEFORE_SENSEI)


def _japanese_name(run: str, *, need_surname: bool) -> tuple[int, int] | None:
    """(start, end) of a Japanese name at the end of a Han `run`, or None."""
    n = len(run)
    if n < 2 or run[0] == "御":
        return None
    start = next((i for i in range(max(0, n - 5), n - 1) if _surname_at(run, i)), None)
    if start is None:
        if need_surname:
            return None
        start = max(0, n - 4)
    while n - start >= 4 and run[start:start + 2] in _JP_NOT_NAMES:
        start += 2  # "担当蔵本様": the role word before the name stays
    candidate = run[start:]
    if len(candidate) < 2:
        return None
    if candidate in _JP_SURNAMES or not _a_role(candidate):
        return start, n
    surname = _surname_at(run, start)
    if surname and _a_role(candidate[len(surname):]):
        return start, start + len(surname)  # "山田部長さん": the surname before a title
    return None


def _surname_at(run: str, i: int) -> str:
    """The known Japanese surname starting at `run[i]`, or ""."""
    return next((run[i:i + size] for size in (3, 2) if run[i:i + size] in _JP_SURNAMES
                 and i + size <= len(run)), "")


def _a_role(word: str) -> bool:
    return bool(word) and (word[-1] in _JP_ROLE_ENDINGS or any(
        word[-size:] in _JP_NOT_NAMES for size in (2, 3, 4) if len(word) >= size))


def _kana_given_name(text: str, end: int, floor: int, hon: str) -> tuple[int, int] | None:
    """A Han surname and a given name in hiragana before `hon` ("田中みゆきさん"), or None."""
    if hon in ("先生", "氏", "殿"):
        return None
    kana_start = end
    while kana_start > floor and end - kana_start < 4 and _HIRAGANA.match(text[kana_start - 1]):
        kana_start -= 1
    if not 2 <= end - kana_start <= 3 or (kana_start > floor and _HIRAGANA.match(text[kana_start - 1])):
        return None
    start = kana_start
    while start > floor and _HAN.match(text[start - 1]):
        start -= 1
    run = text[start:kana_start]
    if start > floor and text[start - 1] in _POLITE_PREFIX:
        return None
    surname = next((run[-size:] for size in (3, 2) if run[-size:] in _JP_SURNAMES), "")
    if surname:
        return kana_start - len(surname), end
    if 2 <= len(run) <= 3 and not _a_role(run):
        return start, end
    return None


def _chinese_name(run: str) -> tuple[int, int] | None:
    """(start, end) of a Chinese name at the end of a Han `run`: from a surname, or None."""
    n = len(run)
    for i in range(max(0, n - 4), n):
        size = n - i
        if not ((run[i:i + 2] in _CN_COMPOUND and size >= 2) or (run[i] in _CN_SURNAMES and size <= 3)):
            continue
        if i and run[i - 1:i + 1] in _CN_JOINED or run[max(0, i - 2):i + 1] in _CN_JOINED:
            continue  # 感谢|张伟, 语文|老师, 班主任|老师
        if run[i] in _CN_PREPOSITIONS and i + 1 < n and run[i + 1] in _CN_SURNAMES:
            continue
        if run.startswith(_CN_NOT_NAMES, i):
            continue
        return i, n
    return None


def _hangul_names(text: str) -> Iterator[tuple[int, int]]:
    for m in _KO.finditer(text):
        name, hon = m.group("name"), m.group("hon")
        after = text[m.end():m.end() + 1]
        if hon == "씨" and after and _HANGUL.match(after) and after not in _KO_AFTER_SSI:
            continue  # 씨앗 "seed", 씨름 "wrestling"
        if name in _KO_NOT_NAMES:
            continue  # 고객님, 사장님, 아저씨, 마음씨, 우리 선생님
        if len(name) == 3 and name[0] not in _KO_SURNAMES:
            continue  # 관리자님, 그래서 님
        if len(name) == 4 and name[:2] not in _KO_COMPOUND:
            continue  # 고객센터님
        yield m.start("name"), m.end("name")
