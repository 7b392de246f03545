"""Attribute labels that are not attributes: a cell, a time slot or a note column pasted where a question needs
the name of a property.

* **pasted_label** — the label holds a value of its own (a time ``10:30``, a date or a month alone ``11월`` /
  ``November``, an amount ``($1M-5M)``, an e-mail, a web address, a code ``VL-008``) or is too long to be a
  label (a row's full text); asked as "X's <label>", it names no property a user would ask about.
  A digit anywhere in a label marks a row or variant name pasted in front of the column ("standard 42mm battery
  life", "9 address"); a label cut at a preposition ("valid through") is a clause, not a property.
* **opaque_label** — a column that only says "more text here" (``Notes``, ``비고``, ``Description``,
  ``Details``, ``기타``): the answer is whatever the cell held, and the question does not say what is asked.
"""

from __future__ import annotations

import re

from schemas import FactNode
from testgen.kg.values import find_values
from testgen.lang import DAYS
from testgen.names import NAME_LABEL, without_parentheticals
from testgen.text import is_cjk, normalize

_MONTH = re.compile(
    r"^(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|\d{1,2}\s*월|\d{1,2}\s*月|q[1-4]|[1-4]분기|spring|summer|autumn|"
    r"fall|winter|봄|여름|가을|겨울)\.?$",
    re.I,
)
_TIME = re.compile(r"\d{1,2}[:시]\s?\d{2}|\b\d{1,2}\s?(?:am|pm)\b|오전|오후", re.I)
_CODE = re.compile(r"\b[A-Z]{1,5}-?\d{2,}[A-Z]?\b|\b\d{3,}-\d{2,}")
_CONTACT = re.compile(r"@|https?://|www\.|\.(?:com|org|net|io|kr|jp|cn)\b", re.I)
_MONEY_RANGE = re.compile(r"[$€£¥₩]\s?\d|\d\s?(?:[kmb]|bn|만|억|千|万)\b", re.I)
_OPAQUE = frozenset(
    """note notes remark remarks comment comments description descriptions detail details other others misc
    miscellaneous etc info information additional additional info extra content contents text value values
    비고 기타 설명 내용 참고 참조 상세 세부 세부사항 세부내용 특이사항 메모 추가 추가정보 정보 값 구분
    subject re fwd cc bcc 제목 보낸사람 받는사람 수신 발신 첨부
    备注 其他 说明 内容 详情 其它 備考 その他 説明 内容 詳細 メモ""".split()
)
#: A label led by a weekday's short name, or a run of them: "fri time", "mon pick-up area", "Mon-Fri programme".
_SHORT_DAY = r"(?:mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)\.?"
_FULL_DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
_SHORT_DAY_LED = re.compile(rf"(?:{_FULL_DAY}|{_SHORT_DAY})(?:\s?[-–~/&]\s?{_SHORT_DAY})?\s+[a-z]")
#: A Korean label led by a weekday: "수 근무시간", "토요일 담당" (a rota's row), not "일 최대 인원" (daily) or "월
#: 회비" (monthly).
_KO_DAY_LED = re.compile(
    r"(?:[화수목금토]|[월화수목금토일]요일|[월화수목금토일]\s?[-~,·]\s?[월화수목금토일](?:요일)?)\s+[가-힣]"
)
#: What a day's label may ask of a place: its hours ("Saturday hours", "일요일 운영 시간").
_DAY_HOURS = re.compile(r"(?:(?:운영|영업|진료|이용)\s?)?시간|(?:opening )?hours|opening times", re.I)
#: Labels of a document's own record: its revisions, writer, reviewer (a policy's number is asked by its users; a
#: book's "Author" is a property).
_DOCUMENT_META = re.compile(r"개정\s?(?:이력|내역)|작성자|검토자|승인자")
#: A label naming the value it replaced: "이전 규정", "기존 요금", "Previous price", "Old rate".
_FORMER_LABEL = re.compile(r"(?:이전|기존|종전|변경\s?전|previous|former|old)\s", re.I)
_DANGLING = re.compile(r"\b(?:through|until|till|by|from|to|of|for|with|in|on|at|as|per|than|and|or|since)$")
MAX_LABEL_WORDS = 5
#: A plural noun a threshold cuts, the column of a count: "Sites above action level", "Samples over the limit".
_COUNTED_PLACES = re.compile(r"[a-z]+s\s+(?:above|below|over|under|exceeding|beyond)\b")
_NOUNS_LIKE_ADJECTIVES = frozenset(
    "table cable timetable variable deliverable deliverables receivable payable vegetable stable bible wireless "
    "turntable constable".split()
)
MAX_CJK_LABEL_CHARS = 16


#: Words by which a column speaks for the page's writer: "우리 수영장 관리 목표", "저희 가격", "Our target".
_FIRST_PERSON = re.compile(r"(?:^|\s)(?:우리|저희|당사|our|my|we)(?:\s|$)")


#: A word cut short with a full stop inside a label: "approx. arrival at unit", "min. age", "est. completion".
_ABBREVIATED = re.compile(r"(?<![\w.])([A-Za-z]{2,6})\.\s+[A-Za-z]")
#: Short forms that head a name, not a label's shorthand.
_TITLES = frozenset("st dr mr mrs ms mx prof rev cllr mt ft".split())


def pasted_label(attribute: str) -> str | None:
    """Why `attribute` is a pasted value rather than a property label, or None when it reads as a label."""
    label = attribute.strip()
    norm = normalize(label)
    if not norm:
        return "empty label"
    if _MONTH.match(norm) or DAYS.match(norm):  # a day, or days: testgen.lang.DAYS
        return "a month, day or season as the label"
    led = _SHORT_DAY_LED.match(norm) or _KO_DAY_LED.match(norm)
    # "Sunday service time": a full day, then what is on that day, then its time ("tuesday time" names nothing)
    timed = re.match(rf"{_FULL_DAY}\s+\w+.*\b(?:time|times|hours)$", norm)
    if led and not timed and not _DAY_HOURS.fullmatch(norm[led.end() - 1 :]):
        return "a weekday's column or row as the label ('fri time', 'Thursday rooms', '수 근무시간': a rota's cell)"
    if _DOCUMENT_META.fullmatch(norm):
        return "a document's own record as the label ('개정 이력', '작성자'): nothing a reader asks of its subject"
    if _FORMER_LABEL.match(norm):
        return "a former value's label ('이전 규정', 'Previous price'): the value it replaced"
    if re.match(r"(?:all|every|each|any|both|other)\b", norm) and len(norm.split()) >= 2:
        return "a quantifier as the label ('All models': a column saying where a row applies)"
    if _TIME.search(label):
        return "a time of day in the label"
    if _CONTACT.search(label):
        return "an address in the label"
    if _CODE.search(label):
        return "a code in the label"
    if _MONEY_RANGE.search(label):
        return "an amount in the label"
    if any(v.value_type in ("date", "money") for v in find_values(label)):
        return "a date or amount in the label"
    if re.search(r"\d", label):
        return "a number in the label (a row or variant name, not a property)"
    cut = _ABBREVIATED.search(label)
    if cut and cut.group(1).lower() not in _TITLES:
        return f"an abbreviated word in the label ('{cut.group(1)}.': a column's shorthand)"
    if len(re.findall(r"[^\W\d_]", label)) < 2:
        return "a one-letter label"
    words = label.split()
    if len(words) == 1 and re.fullmatch(r"[A-Z]{1,3}", label) and label not in _MEASURE_ACRONYMS:
        return "a variant code as the label ('ZX', 'LX')"
    code = re.search(r"\(([A-Z]{2,4})\)", label)
    if code and code.group(1) not in _CURRENCY_CODES:
        return "a place or item code in the label ('Sydney (SYD) Aircraft Type': a row, not a property)"
    if _TIER.match(norm) and not _PLAN_NOUN.search(norm):
        return "a plan or tier as the label ('Standard', 'Premium Warranty': a variant column, not a property)"
    if _FIRST_PERSON.search(norm):
        return "a column speaking for the writer ('우리 수영장 관리 목표', 'Our price'): whose, a question cannot say"
    if _PRAISE.match(norm):
        return "a selling word in the label ('Attractive Interest Rates', 'Notable Locations')"
    last = words[-1].lower()
    if re.fullmatch(r"[a-z][a-z\-]*(?:able|ible|ous|ful|less)", last) and last not in _NOUNS_LIKE_ADJECTIVES:
        return "an adjective as the label (a yes/no column, not a property)"
    if _COUNTED_PLACES.match(norm):
        return "a count's column as the label ('Sites above action level': how many, not a property)"
    if _DANGLING.search(norm) and len(norm.split()) >= 3:  # "Reports to", "Owned by" are relation labels
        return "a clause cut at a preposition as the label"
    if is_cjk(label):
        if len(re.sub(r"\s+", "", label)) > MAX_CJK_LABEL_CHARS:
            return "a row's text as the label"
    elif len(label.split()) > MAX_LABEL_WORDS:
        return "a row's text as the label"
    return None


_TIER = re.compile(
    r"(?:standard|basic|premium|plus|pro|gold|silver|platinum|bronze|enterprise|extended|deluxe|economy|starter|"
    r"advanced|ultimate|lite)(?:\s|$)"
)


#: A phone number, e-mail or web address.
CONTACT_VALUE = re.compile(r"@|https?://|www\.|^\+?[\d(][\d\s().\-]{7,}\d$")
#: Labels under which a contact value is the property asked.
_CONTACT_LABEL = re.compile(
    r"phone|tel|fax|e-?mail|contact|web|url|site|hotline|helpline|number|line|call|address|연락|전화|메일|홈페이지|"
    r"주소|번호|电话|邮箱|网站|网址|地址|電話|メール|サイト",
    re.I,
)
#: Headings over requirements on an applicant (age, income), which are not properties of the product.
_ELIGIBILITY = re.compile(r"eligib|신청 자격|가입 자격|자격 요건|가입 조건|신청 조건|申请条件|応募資格", re.I)


def label_for_value(fact: FactNode) -> str | None:
    """Why a label does not name what its value is, or None: a "Duration" holding dates, a desk whose value is its
    phone number, a requirement on who applies listed under "Eligibility"."""
    if normalize(fact.attribute) in ("duration", "length", "기간") and (
        fact.value_type == "date" or any(v.value_type == "date" for v in find_values(fact.value))
    ):
        return f"'{fact.attribute}' holds a period of dates, not a length ('Duration: Mar–Aug 2023')"
    if CONTACT_VALUE.search(fact.value) and not _CONTACT_LABEL.search(fact.attribute):
        return f"'{fact.attribute[:30]}' names a desk, and the value is its contact ('International Student Office')"
    if fact.context and _ELIGIBILITY.search(fact.context):
        return f"'{fact.attribute[:30]}' is a requirement on who applies, not a property ('Eligibility / Age')"
    label = normalize(fact.attribute)
    if fact.source == "table" and _VARIANTS_COLUMN.fullmatch(label):
        return f"'{fact.attribute[:30]}' lists the variants that have the row's feature, not a property of it"
    if re.search(r"(?:^|\s)range$", label) and not _MEASURED_RANGE.search(label) and _SPAN.search(fact.value):
        return f"'{fact.attribute[:30]}' names the shape of the value (from … to …), not what it measures"
    subject, name = normalize(fact.subject), normalize(without_parentheticals(fact.value))
    # (a name that is the subject's whole, "한결 테일러 (Hangyeol Tailor)", is the answer leaked in the question)
    if NAME_LABEL.fullmatch(label) and subject in name and name != subject:
        # "서하동 주민센터 / 명칭: 서하동 주민센터 자치회관": a name that repeats the question's subject asks nothing
        return f"'{fact.attribute[:30]}' gives a name the subject already holds"
    return None


#: A column saying which models have the row's feature ("| USB-C & Display | … | Pad Pro models |").
_VARIANTS_COLUMN = re.compile(
    r"(?:supported |compatible |available |applicable )?(?:models?|variants|versions|editions|devices|availability)"
    r"(?: supported| available)?"
)
#: A range that is itself a measure ("driving range", "range (km)") rather than "from … to …" of a price.
_MEASURED_RANGE = re.compile(r"driving|battery|wifi|wi-fi|bluetooth|signal|flight|cruising|electric|ev\b|km|mile")
_SPAN = re.compile(r"\d[\d,.]*\s*[%a-z]*\s*(?:[–~\-—]|to)\s*[$€£¥₩₹]?\s*\d", re.I)


def tier_word(text: str) -> bool:
    """Whether `text` is only the name of a plan or tier ("Platinum", "Premium"): a row, not a thing's name."""
    return _TIER.fullmatch(normalize(text) + " ") is not None


_CURRENCY_CODES = frozenset("USD EUR GBP JPY KRW CNY RMB INR AUD CAD CHF HKD SGD TWD NZD SEK NOK DKK BRL MXN".split())

#: A tier's own name is a property of its product: "Rellm's basic plan", "Carllm's enterprise tier".
_PLAN_NOUN = re.compile(r"\b(?:tier|plan|package|edition|subscription|membership)s?$")
#: Words a page uses to sell or highlight, which a person asking would not repeat.
_PRAISE = re.compile(r"(?:attractive|competitive|notable|flexible|hassle-free|exclusive|special|amazing|great|best)\s")

_TIME_WORDS_EN = re.compile(
    r"\b(?:date|day|year|month|week|time|when|found|establish|since|start|begin|end|expir|effective|deadline|due|"
    r"period|term|birth|born|join|hire|launch|releas|open|clos|sign|renew|valid|until|through|schedul|updated|"
    r"created|published|session|semester|quarter|calendar|anniversar|graduat|dated|from|season|era|introduced|"
    r"acquired|completed|completion|delivered|delivery|reviewed|audited|inspected|retire|promot|incorporat|"
    r"registered|registration|accredit|certified|awarded)",
    re.I,
)
_TIME_WORDS_KO = re.compile(
    r"일|날짜|기간|시작|종료|설립|입사|마감|연도|년|월|시기|시점|개설|출시|시행|만료|갱신|때|언제|학기|분기"
)


_COUNT_NOUNS = re.compile(
    r"\b(?:employees|staff|students|units|members|people|customers|users|branches|stores|seats|visitors|"
    r"passengers|headcount|population)\b|(?:^|\s)(?:명|개|대|석)(?:\s|$)|인원|직원|인구|\s수$",
    re.I,
)


def count_label(attribute: str) -> bool:
    """Whether a label counts things ("Annual Employees", "직원 수"): a year-like number under it ("2000") is a
    count, not a date."""
    return _COUNT_NOUNS.search(attribute) is not None


def untimely_label(attribute: str) -> bool:
    """Whether a label holding a date names nothing about time ("Parties Involved: … May 10, 2025"): the date
    was picked out of a clause about something else. English and Korean labels are read; others pass."""
    if re.search(r"[가-힣]", attribute):
        return _TIME_WORDS_KO.search(attribute) is None
    if re.search(r"[A-Za-z]", attribute) and not is_cjk(attribute):
        return _TIME_WORDS_EN.search(attribute) is None
    return False


def opaque_label(attribute: str) -> bool:
    """Whether the label only says that more text follows (``Notes``, ``비고``), naming no property."""
    words = re.findall(r"\w+", normalize(attribute))
    return bool(words) and all(w in _OPAQUE for w in words)


#: Acronyms that name a measure, not a variant: "ABV", "APR", "GPA".
_MEASURE_ACRONYMS = frozenset("ABV APR APY AER GPA BMI RPM VAT ROI MPG IBU EBC OG FG TDP DPI PPI".split())


# -- labels asked as nouns: "What is X's <label>?" ------------------------------------------------------------
# The head nouns that name a property of something (its name, price, size, date, owner ...). A label whose head is
# something else names a part, a variant or a table cell ("battery", "diesel", "long press", "business class",
# "성인 성수기"), and "What is X's battery?" asks nothing a user would ask. English and Korean; general vocabulary.
PROPERTY_HEADS_EN = frozenset(
    """name title role position job status type kind category grade level tier rank rating score
    address email e-mail phone telephone fax number id code identifier url website site location headquarters
    country city region state province origin nationality language currency education degree major field
    specialty specialization expertise focus department team division office room branch unit
    manager owner founder director head lead leader ceo cto cfo coo president chair chairman chairperson supervisor
    contact representative author publisher manufacturer maker brand model version edition platform format
    standard license licence method procedure process requirement eligibility criterion criteria condition
    term period duration length time date deadline schedule window hours days frequency
    price cost fee charge rate amount total sum budget revenue income turnover sales profit salary wage pay
    compensation bonus allowance limit cap threshold balance deposit premium discount value abv apr gpa
    style genre cuisine flavour flavor
    valuation capacity size weight height width depth area volume power output speed range distance mileage
    efficiency consumption temperature voltage population headcount count quantity share percentage ratio
    proportion growth margin return yield age lifespan warranty coverage guarantee material colour color
    dimensions resolution storage memory processor employer affiliation institution university school
    product customer client partner vendor supplier counterparty sponsor account
    clinician specialist consultant physician doctor surgeon nurse therapist instructor teacher tutor coach
    trainer""".split()
)
#: A place named with 장 ("물놀이장", "샤워장"): a facility, not the head of something (원장, 학장) nor a property.
_KO_FACILITY = re.compile(
    r"(?:주차|샤워|물놀이|운동|캠핑|야영|취사|수영|경기|공연|전시|행사|세면|놀이|썰매|낚시|골프|스키|목욕|광|매|농|목|"
    r"세차|충전|체험|촬영|예식|장례|사격|승마|족구|풋살|테니스|배드민턴|탁구|볼링|당구|개수|분리수거|재활용)장$"
)
_PROPERTY_HEADS_KO = (
    "이름 명칭 상호 주소 위치 소재지 본사 번호 연락처 전화 이메일 코드 아이디 직책 직위 "
    "직급 직함 역할 담당 업무 부서 팀 소속 학력 전공 분야 언어 국적 출신 유형 종류 구분 "
    "분류 등급 단계 방식 방법 조건 기준 자격 요건 정책 규정 절차 기간 기한 일정 "
    "일자 날짜 시간 시각 연도 주기 횟수 가격 요금 금액 비용 수수료 료 비 금 액 단가 "
    "한도 예산 매출 수익 이익 연봉 급여 수당 할인 율 률 비율 비중 점수 평점 만족도 규모 "
    "인원 수 정원 용량 크기 무게 중량 길이 높이 너비 면적 거리 속도 출력 온도 수명 모델 "
    "버전 제조사 브랜드 대표 대표자 설립자 책임자 담당자 관리자 장 고객 상품 제품 계약 "
    "파트너 목표 일 력 소음 색상 재질 소재 명 이사 직원 사업 업종 장학 "
).split()
# A label pasted with its table punctuation: "Poisons/Toxics", "(South Asia)", "overall %", "bengaluru – koramangala",
# "Length x Width x Height", two labels in one ("한자·영문명": asked as one, it asks two things).
_LABEL_PUNCTUATION = re.compile(r"[/()（）%&+·ㆍ↔→⇄]|,\s|\s[–—-]\s|[a-z]\s[x×]\s[a-z]", re.I)


def pasted_punctuation(attribute: str) -> str | None:
    """Why a label reads as pasted with its table's punctuation ("deadline (Fall)", "Poisons/Toxics"), or None."""
    if _LABEL_PUNCTUATION.search(attribute):
        return f"'{attribute.strip()[:30]}' is pasted with the table's punctuation"
    return None


#: One-word English labels too vague to ask for on their own: "What are X's areas?", "What are X's details?".
_VAGUE_EN = frozenset("areas details items notes other extras misc miscellaneous specifics remarks comments".split())
#: A day alone as a label ("일요일", "평 일 (월~금)", "공휴일"): a timetable's row, not a property.
_KO_DAY = re.compile(r"(?:[월화수목금토일]요일|평일|주말|공휴일|휴일|주중)(?:\s*[(（][^)）]*[)）])?")
#: Korean labels that alone say only what kind of answer follows ("방법: 카드 결제 / 계좌이체": the method of what?).
_VAGUE_KO = frozenset("방법 방식 내용 조건 기준 대상 절차 비고 기타 참고 구분 항목 종류 유형 내역 사항".split())


def unnamed_property(attribute: str, language: str) -> str | None:
    """Why `attribute`, asked as a noun ("What is X's <attribute>?", "X의 <attribute>은 얼마인가요?"), names no
    property; None when it does, or for a language without a list of property nouns."""
    label = attribute.strip()
    if language in ("en", "ko"):
        problem = pasted_punctuation(label)
        if problem:
            return problem
    if language == "en":
        words = re.findall(r"[a-z][a-z\-']*", label.lower())
        cut = next((i for i, w in enumerate(words) if i and w in ("of", "on", "for")), None)
        if cut is not None:
            words = words[:cut]  # "loss of license", "discount on treatment": the head is "loss", "discount"
        if not words:
            return None
        head = words[-1]
        if len(words) == 1 and head in _VAGUE_EN:
            return f"'{label[:30]}' says too little to ask for (areas of what?)"
        singular = {head, head[:-1] if head.endswith("s") else head, head[:-2] if head.endswith("es") else head}
        if singular & PROPERTY_HEADS_EN:
            return None
        return f"'{label[:30]}' names a part, variant or cell, not a property (head '{head}')"
    if language == "ko":
        last = label.split()[-1] if label.split() else ""
        if label in _VAGUE_KO:
            return f"'{label}' says too little to ask for (the {label} of what?)"
        if _KO_DAY.fullmatch(re.sub(r"(?<=[가-힣])\s+(?=[가-힣](?:\s|$|\())", "", label)):
            return f"'{label[:20]}' says when, not what (the hours of what on that day?)"
        if _KO_FACILITY.search(last):
            return f"'{label[:30]}' names a facility, not a property"
        if any(last.endswith(h) for h in _PROPERTY_HEADS_KO) and not last.endswith("설명"):
            return None  # 소비전력, 흡입력, 모델명, 학과명 (not 설명, a description)
        return f"'{label[:30]}' names a part, variant or cell, not a property (head '{last}')"
    return None


_BARE = frozenset(
    (
        "year years date dates number numbers value values amount amounts figure figures total "
        "연도 날짜 일자 수치 값 年份 日期 数值 年 日付 数値"
    ).split()
)


def bare_label(attribute: str) -> bool:
    """Whether a label names only a kind of value ("Year", "Date", "Value"): compared between two things, it does
    not say the year *of what* ("Which has the later year: Dr. A or Dr. B?")."""
    return normalize(attribute).strip(" :") in _BARE
