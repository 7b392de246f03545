"""Values a test item must never rest on, and values that lost part of what the document says.

* **placeholder_value** — a template blank or a mark, not an answer: ``[Number] months``, ``+82-10-XXXX-XXXX``,
  ``TBD``, ``✓``, ``_``, ``○○○``, or debris cut out of its context (``최영수)``: a closing bracket without its
  opening one).
* **incomplete_value** — the value as kept is not what the document states: ``300,000원`` where the line says
  ``월 300,000원`` (per month), ``50,000원`` for ``+50,000원/박``, ``$500`` for ``up to $500``, ``March 15`` when
  the same line gives the year, a date marked as planned (``2026년 4월 2일 (예정)``) asked as done. The reference
  answer must carry the qualifier, the sign, the per-unit suffix and the year, or the item is dropped.
"""

from __future__ import annotations

import re

from schemas import FactNode
from testgen.kg.mining import table_cells
from testgen.kg.values import find_values
from testgen.lang import EXTENSION, contact_kind
from testgen.text import normalize

_PLACEHOLDER = re.compile(
    r"\[[^\]]{0,40}\]"  # [Number], [회사명], [TBD]
    r"|<[^<>]{1,40}>"  # <name>
    r"|\{[^{}]{0,40}\}"  # {value}
    r"|(?:^|[\s\-.()])[Xx*#]{3,}(?=$|[\s\-.()])"  # XXXX, ***, ###
    r"|(?<=[-.])\d*[Xx*]{2,}\d*(?=$|[\s\-.)])"  # a number's digits masked: "02-2656-7xx1", "010-12**-5678"
    r"|[○◯●□■△▲◇◆]{2,}|[Oo]{3,}(?=\s|$)"  # ○○○, ○○ 지점
    r"|_{2,}|\.{4,}|…{2,}"
    r"|[(（]\s*(?:예|예시|e\.\s?g\.?|eg|for example)\s*[:：.,)]"  # "지원배역_이름.pdf (예: 순례_홍길동.pdf)": a pattern
    r"|\blorem ipsum\b"
    r"|\S[ \t]{3,}\S"  # "£25             (no change)": the cut ran across a plain-text table's columns
    # "336,000원 + 19,000원 = 355,000원", "총액의 10% = 130,200원": a sum worked out on the page
    r"|\d[^\W\d_]{0,3}%?\s*=\s*[^\W_]*\d"
    r"|\s/\s*[^\W\d_][^\s/:：]{0,11}\s*[:：]\s*\S",  # "조현아 대리 / 인솔: 남궁철": the cut ran into the next label
    re.I,
)
_PLACEHOLDER_WORDS = frozenset(
    "tbd tba tbc n/a none null nil unknown pending todo xxx - — – ? ?? 미정 미상 추후공지 없음 해당없음 "
    "all any various both either neither each 전체 모두 다수 양쪽 "
    "待定 未定 暂无 無し なし 홍길동".split()
)
# A value saying the answer is not given here: "Custom pricing", "Contact sales", "별도 문의", "面议", "see above".
_NO_ANSWER = re.compile(
    r"(?:custom(?: pricing| quote| price)?|contact (?:us|sales)(?: for (?:pricing|a quote))?|"
    r"(?:price |available )?(?:up)?on request|varies|negotiable|call (?:us )?for (?:price|pricing|a quote)|"
    r"(?:별도 |가격 )?(?:문의|협의)|별도|面议|另议|电询|咨询|要相談|応相談|お問い合わせ|"
    r"(?:see|as) (?:above|below)|위와 같음|상동|상기 참조)[.!]?",
    re.I,
)
_MARKS = re.compile(r"^[\W_]*$")  # ✓, ✔️, ✗, ★★★, "_", "-": no letter and no digit at all
_PAIRS = (("(", ")"), ("[", "]"), ("{", "}"), ("（", "）"), ("「", "」"), ("『", "』"), ("“", "”"))


def is_placeholder(value: str) -> bool:
    """Whether a value (or keyword) is a blank, a mark or a fragment rather than something to ask about."""
    text = value.strip()
    if not text or _MARKS.match(text):
        return True
    if _MARKS.match(re.sub(r"[(（][^()（）]*[)）]", "", text)):
        return True  # "○ (예약제)", "✓ (on request)": a mark with its note, still no answer to say
    if normalize(text).strip(".:;") in _PLACEHOLDER_WORDS or _NO_ANSWER.fullmatch(text):
        return True
    if _PLACEHOLDER.search(text) or re.match(r"[\w.+-]+@(?![\w-]+\.)", text) or _FILE_NAME.search(text):
        return True  # "[Number] months"; "hello@ (shared inbox)"; "가격표_2024.csv.txt": a file, not an answer
    for opening, closing in _PAIRS:
        if text.count(opening) != text.count(closing):
            return True  # "최영수)": a bracket of the source left dangling by the cut
    return text[0] in ",.;:)]}」』”/" or text[-1] in "([{「『“/:~"  # "100000~": from a figure, up to none


# Words right before a value that change what it means (a limit, an approximation, a period).
_QUALIFIER_BEFORE = re.compile(
    r"(?:\b(?:up to|starting (?:at|from)|as (?:low|much|little|many) as|"
    r"at least|at most|no more than|no less than|more than|less than|over|under|above|below|"
    r"about|around|approximately|approx\.?|nearly|almost|roughly|maximum|minimum|max\.?|min\.?|from|"
    r"per|each|annual(?:ly)?|monthly|weekly|daily|yearly)"
    r"|최대|최소|최고|최저|약|월|연|주|일|매월|매년|매일|1인당|인당|박당|1박당|건당|회당|기원전|"
    r"最多|最少|最高|最低|约|大约|每月|每年|每天|最大|最小|約|およそ|毎月|毎年|公元前|紀元前|前)\s*[:：]?\s*$",
    re.I,
)
# A per-unit or range suffix right after a value ("/박", " per month", "a year", "~", "–$900").
_SUFFIX_AFTER = re.compile(
    r"^\s*(?:/\s*\S|per\s+\w|a\s+(?:month|year|week|day|night|person|head)\b|each\b|apiece\b|"
    r"for\s+(?:standard|premium|basic|critical|urgent|general|priority|non-|all\b|most\b|new\b)|"
    r"당\b|씩|이상|이하|미만|초과|부터|까지|~|〜|–\s*\S|-\s*[$€£¥₩\d]|以上|以下|未満|起|每|\d|[时時点]|至|到)",
    re.I,
)
# A mark right after a value saying it is planned or estimated, not a fact yet: "2026년 4월 2일 (예정)", "Q3 (TBC)".
_TENTATIVE_AFTER = re.compile(
    r"^\s*[(（\[]?\s*(예정|잠정|가칭|계획|planned|expected|tentative|provisional|estimated|est\.|proposed|projected|"
    r"forecast|target|tbc|tbd|to be confirmed|预计|计划|暂定|予定|見込み|仮)(?![a-z])",
    re.I,
)
_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)")
# A word right before a date that counts from the day the page was written: "오는 18일", "지난해 9월", "last March".
_RELATIVE_BEFORE = re.compile(
    r"(?:오는|지난|이번|다음|올해|지난해|작년|내년|전년|금년|이달|지난달|다음\s*달|\b(?:next|last|this|coming)|"
    r"今年|去年|明年|本月|上月|下月|昨年|来年|先月|来月)\s*$",
    re.I,
)


def _locate(fact: FactNode) -> tuple[str, str] | None:
    """The evidence text just before and just after the value, or None when the value is not found in it."""
    evidence = fact.evidence.replace("**", "").replace("__", "")
    pos = evidence.find(fact.value)
    if pos < 0:
        return None
    return evidence[:pos], evidence[pos + len(fact.value) :]


#: Labels of a person's post, and a cell beside it saying the post began, ended or changed at some time.
_ROLE_ATTRIBUTE = re.compile(r"^\s*(?:role|title|job title|position|post|직위|직책|직함|역할)\s*$", re.I)
_ROLE_CHANGE = re.compile(
    r"\b(?:from|until|till|since)\s+(?:\d|[A-Z][a-z]{2,8}\b)|\d[^|]{0,12}(?:부터|까지)|→|->|\bformerly\b|이전에는|전에는",
)
#: A day and month written with a slash ("6/24", "7/7"), and labels of dates ("Dates", "일정", "기간").
_DAY_MONTH = re.compile(r"(?<![\d/])\d{1,2}/\d{1,2}(?![\d/])")
_DATES_LABEL = re.compile(r"\bdates?\b|\bschedule\b|\bwhen\b|날짜|일정|기간|日期|日程", re.I)


#: A telephone extension alone: "ext. 102", "x204", "내선 3320".
_EXTENSION_ONLY = re.compile(EXTENSION, re.I)


def incomplete_value(fact: FactNode, answer: str) -> str | None:
    """What the answer leaves out of the value as the document states it, or None when nothing is lost."""
    if re.search(r"(?:\d\s*[*†‡]+|[\w.%)](?<!\*)\*|[†‡])[)）]?$", fact.value.strip()):
        return "a footnote mark on the value: its condition is stated elsewhere ('₹1,00,000*', '8.25% p.a.*')"
    if fact.source == "table" and _ROLE_ATTRIBUTE.search(fact.attribute):
        others = [c for c in table_cells(fact.evidence) if normalize(c) != normalize(fact.value)]
        if any(_ROLE_CHANGE.search(cell) for cell in others):
            return "the row says when the role began or changed ('SIL postdoc until 31/08/2025, Lecturer from 1 Sept')"
    if _EXTENSION_ONLY.fullmatch(fact.value.strip()):
        return "an extension without the line it is dialled on ('ext. 102')"
    undated = fact.value_type == "text" and _DAY_MONTH.search(fact.value) and not _YEAR.search(fact.value)
    if undated and _DATES_LABEL.search(fact.attribute):
        return "dates without their year ('6/24 – 7/17': which summer?)"
    around = _locate(fact)
    if around is None:
        return None
    before, after = around
    if re.match(r"[-–]?[A-Za-z]", after) or re.search(r"[A-Za-z][-–]$", before):
        return "the value is part of a longer name ('2019-nCoV', 'COVID-19')"
    norm_answer = normalize(answer)
    if (fact.value_type == "date" or re.fullmatch(r"\d{1,2}\s*[일日]", fact.value)) and _RELATIVE_BEFORE.search(before):
        return "a date counted from when the page was written ('오는 18일', '지난해 9월')"
    qualifier = _QUALIFIER_BEFORE.search(before[-24:])
    if qualifier and normalize(qualifier.group(0).strip(" :：")) not in norm_answer:
        return f"qualifier '{qualifier.group(0).strip()}' before the value"
    mark = re.search(r"(?:^|[^\d%\s])\s*(<=|>=|[<>≤≥≈~〜])\s*$", before)
    if mark and normalize(mark.group(1)) not in norm_answer:
        return f"'{mark.group(1)}' before the value ('<30 minutes', '~1810mm')"
    if re.search(r"[\d%]\s*(?:[–~〜\-－]|to|부터|至|到)\s*$", before) or (
        fact.value[:1] in "-–－" and re.search(r"[\d%]\s*$", before)
    ):
        return "the value is the end of a range ('18–28 years')"
    if before.endswith(("+", "-", "−", "±")):  # "+50,000원", or the end of a range "2019-2021"
        sign = before[-1]
        if normalize(sign + fact.value) not in norm_answer:
            return f"sign '{sign}' before the value"
    tentative = _TENTATIVE_AFTER.match(after)
    if tentative and normalize(tentative.group(1)) not in norm_answer:
        return f"'{tentative.group(1)}' after the value: planned, not done ('2026년 4월 2일 (예정)')"
    suffix = _SUFFIX_AFTER.match(after)
    if suffix and normalize(fact.value + after[: suffix.end()]).strip() not in norm_answer:
        return f"'{after[: suffix.end()].strip()}' after the value"
    if fact.value_type == "date" and not _YEAR.search(fact.value) and ":" not in fact.value:
        years = _YEAR.findall(fact.evidence)
        if years:
            if not any(y in answer for y in years):
                return "the year the document gives"
        elif not _YEAR.search(fact.qualifier or "") and not re.search(r"\d{2}\s*년|\d{2}年", fact.value):
            return "a date without its year (which year is meant?)"
    return None


_FUNCTION_WORDS = frozenset(
    "a an the of in on at to for and or by with from as per via into onto over under del de la le von van der "
    "da di du des y e et".split()
)


#: A cell giving a value and the one it replaced: "(신) … / (구) …", "new: … old: …", "旧:".
_OLD_AND_NEW = re.compile(r"[(（\[](?:구|舊|旧|old|former|previous)[)）\]]|\b(?:old|former|previous)\s*:", re.I)


#: A Korean step of a procedure ends with what to do: 대피, 신고, 연락, 보고, 조치, 설치, 이동, 지참, 제출.
_KO_ACTION_END = re.compile(r"(?:대피|신고|연락|보고|조치|설치|이동|지참|제출|요청|점검)\s*(?:후|필수|요망)?\s*$")
_BRACKETS = re.compile(r"[(（][^()（）]*[)）]")


#: A file's name as a value: "가격표_2024.csv.txt", "Price list v2.pdf".
_FILE_NAME = re.compile(r"\S\.(?:csv|tsv|txt|md|pdf|docx?|xlsx?|hwpx?|pptx?)$", re.I)
#: A value saying a thing is paid for within another amount: "included in the £3", "incl. in entry", "무료 (입장료에
#: 포함)", "기본요금에 포함".
_PART_OF = re.compile(r"(?i)(?:included|incl\.?|covered|part of)\b|[^\s]+에\s?포함")


def descriptive_value(value: str) -> str | None:
    """Why a text value is a description or an instruction rather than a value one asks "what is" about
    ("Maintains a set vehicle speed as chosen by the driver", "Review and submit your request",
    "Use “Manage My Flight” > “Report Baggage Issue”", "신분증을 지참해야 합니다"), or None."""
    text = value.strip()
    if re.search(r"\s/\s*[^\d/:：]{2,20}[:：]\s", text):
        return "two labelled values in one cell ('info@… / 카카오톡 채널: …')"
    if contact_kind(text) in ("email", "web"):
        return None  # "amira.haddad@tarrowfoodbank.org.uk": an address, whatever its words
    if re.search(r"[.!?。！？]$", text) and len(text.split()) > 2:
        return "a sentence as the value"
    if re.search(r"[>→»“”\"]", text):
        return "a path or quotation as the value"
    if _OLD_AND_NEW.search(text):
        return "the old and the new value in one cell ('(신) 은포시 … / (구) 서울 …')"
    if re.match(r"(?i)(?:yes|no|예|아니요|아니오|有|无|無|あり|なし)(?:\b|\s|$|[(（,])", text):
        return "a yes/no cell asked as 'what is' ('Expandable storage: No (UFS 4.0)')"
    if _PART_OF.match(text):
        return "a part of another amount as the value ('included in the £3', '기본요금에 포함')"
    if re.search(r"[가-힣]", text):
        if re.search(r"(?:다|요|음|함|됨|임|니다|세요|십시오)$", text):
            return "a clause as the value"
        if re.search(r"[가-힣]\s(?:시|경우|때)$", text):
            return "a condition as the value ('비·눈·진눈깨비 관측 시')"
        if "+" in text and any(_KO_ACTION_END.search(part) for part in re.split(r"[,+]", _BRACKETS.sub("", text))):
            return "steps of a procedure as the value ('비상등 + 삼각대 …, 승객 가드레일 밖 대피')"
        return None
    if re.match(r"(?i)(?:for|to|with|by|via|when|if|after|before|upon|on request)\b", text) and len(text.split()) >= 2:
        return "a purpose or condition as the value ('For priority servicing')"
    words = re.findall(r"[A-Za-z][A-Za-z'’\-]*", text)
    lower = [w for w in words if w[0].islower() and w.lower() not in _FUNCTION_WORDS]
    if len(words) >= 4 and len(lower) >= 2:
        return "a description as the value"
    return None


def clause_pick(fact: FactNode) -> bool:
    """Whether a key–value fact's value was picked out of a longer clause after the label ("Payment Terms: Net 30
    days; a 2% monthly late penalty applies" kept as 2%): asked as "the payment terms", it misstates the line."""
    if fact.source != "key_value":
        return False
    line = fact.evidence.replace("**", "").replace("__", "")
    _, sep, rest = line.partition(":") if ":" in line else line.partition("：")
    if not sep:
        return False
    rest = rest.strip().rstrip(".")
    if normalize(rest) == normalize(fact.value) or len(rest.split()) < len(fact.value.split()) + 4:
        return False
    return not _sole_value(rest, fact)


_NEGATION = re.compile(r"\b(?:not|no|never|unlike|except|without|instead|rather than)\b|않|없|아니|不|没|無|ない", re.I)


def _sole_value(clause: str, fact: FactNode) -> bool:
    """Whether the clause after a label states one value only, the fact's, plainly: "Duration: This agreement is
    effective for a period of 36 months from the contract date" is asked as the duration without misstating it.
    Not when the clause holds a second value, a second sentence or a negation ("not included, unlike the 2
    years of the Pro")."""
    if fact.value_type == "text" or re.search(r"[;；]|[.!?。]\s", clause) or _NEGATION.search(clause):
        return False
    spans = find_values(clause)
    return len(spans) == 1 and normalize(spans[0].text) == normalize(fact.value)


#: Columns of a table that note a row's conditions ("| Category | Limit | Notes |").
_NOTE_COLUMN = re.compile(
    r"^(?:notes?|remarks?|conditions?|comments?|eligibility|restrictions?|비고|참고|조건|备注|説明|備考|条件)$", re.I
)
#: A note that limits who or when a value applies to ("Hybrid and remote staff only", "정규직만 해당", "만 65세 이상은
#: 무료") or what one unit of it is ("per dose", "1회당, 총 2회 접종").
_CONDITION = re.compile(
    r"\b(?:only|unless|except|excluding|not (?:for|available|eligible)|per)\b"
    r"|만\s*(?:해당|가능|적용)|제외|(?:이상|이하|미만|초과)(?:은|는|인\s*경우)|\d\s*[가-힣]{1,2}당|仅限|のみ|限定|每",
    re.I,
)


def row_condition(fact: FactNode, chunk_text: str, chunk_start: int) -> str | None:
    """The note of the fact's table row that limits whom or when its value applies to, or None: "£250 once every 3
    years" beside "Hybrid and remote staff only" under "Notes" is wrong for an office worker, so an answer without
    the note is incomplete. Read from the fact's chunk (its text starting at `chunk_start` in the document); a
    table whose header is in an earlier chunk is not read."""
    if fact.source != "table" or not fact.start >= chunk_start:
        return None
    lines = chunk_text[: fact.start - chunk_start].split("\n")[:-1]  # the lines above the fact's row
    block: list[str] = []
    for line in reversed(lines):
        if not line.lstrip().startswith("|"):
            break
        block.append(line)
    if len(block) < 2 or not re.fullmatch(r"[\s|:-]+", block[-2]):
        return None  # no header row over a separator in this chunk
    header = table_cells(block[-1])
    row = table_cells(chunk_text[fact.start - chunk_start :].split("\n", 1)[0])
    for col, label in enumerate(header):
        note = row[col] if col < len(row) else ""
        own = normalize(note) == normalize(fact.value)
        if col and _NOTE_COLUMN.match(label.strip("* ")) and not own and _CONDITION.search(note):
            return note
        if col and fact.value_type == "money" and _UNIT_COLUMN.fullmatch(label.strip("* ")) and _MEASURED.search(note):
            return note  # "| 치료용 첩약 | 1제 (15일분, 30팩) | 250,000원 |": the price is for that much, not a dose
    return None


#: A price table's column of what one price buys: "| 항목 | 단위 | 금액 |", "| Item | Per | Price |".
_UNIT_COLUMN = re.compile(r"단위|기준|용량|수량|per|unit|quantity|pack size", re.I)
#: A unit cell that measures out an amount ("15일분", "1제 (30팩)", "500 g"), not one use ("1회", "1부위", "each").
_MEASURED = re.compile(r"\d+\s*(?:일분|제|팩|포|병|개월|주|g|kg|ml|l|매|장|알|정)(?![가-힣])", re.I)
