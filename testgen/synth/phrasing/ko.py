"""Korean questions and answers: particles by final consonant (은/는, 이/가, 을/를, 와/과), question words
in place (언제, 얼마, 몇 명, 누구, 어디), endings turned into questions (설립되었다 → 설립되었나요?)."""

from __future__ import annotations

import re

from schemas import FactNode
from testgen.kg.mining import row_in_label
from testgen.lang import DAYS, PHONE_DIGITS, PHONE_RUN, RULE_PAGE, ValueKind, contact_kind
from testgen.lang.ko import (
    PRICE_LABEL,
    event_clause,
    has_final_consonant,
    how_many,
    is_person_name,
    obj,
    particle,
    subj,
    topic,
    value_kind,
    verbal_form,
)
from testgen.text import plain_sentence

#: The question word of each kind of value, the one place Korean chooses it: the word that stands where the
#: value stood in a sentence, and the ending of "X의 <label>은 …?" ({n}: 몇 + counter, or 며칠).
WH: dict[ValueKind, tuple[str, str]] = {
    "person": ("누구", "누구인가요"),
    "date": ("언제", "언제인가요"),
    "amount": ("얼마", "얼마인가요"),
    "count": ("{n}", "{n}인가요"),
    "place": ("어디", "어디인가요"),
    "duration": ("얼마 동안", "얼마나 되나요"),
    "percent": ("몇 퍼센트", "몇 퍼센트인가요"),
    "quantity": ("얼마", "얼마인가요"),
    "detail": ("무엇", "어떻게 되나요"),
    "other": ("무엇", "무엇인가요"),
}
#: A qualifier naming one day: "2025-06-13", "2025.6.13", "2025년 6월 13일".
_DAY_DATE = re.compile(r"\d{4}\s*(?:[-./]\s*\d{1,2}\s*[-./]\s*\d{1,2}|년\s*\d{1,2}\s*월\s*\d{1,2}\s*일)")
_LABEL_CODE = re.compile(r"@|^[\d\s:./\-~]+$|\b[A-Za-z]{1,5}-\d{2,}\b")
_TYPE_WORDS = {
    "people": "직원",
    "employees": "직원",
    "staff": "직원",
    "team": "직원",
    "members": "직원",
    "products": "상품",
    "product": "상품",
    "services": "서비스",
    "contracts": "계약",
    "contract": "계약",
    "clients": "고객사",
    "customers": "고객사",
    "partners": "파트너사",
    "company": "회사",
    "policies": "규정",
    "policy": "규정",
    "offices": "지점",
    "branches": "지점",
    "faq": "FAQ",
    "projects": "프로젝트",
}
_PERSON_TYPES = {"직원", "사람", "인물", "임직원", "구성원"}
_ENDINGS = [
    (re.compile(r"(었|았|였|했|됐|겠)다\.?$"), r"\1나요?"),
    (re.compile(r"(었|았|였|했|됐)습니다\.?$"), r"\1나요?"),
    (re.compile(r"입니다\.?$"), "인가요?"),
    (re.compile(r"이다\.?$"), "인가요?"),
    (re.compile(r"합니다\.?$"), "하나요?"),
    (re.compile(r"한다\.?$"), "하나요?"),
    (re.compile(r"됩니다\.?$"), "되나요?"),
    (re.compile(r"된다\.?$"), "되나요?"),
    (re.compile(r"있습니다\.?$"), "있나요?"),
    (re.compile(r"있다\.?$"), "있나요?"),
]


_ADNOMINAL = re.compile(
    r"(같|다르|많|적|작|높|낮|좋|있|없|하|되|받|주|오|가|않|새로운|이런|그런|어떤|모든|기존)[은는]$"
)


#: A clause ending before the value: the wh-word would ask about a clause that runs on ("…채굴되고", "…되었다가").
_CLAUSE_BEFORE = re.compile(
    r"(?:되고|하고|했고|있고|없고|였고|었고|았고|되며|하며|으며|면서|다가|지만|는데|어서|아서|해서)\s"
)
#: A date followed by the noun it dates: "1989년 폐광 이후", "2004년 개관 당시".
_DATES_A_NOUN = re.compile(r"^\s?[가-힣]{1,8}\s(?:이후|이전|직후|직전|당시|무렵|전후|때)(?=\s|에|부터|까지|로|[.,]|$)")
#: A sentence that ends with the copula: its predicate is a noun phrase (group 1: a noun that makes it a verb's
#: plan or state, "교체할 예정이다", which a date may modify); "부임하였다" is a verb's past.
_COPULA_END = re.compile(
    r"(?:\s(예정|계획|방침|것|전망|목표|셈|중))?(?:이다|(?<![하되보])였다|이었다|입니다|(?<![하되보])였습니다|이었습니다)[.!]?\s*$"
)
#: 얼마 before a noun ("얼마 오르막인가요"), where Korean asks "얼마나 … 인가요" of a verb or "얼마인가요" alone.
_HOW_MUCH_NOUN = re.compile(r"얼마\s+[가-힣]+(?:인가요|이었나요|였나요|이에요)")
#: A topic that sets off a time or place ("한국전쟁 때에는", "서울에서는"), not the one the sentence is about.
_ADVERBIAL_TOPIC = re.compile(r"^[^\s]+(?:\s[^\s]+)?(?:에는|에서는|때는|로는|으로는)\s")


def _has_topic(text: str) -> bool:
    """Whether a clause has a topic (X은/X는), not counting adnominal forms like 같은, 있는, 하는."""
    for word in text.split():
        # "필터(모델명 AF-40H)는", "R7은": a topic after a bracket or a Latin name too
        if (
            re.search(r"[가-힣A-Za-z0-9)）\]](은|는)$", word)
            and not _ADNOMINAL.search(word)
            and not word.endswith(("다른", "다는"))
        ):
            return True
    return False


def _how_much(result: str) -> str:
    """얼마, or 몇 명 / 몇 개 when the total is a count."""
    counter = re.search(r"\d\s?(명|개|곳|건|대|회|석)$", result)
    return f"몇 {counter.group(1)}" if counter else "얼마"


#: A label naming something one does by calling or writing: 불편 접수, 예약 문의, 분실물 신고, 방문 상담.
_ASKED_AT = re.compile(r"(?:접수|문의|신고|예약|상담|신청)$")
#: One-word labels that say nothing asked of a whole rule: a rule sets many deadlines, periods and targets.
_VAGUE_UNDER_A_RULE = frozenset("기한 기간 일정 기준 방법 대상 내용 절차 장소 시간".split())
#: A label naming the days something is closed: 휴무일, 휴관일, 정기 휴일, 휴진.
_CLOSED_DAY = re.compile(r"(?:휴무|휴관|휴진|휴업|휴일|쉬는\s?날)일?$")


def _after_the_wh(wh: str, post: str) -> str:
    """What follows a figure's place in a sentence, fitted to the question word put there: the particle agreeing
    with it ("몇 명을", "얼마로"), and no note on the figure ("2일(근무일) 이내": the answer gives the note, and
    "며칠(근무일)" reads as a form)."""
    post = re.sub(r"^\s?[(（][^()（）]{1,10}[)）]", "", post)
    particle_match = re.match(r"^\s?(을|를|이|가|은|는|으로|로)(?=\s)", post)
    if not particle_match:
        return post
    kind = {"를": "을", "가": "이", "는": "은", "로": "으로"}.get(particle_match.group(1), particle_match.group(1))
    return particle(wh, kind)[len(wh) :] + post[particle_match.end() :]


def _wh(fact: FactNode, ending: bool = False) -> str:
    """The question word (or, with `ending`, the question's ending) for a fact's value, from `WH`."""
    kind = value_kind(fact)
    if kind == "other" and _CLOSED_DAY.search(fact.attribute.strip()):
        kind = "date"  # "휴무일: 설날·추석 당일" is asked 언제, not 무엇
    if kind == "duration" and fact.unit in ("일", "박일"):
        kind = "count"  # 며칠, not 얼마 동안
    if kind == "duration" and not ending:
        kind = "count"  # in a sentence "3년 동안" keeps its own 동안: 몇 년
    text = WH[kind][1 if ending else 0]
    counter = fact.unit or (m.group(1) if (m := re.match(r"(?:약\s*)?[\d,]+\s*(명|개|곳|건|대)", fact.value)) else "개")
    return text.replace("{n}", how_many(counter))  # "40명 (가람시민 30명, …)": 몇 명


def _past(ending: str) -> str:
    """A question ending in the past: "무엇인가요" → "무엇이었나요", "누구인가요" → "누구였나요"."""
    if ending.endswith("되나요"):
        return ending[: -len("되나요")] + "되었나요"
    if ending.endswith("인가요"):
        stem = ending[: -len("인가요")]
        return stem + ("이었나요" if has_final_consonant(stem) else "였나요")
    return ending


def _year(qualifier: str) -> str:
    q = qualifier.strip()
    m = re.match(r"^(\d{4})\s*[-–~]\s*(\d{4}|현재|present)$", q, re.I)
    if m:
        end = "현재" if not m.group(2).isdigit() else f"{m.group(2)}년"
        return f"{m.group(1)}년부터 {end}까지"
    return f"{q}년" if re.fullmatch(r"\d{4}", q) else q


_PLAIN_ENDINGS = {
    "된다": "됩니다",
    "한다": "합니다",
    "간다": "갑니다",
    "온다": "옵니다",
    "준다": "줍니다",
    "진다": "집니다",
}


#: 얼마 before a verb ("얼마 떨어져 있나요"): asked as 얼마나; before a noun ("얼마 이상 계약") it stays.
_HOW_FAR = re.compile(r"얼마(?=\s[가-힣]*(?:져|어|아|해|했|었|았|됐|되|된|났)[가-힣]*(?:[\s?？.]|$))")


#: A label of hours named by its days alone: "월~금 시간", "토 시간", "주말 시간", "토·일 시간".
_DAYS_HOURS = re.compile(
    r"([월화수목금토일](?:요일)?(?:\s?[~·,\-]\s?[월화수목금토일](?:요일)?)*|평일|주말|공휴일)\s?(?:영업\s?)?시간"
)


def _asked_label(attribute: str, subject: str) -> tuple[str, str]:
    """A label and subject as a question asks them: "전화" and "휴대전화" are asked for a telephone number
    ("헬스장의 전화는 무엇인가요" is not), an "이메일" row under a "번호" column for an address, and a label that
    repeats the subject's last word is said once ("새하얀생활 본사" + "본사": "새하얀생활의 본사는 …", not "… 본사의
    본사는 …"), and hours headed by days alone are the opening hours of those days ("월~금 시간": "월~금 운영 시간")."""
    attr = re.sub(r"(^|\s)전화$", r"\1전화번호", attribute.strip())
    attr = re.sub(r"(이메일|메일)\s*번호$", r"\1 주소", attr)
    # a column "휴대전화" holds the number ("윤서진의 휴대전화 번호"); a contact sheet's "외부 연락처" section gives
    # the supplier's contact, asked as its contact
    attr = re.sub(r"(^|\s)(휴대전화|휴대폰|핸드폰)$", r"\1\2 번호", attr)
    attr = re.sub(r"^외부\s*연락처$", "연락처", attr)
    # a column of hours headed by its days: "월~금 시간" → "월~금 운영 시간", a lone "월" → "월요일 운영 시간"
    days = _DAYS_HOURS.fullmatch(attr)
    if days:
        when = days.group(1) + ("요일" if len(days.group(1)) == 1 else "")
        attr = f"{when} 운영 시간"
    head, _, last = subject.rpartition(" ")
    return attr, (head if head and last == attr else subject)


def polite(sentence: str) -> str:
    """A sentence of written plain style ("…420,000,000원이다.") in the polite style answers use ("…입니다.")."""
    text = sentence.rstrip()
    if not text.endswith("다."):
        return sentence
    head = text[:-2]
    if head.endswith("이"):
        return head[:-1] + "입니다."
    if head[-1:] in ("았", "었", "였", "했", "겠", "있", "없"):
        return head + "습니다."
    for plain, formal in _PLAIN_ENDINGS.items():
        if text.endswith(plain + "."):
            return text[: -len(plain) - 1] + formal + "."
    return sentence


class Korean:
    """Rules for Korean."""

    code = "ko"

    def __init__(self, vocabulary: frozenset[str] = frozenset()) -> None:
        self.vocabulary = vocabulary

    def subject(self, name: str) -> str:
        return re.split(r"\s[:\-–|]\s|:\s", name.strip())[0].strip()

    def type_word(self, doc_type: str) -> str:
        doc_type = doc_type.split("/")[-1] if re.search(r"[가-힣]", doc_type.split("/")[-1]) else doc_type.split("/")[0]
        if re.search(r"[가-힣]", doc_type):
            return doc_type
        return _TYPE_WORDS.get(doc_type.lower(), f"'{doc_type}' 항목")

    def _question(self, head: str, fact: FactNode) -> str:
        number = PHONE_RUN.search(fact.value)
        reached = contact_kind(fact.value) or (number and len(re.sub(r"\D", "", number.group())) >= PHONE_DIGITS)
        if reached and _ASKED_AT.search(fact.attribute.strip()):
            return f"{head} 어디로 하나요?"  # "…의 고객 불편 접수는 어디로 하나요?", not "…는 무엇인가요?"
        return f"{head} {_wh(fact, ending=True)}?"

    def _qualified(self, fact: FactNode, subject: str, attr: str, qualifier: str) -> tuple[str, str, str] | None:
        """A fact of a period or a year: "2025년 김태린의 계약 기간", "2001년부터 2007년까지 박하늘의 역할"."""
        if _DAY_DATE.match(qualifier.strip()):
            # a schedule's row of one day ("| 2025-06-13 | 청년밥상 |" of "6월 설치일정표"): glued to the page
            # ("2025-06-13 6월 설치의 현장명") it names nothing a user asks about
            return None
        when = _year(qualifier)
        start, tilde, end = when.partition("~")
        if tilde and start.strip() and end.strip():
            # a period from a table row ("2001년~2007년"): "2001년부터 2007년까지 박하늘의 역할은 무엇이었나요?";
            # a period that is over is asked in the past
            period = f"{start.strip()}부터 {end.strip()}까지"
            head = f"{period} {subject}의 {topic(attr)}"
            ending, copula_ = _wh(fact, ending=True), "입니다"
            if end.strip() not in ("현재", "지금"):
                ending = _past(ending)
                copula_ = "이었습니다" if has_final_consonant(fact.value) else "였습니다"
            return f"{head} {ending}?", f"{head} {fact.value}{copula_}.", "ko.qualified"
        head = f"{when} {subject}의 {topic(attr)}"
        return self._question(head, fact), f"{when} {subject}의 {topic(attr)} {fact.value}입니다.", "ko.qualified"

    def _verbal(self, fact: FactNode, subject: str) -> tuple[str, str, str] | None:
        """ "하늘여행은 언제 설립되었나요?": a common attribute asked with its verb."""
        # a person by a name of two or three syllables, with a post after it ("정도윤", "김도현 대표원장"): "하늘여행"
        # only looks like one
        person = is_person_name(subject) and re.fullmatch(r"[가-힣]{2,3}(?:\s[가-힣]+)?", subject.strip()) is not None
        form = verbal_form(fact.attribute, value_kind(fact), person)
        if form is None:
            return None
        value = fact.value
        answer = form.answer
        if form.labels & {"직원수"} and not re.search(r"[가-힣]$", value):
            answer = answer.replace("{v}", "{v}명")
        fields = {"T": topic(subject), "O": obj(subject), "s": subject, "v": value}
        question = form.question.format(**fields)
        return question, answer.format(**fields), "ko.verbal"

    def fact(self, fact: FactNode, subject: str) -> tuple[str, str, str] | None:
        if fact.source == "sentence":
            return self._from_sentence(fact, subject)
        if fact.source == "timeline" and fact.value_type == "date":
            when = _year(fact.value)
            done = _own_event(fact.attribute, subject)
            if done is not None:  # "출장비 규정" + "규정 제정": "출장비 규정은 언제 제정되었나요?"
                return (
                    f"{topic(subject)} 언제 {done}되었나요?",
                    f"{topic(subject)} {when}에 {done}되었습니다.",
                    "ko.event.own",
                )
            # "지역상생캠퍼스(구 하곡광업소 부지) 개관": the note in brackets is the page's, not the question's
            clause = event_clause(re.sub(r"\s*[(（][^()（）]*[)）]", "", fact.attribute))
            if clause is None:
                return None
            if clause.endswith("것"):
                return (
                    f"{subj(subject)} {topic(clause)} 언제인가요?",
                    f"{subj(subject)} {topic(clause)} {when}입니다.",
                    "ko.event.clause",
                )
            return (
                f"{subject}의 {topic(clause)} 언제인가요?",
                f"{subject}의 {topic(clause)} {when}입니다.",
                "ko.event",
            )
        attr, subject = _asked_label(fact.attribute, subject)
        if _LABEL_CODE.search(attr) or len(attr.split()) > 8:
            return None  # a value pasted where the label should be: no question
        if fact.qualifier:
            return self._qualified(fact, subject, attr, fact.qualifier)
        verbal = self._verbal(fact, subject)
        if verbal is not None:
            return verbal
        row = row_in_label(fact)
        if row is not None and row.endswith("시간") and attr.endswith("시간"):
            # "| 점심시간 | 13:00 ~ 14:00 |" under 진료시간: "…의 점심시간은 몇 시부터 몇 시까지인가요?", not
            # "…점심시간의 진료시간은"
            head = f"{subject}의 {topic(row)}"
            return f"{head} 몇 시부터 몇 시까지인가요?", f"{head} {fact.value}입니다.", "ko.hours.row"
        if row is not None and DAYS.match(row):
            # a day's row ("토요일 운영 시간") is the subject's: "서림구민체육센터의 토요일 운영 시간"
            head = f"{subject}의 {topic(attr)}"
            return self._question(head, fact), f"{head} {fact.value}입니다.", f"ko.{fact.value_type}"
        if row is not None:
            # a table row folded into the label owns the column: "하늘여행 경영진의 주요 업무"; a one-word column
            # makes a compound with the row, as Korean writes it: "수지바른숲치과의원의 영상 진단 장비", not
            # "수지바른숲치과의원 영상 진단의 장비"
            column = attr[len(row) :].strip()
            if len(column.split()) > _ROW_COLUMN_WORDS:
                return None  # "서령선 하곡의 원평역 기점 거리": a column header of its own words pasted after the row
            compound = len(column.split()) == 1
            head = f"{subject}의 {row} {topic(column)}" if compound else f"{subject} {row}의 {topic(column)}"
            if subject.split() and RULE_PAGE.search(subject.split()[-1]):
                # a rule's row: "참가비 및 환불 규정에 따른 보증금 납부 금액", not "… 규정 보증금의 납부 금액"
                head = f"{subject}에 따른 {row} {topic(column)}"
            return self._question(head, fact), f"{head} {fact.value}입니다.", f"ko.{fact.value_type}"
        # a rule a policy or notice sets is "according to" it: "보증 및 A/S 정책에 따른 출장 수리비", not "…정책의 …"
        # the rule's own number, department or account are the rule's: "…규정의 주관 부서", not "…에 따른 …"
        ruled = _RULE_OWN.search(attr.strip()) is None
        of = "에 따른" if ruled and subject.split() and RULE_PAGE.search(subject.split()[-1]) else "의"
        if of == "에 따른" and attr.strip() in _VAGUE_UNDER_A_RULE:
            return None  # "참가비 및 환불 규정에 따른 기한": the deadline of what? A rule sets many
        head = f"{subject}{of} {topic(attr)}"
        return self._question(head, fact), f"{head} {fact.value}입니다.", f"ko.{fact.value_type}"

    def _from_sentence(self, fact: FactNode, subject: str) -> tuple[str, str, str] | None:
        sentence = plain_sentence(fact.evidence)
        pos = sentence.find(fact.value)
        if pos < 0 or not re.search(r"[가-힣]", sentence):
            return None
        pre, post = sentence[:pos], sentence[pos + len(fact.value) :]
        if "," in post or re.search(r"(고|며|지만|는데)\s", post):
            return None  # a compound sentence: the question would carry a second, unasked clause
        if "," in pre or _CLAUSE_BEFORE.search(pre):
            return None  # the wh-word would land in a dependent clause ("…채굴되고 언제 서령선이 개통하면서 …")
        if fact.value_type == "number" and re.match(r"\s?[(（][월화수목금토일][)）]", post):
            return None  # "10일(금)에 자동이체": a day of the month, not a count of days
        if fact.unit == "분" and re.search(r"\d\s?시\s?$", pre):
            return None  # "12시 50분 전후": the minutes of a clock time, not a duration
        if fact.value_type == "date" and _DATES_A_NOUN.match(post):
            return None  # "1989년 폐광 이후 손님이 급감해": the year dates the closing, not what the sentence tells
        copula = _COPULA_END.search(sentence)
        if copula and " " in post.strip() and not copula.group(1):
            return None  # "최고의 순간은 2022년 FA컵 16강 진출이다": the date is inside the predicate noun
        wh = _wh(fact)
        if fact.value_type == "date":
            # "2025년 3월 4일(화)에", "2025년 5월 중": the weekday and "during" belong to the date "언제" asks for
            post = re.sub(r"^\s?[(（][월화수목금토일][)）]", "", post)
            post = re.sub(r"^\s?(?:중|경|께|쯤|무렵)(?=\s|에)", "", post)
            post = re.sub(r"^\s?(에는|에|부터)", "", post)
        else:
            post = _after_the_wh(wh, post)
        question = f"{pre}{wh}{post}".strip()
        # "약 얼마 떨어져 있나요" → "얼마나 떨어져 있나요": before a verb the question asks how far, and "about" goes
        question = re.sub(r"(?:^|(?<=\s))(?:약|대략)\s+(?=얼마|몇)", "", question)
        question = _HOW_FAR.sub("얼마나", question)
        for pattern, repl in _ENDINGS:
            if pattern.search(question):
                question = pattern.sub(repl, question)
                break
        else:
            return None
        if re.search(r"(^|\s)(이|그|저)\s", sentence):
            return None  # "이 기한을 넘기면 …" points at something outside the sentence
        if _HOW_MUCH_NOUN.search(question):
            return None  # "약 800m 오르막이다" asked "얼마 오르막인가요": 얼마 before a noun
        has_topic = _has_topic(question)
        if pos == 0 and has_topic:
            return None  # "2024년 이용객 수는 …": the date was the only link to the page's subject
        if pos == 0 and fact.value_type == "date" and re.match(r"^\s[^\s,]+(?:\s[^\s,]+)?도\s", post):
            return None  # "2025년 사업 참여자도 …": the year tells which participants, not when anything happened
        answer = polite(sentence)
        if subject not in question and subject.split() and RULE_PAGE.search(subject.split()[-1]):
            # a rule's sentence: "…이용 수칙에 따르면 운영 시간 중 안전요원 몇 명 이상이 …", and with a topic of its own
            # "승무원 복무규정에 따르면 승무원은 …", not "승무원 복무규정의 승무원은 …"
            question = f"{subject}에 따르면 {question}"
        elif not has_topic and subject not in question:
            question = f"{topic(subject)} {question}"
        elif has_topic and subject not in question and _ADVERBIAL_TOPIC.match(question):
            return None  # "한국전쟁 때에는 …": a time or place set off as the topic, the sentence's subject untold
        elif (
            has_topic
            and subject not in question
            and (lead := re.match(r"^([^\s]+(?:\s[^\s]+)?)(은|는)\s", question))
            # "김도윤 팀장은 …" names its own person: no "<page>의" before it (a name and a title; one word of three
            # syllables may be a noun, "배당금은 …")
            and not (" " in lead.group(1) and is_person_name(lead.group(1)))
        ):
            question = f"{subject}의 {question}"  # "갱신 협상은 …" → "<계약>의 갱신 협상은 …"
            answer = f"{subject}의 {answer}"
        return question, answer, "ko.sentence"

    def compare(
        self, subjects: list[str], attribute: str, values: list[str], winner: int, higher: bool, kind: str
    ) -> tuple[str, str, str] | None:
        if kind == "date":
            adj_q, adj_a = ("더 늦은", "더 늦습니다") if higher else ("더 이른", "더 이릅니다")
        elif kind == "count":
            adj_q, adj_a = ("더 많은", "더 많습니다") if higher else ("더 적은", "더 적습니다")
        elif kind == "duration":
            adj_q, adj_a = ("더 긴", "더 깁니다") if higher else ("더 짧은", "더 짧습니다")
        elif PRICE_LABEL.search(attribute.strip()):
            adj_q, adj_a = ("더 비싼", "더 비쌉니다") if higher else ("더 저렴한", "더 저렴합니다")  # a price
        elif _MEASURE_ADJECTIVES.get(attribute.strip().split()[-1] if attribute.split() else ""):
            # a length is longer, an area wider: "길이가 더 긴", not "길이가 더 높은"
            more, less = _MEASURE_ADJECTIVES[attribute.strip().split()[-1]]
            adj_q, adj_a = more if higher else less
        else:
            adj_q, adj_a = ("더 높은", "더 높습니다") if higher else ("더 낮은", "더 낮습니다")
        names = ", ".join(subjects[:-1])
        names = particle(names, "과") + " " + subjects[-1] if len(subjects) == 2 else f"{names}, {subjects[-1]}"
        if len(subjects) > 2:  # of three: "가장", and "어느 것", not "더 … 어느 쪽"
            adj_q, adj_a = adj_q.replace("더 ", "가장 "), adj_a.replace("더 ", "가장 ")
            question = f"{names} 중 {subj(attribute)} {adj_q} 것은 어느 것인가요?"
        else:
            question = f"{names} 중 {subj(attribute)} {adj_q} 것은 어느 쪽인가요?"
        details = ", ".join(f"{s} {v}" for s, v in zip(subjects, values, strict=True))
        answer = f"{subjects[winner]}의 {subj(attribute)} {adj_a} ({details})."
        return question, answer, "ko.compare"

    def arithmetic(
        self, op: str, subjects: list[str], attribute: str, values: list[str], result: str, qualifiers: list[str | None]
    ) -> tuple[str, str, str] | None:
        if len(set(subjects)) == 1 and all(qualifiers):
            s = subjects[0]
            q0, q1 = _year(qualifiers[0] or ""), _year(qualifiers[1] or "")
            if op == "difference":
                return (
                    f"{s}의 {topic(attribute)} {q0}에서 {q1} 사이에 얼마나 변했나요?",
                    f"{s}의 {topic(attribute)} {q0} {values[0]}에서 {q1} {particle(values[1], '으로')} "
                    f"{result.lstrip('-')} {'줄었습니다' if result.startswith('-') else '늘었습니다'}.",
                    "ko.arith.change",
                )
            if op == "sum":
                return (
                    f"{q0}과 {q1}의 {s} {obj(attribute)} 합하면 얼마인가요?",
                    f"{q0} {values[0]}, {q1} {particle(values[1], '으로')} 합계는 {result}입니다.",
                    "ko.arith.sum_period",
                )
            return None
        a, b = subjects
        if op == "sum":
            return (
                f"{particle(a, '과')} {b}의 {obj(attribute)} 합하면 {_how_much(result)}인가요?",
                f"{a}의 {topic(attribute)} {values[0]}, {b}의 {topic(attribute)} {particle(values[1], '으로')} "
                f"합계는 {result}입니다.",
                "ko.arith.sum",
            )
        if op == "difference":
            asked, told = _more_of(attribute)
            return (
                f"{a}의 {topic(attribute)} {b}보다 얼마나 {asked}?",
                f"{a}의 {topic(attribute)} {values[0]}, {b}의 {topic(attribute)} {particle(values[1], '으로')} "
                f"{result} {told}.",
                "ko.arith.difference",
            )
        if op == "ratio":
            return (
                f"{a}의 {topic(attribute)} {b}의 몇 배인가요?",
                f"{a}의 {topic(attribute)} {values[0]}, {b}의 {topic(attribute)} {particle(values[1], '으로')} "
                f"{result}배입니다.",
                "ko.arith.ratio",
            )
        return None

    def two_hop(self, first: FactNode, second: FactNode, subject: str) -> tuple[str, str, str] | None:
        # one 의, not a chain: "…규정 담당자의 근무지는", not "…규정의 담당자의 근무지는"
        head = f"{subject} {first.attribute}의 {topic(second.attribute)}"
        question = self._question(head, second)
        answer = (
            f"{subject}의 {topic(first.attribute)} {first.value}이며, {first.value}의 "
            f"{topic(second.attribute)} {second.value}입니다."
        )
        return question, answer, "ko.two_hop"

    def two_hop_mention(self, subject: str, type_word: str, name: str, second: FactNode) -> tuple[str, str, str] | None:
        head = f"{particle(subject, '과')} 관련된 {type_word}의 {topic(second.attribute)}"
        answer = (
            f"{particle(subject, '과')} 관련된 {topic(type_word)} {name}이며, "
            f"{name}의 {topic(second.attribute)} {second.value}입니다."
        )
        return self._question(head, second), answer, "ko.two_hop.mention"

    def relation(self, fact: FactNode, subject: str, inverse: bool, type_word: str = "") -> tuple[str, str, str] | None:
        if not inverse:
            return self.fact(fact, subject)
        if not re.search(r"(?:자|장|담당|책임|대표|매니저|이사)$", fact.attribute.strip()):
            return None  # "X가 관련 상품을 맡고 있는": only a person holds a role; the category asks it forwards
        if re.search(r"\S\s+\S*(?:책임자|관리자)$", fact.attribute.strip()):
            return None  # "개인정보 관리책임자를 맡고 있는 쇼핑몰은?": a post on a form, not a thing one looks up by
        kind = type_word or "대상"
        wh = "어디인가요" if re.search(r"(지점|사무소|본사|센터|지사|매장|공장)$", kind) else "무엇인가요"
        question = f"{subj(fact.value)} {obj(fact.attribute)} 맡고 있는 {topic(kind)} {wh}?"
        answer = f"{subj(fact.value)} {obj(fact.attribute)} 맡고 있는 {topic(kind)} {subject}입니다."
        return question, answer, "ko.relation.inverse"

    def mention(self, subject: str, type_word: str, name: str, sentence: str) -> tuple[str, str, str] | None:
        return (
            f"{particle(subject, '과')} 관련된 {topic(type_word)} 무엇인가요?",
            f"{particle(subject, '과')} 관련된 {topic(type_word)} {name}입니다.",
            "ko.relation.mention",
        )

    def count(self, type_word: str, attribute: str, value: str, names: list[str]) -> tuple[str, str, str] | None:
        counter = "명" if type_word in _PERSON_TYPES else "개"
        question = f"{subj(attribute)} {value}인 {topic(type_word)} 몇 {counter}인가요?"
        answer = (
            f"모두 {len(names)}{counter}으로, {', '.join(names)}입니다."
            if counter == "명"
            else f"모두 {len(names)}{counter}로, {', '.join(names)}입니다."
        )
        return question, answer, "ko.count"

    def extreme(
        self, type_word: str, attribute: str, winner: str, value: str, highest: bool, n: int
    ) -> tuple[str, str, str] | None:
        counted = re.search(r"\d\s?(명|개|곳|건|대|회|석)$", value) is not None
        word = ("가장 많은" if highest else "가장 적은") if counted else ("가장 높은" if highest else "가장 낮은")
        person = type_word in _PERSON_TYPES
        wh = "누구인가요" if person else "무엇인가요"
        among = f"{n}명의 {type_word}" if person else f"{n}개 {type_word}"
        return (
            f"{subj(attribute)} {word} {topic(type_word)} {wh}?",
            f"{among} 중 {winner}의 {subj(attribute)} {particle(value, '으로')} 가장 {word.split()[1][:-1]}습니다.",
            "ko.extreme",
        )


#: Actions a rule, a product or an office undergoes, said with 되다 ("제정되었나요").
_DONE_TO = frozenset("제정 개정 시행 도입 폐지 신설 출시 설립 개설 체결 개편 통합 재개정 전면개정".split())


def _own_event(event: str, subject: str) -> str | None:
    """The action of a timeline line that names the subject's own kind and one action ("규정 제정" on the page of
    "출장비 규정"), to be asked of the subject with its verb; else None."""
    words = event.strip().rstrip(".").split()
    kind = subject.split()[-1] if subject.split() else ""
    if len(words) == 2 and kind == words[0] and words[1] in _DONE_TO:  # not "하늘여행" for "여행 출시"
        return words[1]
    return None


#: Words of a column header that still read as the row's property ("주요 업무"); a longer header is pasted.
_ROW_COLUMN_WORDS = 2

#: Measures with their own adjectives: (more, less), each as the question's and the answer's words.
_MEASURE_ADJECTIVES = {
    "길이": (("더 긴", "더 깁니다"), ("더 짧은", "더 짧습니다")),
    "거리": (("더 먼", "더 멉니다"), ("더 가까운", "더 가깝습니다")),
    "연장": (("더 긴", "더 깁니다"), ("더 짧은", "더 짧습니다")),
    "면적": (("더 넓은", "더 넓습니다"), ("더 좁은", "더 좁습니다")),
    "넓이": (("더 넓은", "더 넓습니다"), ("더 좁은", "더 좁습니다")),
    "무게": (("더 무거운", "더 무겁습니다"), ("더 가벼운", "더 가볍습니다")),
    "중량": (("더 무거운", "더 무겁습니다"), ("더 가벼운", "더 가볍습니다")),
}

#: How one value exceeds another, by the label's head: a period is longer, a price dearer, a rate higher.
_MORE_BY_HEAD = (
    (re.compile(r"(?:기간|시간|기한|거리|길이)$"), ("더 긴가요", "더 깁니다")),
    (PRICE_LABEL, ("더 비싼가요", "더 비쌉니다")),
    (re.compile(r"(?:점수|비율|률|율|온도|높이|목표|수준|등급)$"), ("더 높은가요", "더 높습니다")),
    (re.compile(r"(?:면적|넓이)$"), ("더 넓은가요", "더 넓습니다")),
    (re.compile(r"(?:무게|중량)$"), ("더 무거운가요", "더 무겁습니다")),
)


def _more_of(attribute: str) -> tuple[str, str]:
    """The question's and the answer's words for "more" under `attribute` ("계약 기간" → 더 긴가요 / 더 깁니다)."""
    label = re.sub(r"\s*[(（][^()（）]*[)）]$", "", attribute.strip())  # "월 가용성 목표 (%)": its head is 목표
    return next((words for head, words in _MORE_BY_HEAD if head.search(label)), ("더 많은가요", "더 많습니다"))


#: Labels of a rule's own particulars, not of what it sets: its number, department, dates and contacts.
_RULE_OWN = re.compile(r"(?:번호|부서|담당자?|시행일|개정일|제정일|작성자|문의처?|연락처|입금|계좌)$")
