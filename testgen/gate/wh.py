"""The question word must fit the answer: a phone number is not a "who", a visa is not a "누구", a price is not a
"when" (**wh_mismatch**). Checked per language on the question as phrased and the value it asks for.

The kinds: *person* (who / 누구 / 谁 / 誰) needs a name — no digits, no address, a few words; *date* (when / 언제 /
什么时候 / いつ) needs a date; *count* and *amount* (how many, how much / 몇, 얼마 / 多少, 几 / いくら, 何人) need a
number; *place* (where / 어디 / 哪里 / どこ) must not be a date, an amount or an address of the web. Korean "몇 일"
is always wrong (the word is 며칠).
"""

from __future__ import annotations

import re

from testgen.gate.values import is_placeholder
from testgen.kg.values import classify_value
from testgen.lang import ko

_EN = (
    (re.compile(r"^(?:who|whom|whose)\b", re.I), "person"),
    (re.compile(r"^(?:when|since when)\b|^in (?:what|which) year\b", re.I), "date"),
    (re.compile(r"^how (?:many|much|long|old|far|large|big|high)\b|^what (?:percentage|share)\b", re.I), "number"),
    (re.compile(r"^where\b", re.I), "place"),
)
_KO = (
    (re.compile(r"누구|누가|누구인"), "person"),
    (re.compile(r"언제|몇\s?년도?에|며칠에"), "date"),
    (re.compile(r"얼마|몇\s?\S|며칠"), "number"),
    (re.compile(r"어디"), "place"),
)
_ZH = (
    (re.compile(r"谁"), "person"),
    (re.compile(r"什么时候|何时|哪一?年|哪天|几月|几号"), "date"),
    (re.compile(r"多少|几"), "number"),
    (re.compile(r"哪里|哪儿|在哪"), "place"),
)
_JA = (
    (re.compile(r"誰|だれ|どなた"), "person"),
    (re.compile(r"いつ|何年|何月|何日"), "date"),
    (re.compile(r"いくら|いくつ|何人|何個|何回|どのくらい|どれくらい|何パーセント"), "number"),
    (re.compile(r"どこ"), "place"),
)
_RULES = {"en": _EN, "ko": _KO, "zh": _ZH, "ja": _JA}


#: An English question asking an amount or a time by its label's head: "What is X's fuel limit?", "What is the
#: mobile phone limit of the expense policy?", "What are the hours of the Starter Plan?".
_AMOUNT_LABEL_EN = re.compile(
    r"^what (?:is|are)\b.*\b(limit|cap|allowance|maximum|minimum|budget|fee|rate|price|cost|hour)s?"
    r"(?:\s+(?:of|for|at|in)\s+[^?]*)?\?\s*$",
    re.I,
)


#: A question asking for an e-mail address or a telephone number, in any of the languages.
_ASKS_EMAIL = re.compile(r"\be-?mail\b|이메일|메일\s?주소|邮箱|电子邮件|メール", re.I)
_ASKS_PHONE = re.compile(r"\b(?:tele)?phone(?: number)?\b|전화\s?번호|电话|電話", re.I)


#: Days named by the week or the calendar: a day is an answer to "when" ("설날·추석 당일", "every other Sunday").
_DAY_WORD = re.compile(
    r"요일|공휴일|명절|설날|추석|당일|주말|평일|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b(?:bank |public )?"
    r"holidays?\b|\bweekends?\b|\bweekdays?\b|星期|周[一二三四五六日末]|[月火水木金土日]曜",
    re.I,
)


def asked_kind(question: str, language: str) -> str | None:
    """The kind of answer the question word asks for, or None for what/which questions."""
    text = question.strip()
    for pattern, kind in _RULES.get(language, _EN):
        if pattern.search(text):
            return kind
    return None


def _person_like(value: str) -> bool:
    value = re.sub(r"\s*[(（][^()（）]*[)）]$", "", value.strip())  # "정유나 (010-2254-8830)": her number in brackets
    if re.search(r"\d|@|https?:|www\.", value):
        return False
    if re.search(r"[가-힣]", value):
        return len(value.split()) <= 4
    return len(value.split()) <= 6 and (value[:1].isupper() or not value[:1].isascii())


#: A label naming a person, asked with 무엇: "부여군농업기술센터의 담당자는 무엇인가요?".
_KO_PERSON_LABEL_WHAT = re.compile(
    r"(?:담당자|책임자|관리자|대표자|신청자|연락 ?담당|담당\s?직원|강사|교사|코치|지도자|선생님)"
    r"\s*(?:은|는|이|가)\s*무엇"
)


def _people(value: str) -> bool:
    """Whether a Korean value lists two or more people ("권혁진 팀장 + 박정훈, 김하늘")."""
    bare = re.sub(r"\s*[(（][^()（）]*[)）]", "", value)  # "최유리 실장 (A/S 접수)": the note is her duty
    parts = [p.strip() for p in re.split(r"\s\+\s|,\s*|·", bare) if p.strip()]
    # "영업 최유리 실장": her unit before her name and post
    names = [ko.name_before_post(p) or ko.name_before_post(" ".join(p.split()[-2:])) or p for p in parts]
    return len(names) > 1 and all(ko.is_person_name(n) for n in names)


#: A Korean question asking for a period, a limit or a sum: "기간은", "인상액은", "수강료는".
_KO_FIGURE_ASKED = re.compile(
    r"(?:기간|기한|한도|[가-힣]액|액수|요금|가격|비용|단가|수강료|회비|이용료)\s*(?:은|는|이|가)\s"
)
#: A question asking for a price or a cost (not a rate of one).
_PRICE_ASKED = re.compile(r"\b(?:price|cost|fee|charge)\s+of\b|(?:가격|요금|비용)(?:은|는|이|가)\s", re.I)


def wh_mismatch(question: str, value: str, value_type: str | None, language: str) -> str | None:
    """Why the question word does not fit `value`, or None when it fits (or there is no such word)."""
    if language == "ko" and re.search(r"몇\s?일", question):
        return "'몇 일' (the word is 며칠)"
    if language == "zh" and "多少年" in question and re.fullmatch(r"\d{3,4}\s*年", value.strip()):
        return "'多少年' asks how many years; the answer is a year (哪一年)"
    if language == "ko" and re.search(r"시간\s*(?:은|는|이|가)\s", question):
        if re.search(r"\d\s*회|기간", value):
            return f"a time is asked, the answer is a count or a validity '{value[:30]}'"  # "패키지의 시간은 8회"
        if not re.search(r"\d|[오정]전|오후|새벽|아침|저녁|밤|낮|종일|24시간", value):
            return f"a time is asked, the answer names none '{value[:30]}'"  # "경품 대축제의 시간은 영업시간 내"
    if language == "ko" and re.search(r"[률율]\s*(?:은|는|이|가)\s", question) and not re.search(r"\d", value):
        return f"a rate is asked (…률/…율), the answer is '{value[:40]}'"  # "증감률은 흑자전환": no rate
    if (
        language == "ko"
        and _KO_FIGURE_ASKED.search(question)
        and not re.search(r"\d|무제한|무기한|평생|영구|제한 없|없음|무료|면제", value)
    ):
        # "무상 보증 기간은 보증 제외", "파손 차감액은 실제 수리비", "인상액은 동결": no period, no sum
        return f"a period, limit or sum is asked, the answer is '{value[:40]}'"
    amount = _AMOUNT_LABEL_EN.search(question) if language == "en" else None
    if amount and not re.search(r"\d|\b(?:unlimited|free|none|closed)\b", value, re.I) and not is_placeholder(value):
        # "What is the mobile phone limit?" answered "Not claimable", hours answered "Best effort": a rule, not a
        # figure ("TBD" is a placeholder)
        return f"a figure is asked ({amount.group(1)}), the answer is '{value[:40]}'"
    if value_type == "percent" and _PRICE_ASKED.search(question):
        # "What percentage is the price of …? 11%": a rise, not a price
        return f"a price is asked, the answer is a percentage '{value[:20]}'"
    if _ASKS_EMAIL.search(question) and "@" not in value and not is_placeholder(value):
        return f"an e-mail address is asked, the answer is '{value[:40]}'"  # a directory's "aquinlan" under "E-mail"
    if _ASKS_PHONE.search(question) and not re.search(r"\d{3}", value) and not is_placeholder(value):
        return f"a telephone number is asked, the answer is '{value[:40]}'"
    if language == "ko" and _KO_PERSON_LABEL_WHAT.search(question):
        return "a person's label is asked with 무엇 ('담당자는 무엇인가요')"
    if language == "ko" and re.search(r"무엇인가요\?$", question) and _people(value):
        return f"people are asked with 무엇, the answer is '{value[:40]}'"  # "A팀은 무엇인가요? 권혁진 팀장 + 박정훈"
    kind = asked_kind(question, language)
    if kind is None:
        return None
    if kind == "person" and language == "ko" and ko.post_only(value):
        return f"a person is asked, the answer is a post with no name '{value[:20]}'"  # "사무국장"
    if value_type is None:
        typed = classify_value(value)
        value_type = typed.value_type if typed else "text"
    if kind == "person" and (value_type != "text" or not _person_like(value)):
        return f"a person is asked, the answer is '{value[:40]}'"
    if kind == "date" and value_type != "date" and not _DAY_WORD.search(value):
        return f"a date is asked, the answer is '{value[:40]}'"
    if kind == "number" and not re.search(r"\d", value):
        return f"a number is asked, the answer is '{value[:40]}'"
    if kind == "place" and (value_type in ("date", "money", "percent") or re.search(r"@|https?:", value)):
        return f"a place is asked, the answer is '{value[:40]}'"
    return None
