"""Korean surface rules: particles chosen by the final consonant (받침) and question endings."""

from __future__ import annotations

import re
from dataclasses import dataclass

from schemas import FactNode
from testgen.lang import ValueKind, is_contact_value
from testgen.lang.en import is_person_name as is_en_person_name

_HANGUL_BASE = 0xAC00
_HANGUL_LAST = 0xD7A3
# Final letters of non-Hangul words as read aloud in Korean: digits and Latin letters.
_DIGIT_HAS_FINAL = {
    "0": True,
    "1": True,
    "2": False,
    "3": True,
    "4": False,
    "5": False,
    "6": True,
    "7": True,
    "8": True,
    "9": False,
}
_DIGIT_FINAL_RIEUL = {"1", "7", "8"}  # 일, 칠, 팔 end in ㄹ
_LATIN_HAS_FINAL = set("lmnr")  # el, em, en, ar(알) read with a final consonant


def _last_sound(word: str) -> str | None:
    for ch in reversed(word.strip()):
        if ch.isalnum():
            return ch
    return None


def has_final_consonant(word: str) -> bool:
    """Whether the word's last syllable has a final consonant (받침): 설립일 → True, 회사 → False."""
    ch = _last_sound(word)
    if ch is None:
        return False
    code = ord(ch)
    if _HANGUL_BASE <= code <= _HANGUL_LAST:
        return (code - _HANGUL_BASE) % 28 != 0
    if ch in _DIGIT_HAS_FINAL:
        return _DIGIT_HAS_FINAL[ch]
    return ch.lower() in _LATIN_HAS_FINAL


def _final_is_rieul(word: str) -> bool:
    ch = _last_sound(word)
    if ch is None:
        return False
    code = ord(ch)
    if _HANGUL_BASE <= code <= _HANGUL_LAST:
        return (code - _HANGUL_BASE) % 28 == 8
    return ch in _DIGIT_FINAL_RIEUL or ch.lower() in {"l", "r"}


_PAIRS = {
    "은": ("은", "는"),
    "는": ("은", "는"),
    "이": ("이", "가"),
    "가": ("이", "가"),
    "을": ("을", "를"),
    "를": ("을", "를"),
    "과": ("과", "와"),
    "와": ("과", "와"),
    "아": ("아", "야"),
    "야": ("아", "야"),
    "이다": ("이다", "다"),
}


def particle(word: str, kind: str) -> str:
    """The word followed by the right particle: particle("설립일", "은") → "설립일은".

    ``kind`` is either form of the pair (은/는, 이/가, 을/를, 과/와); 으로/로 follows the ㄹ rule.
    """
    if kind in ("으로", "로"):
        use_eu = has_final_consonant(word) and not _final_is_rieul(word)
        return word + ("으로" if use_eu else "로")
    with_final, without = _PAIRS[kind]
    return word + (with_final if has_final_consonant(word) else without)


def topic(word: str) -> str:
    """은/는."""
    return particle(word, "은")


def subj(word: str) -> str:
    """이/가."""
    return particle(word, "이")


def obj(word: str) -> str:
    """을/를."""
    return particle(word, "을")


def copula(word: str) -> str:
    """The polite copula: "2008년" → "2008년입니다", "회사" → "회사입니다"."""
    return word + "입니다"


def possessive_chain(*parts: str) -> str:
    """Join noun phrases with 의: ("하늘여행", "대표이사") → "하늘여행의 대표이사"."""
    return "의 ".join(p for p in parts if p)


_PAST_ENDINGS = [
    (re.compile(r"(되었|됐)(습니다|다|어요)\.?$"), "된"),
    (re.compile(r"(하였|했)(습니다|다|어요)\.?$"), "한"),
]


_PARTICLE_END = re.compile(r"(으로|로|을|를|에서|에|과|와|으로서|로서)$")
#: A particle at a word's end, any case ("경영지원팀의" → "경영지원팀", "기초반은" → "기초반").
TRAILING_PARTICLE = re.compile(r"(?:은|는|이|가|을|를|의|에|에서|으로|로|와|과|도|만)$")


# Action nouns a timeline line ends with: the person did it (…을 총괄한 것) or had it done to them (…으로 임명된 것).
_ACTIVE_EVENTS = frozenset("총괄 개설 출시 체결 설립 도입 담당 개발 기획 인수 운영 주도 신설 구축".split())
_PASSIVE_EVENTS = frozenset("임명 선임 발령 승진 선출 위촉 선정 지정 등재 선발 채택".split())


def event_clause(event: str) -> str | None:
    """Turn a timeline event into a noun phrase that can take 은/는 before 언제인가요.

    "부산 지점 개설" → "부산 지점 개설"; "부산 지점을 개설했다" → "부산 지점을 개설한 것"; a long chain of nouns
    ending in an action is made a clause ("전사 재택근무 전환 실무 총괄" → "전사 재택근무 전환 실무를 총괄한 것"), an
    appointment a passive one ("해외상품파트장 임명" → "해외상품파트장으로 임명된 것");
    a sentence with another ending → None (no safe rewrite).
    """
    event = event.strip().rstrip(".")
    if "," in event or "，" in event or len(event.split()) > 6:
        return None  # several events on one line
    for pattern, adnominal in _PAST_ENDINGS:
        if pattern.search(event):
            return pattern.sub(adnominal, event) + " 것"
    if re.search(r"(다|요|니다|까)$", event):
        return None
    words = event.split()
    if any(_subject_marked(w) for w in words[:-1]):
        return None  # "학교법인 서령학원이 서령실업초급대학 개교": the event has a subject of its own
    verb = words[-1] if len(words) >= 2 and not any(_PARTICLE_END.search(w) for w in words[:-1]) else ""
    if verb in _PASSIVE_EVENTS:  # "해외상품파트장 임명" → "해외상품파트장으로 임명된 것"
        return " ".join([*words[:-2], particle(words[-2], "으로"), verb]) + "된 것"
    if verb in _ACTIVE_EVENTS and len(words) >= 4:  # a long noun chain: "… 실무 총괄" → "… 실무를 총괄한 것"
        return " ".join([*words[:-2], obj(words[-2]), verb]) + "한 것"
    if len(words) > 1 and any(_PARTICLE_END.search(w) for w in words[:-1]):
        # one is chosen for a title: "충청북도 대표 축제로 선정" → "충청북도 대표 축제로 선정된 것", and "…에서
        # 역량강화대학 지정" → "…에서 역량강화대학으로 지정된 것"
        passive = words[-1] in _PASSIVE_EVENTS
        if len(words) > 2 and not _PARTICLE_END.search(words[-2]) and re.search(r"[가-힣]$", words[-2]):
            # "감사 업무 담당" → "감사 업무를 담당"
            words[-2] = particle(words[-2], "으로") if passive else obj(words[-2])
        return " ".join(words) + ("된 것" if passive else "한 것")  # "제주지점장으로 입사" → "…입사한 것"
    return event


#: Nouns whose last syllable is 이 or 가 of their own ("어린이 도서관", "여름 휴가").
_NOUNS_LIKE_PARTICLE = tuple(
    "어린이 놀이 길이 높이 넓이 깊이 먹이 휴가 화가 여가 시가 주가 대가 평가 물가 단가".split()
)


def _subject_marked(word: str) -> bool:
    """Whether a word ends with the subject particle: 이 after a closed syllable ("서령학원이"), 가 after an open one
    ("회사가") — not "아이" or "평가", whose last syllable is the noun's own."""
    if len(word) < 3 or not re.fullmatch(r"[가-힣]+", word) or word.endswith(_NOUNS_LIKE_PARTICLE):
        return False
    return (word.endswith("이") and has_final_consonant(word[:-1])) or (
        word.endswith("가") and not has_final_consonant(word[:-1])
    )


# -- what a value is, for the question word ----------------------------------------------------------------

_PERSON_LABEL = re.compile(r"(자|장|이사|리더|매니저|오너|대표|담당|책임|사장|회장|상사|ceo|owner|manager|lead)$", re.I)
# Labels that end like a role but name a thing: a visa, interest, a factory, a market, a store.
_NOT_PERSON_LABEL = re.compile(
    r"(비자|이자|의자|숫자|문자|투자|상자|모자|전자|원자|과자|액자|공장|시장|매장|입장|현장|주차장|여권|구장|경기장|"
    r"운동장|극장|광장|목장|농장|도장|식장|공연장|전시장|회의장|행사장|장소)$"
)
_RANKS = (
    "팀장|부장|과장|차장|대리|사원|주임|이사|상무|전무|대표|실장|본부장|센터장|지점장|파트장|매니저|책임|선임|"
    "수석|원장|부원장|교수|박사|사장|회장|부사장|대표이사|"
    # a public servant's rank ("박서연 주무관", "김도윤 주사"), a head of an office ("윤정희 관장")
    "주무관|주사보|주사|사무관|서기관|계장|국장|관장|소장"
)
_TITLES = rf"{_RANKS}|선생님|님|씨"
# professions written after a name as posts are ("이도현 약사", "김정숙 대표약사", "박지훈 트레이너"); not before
# one, where they are words of their own ("강사 채용")
_PROFESSIONS = (
    "(?:대표|관리|책임|전담|수석|주임)?(?:약사|한의사|치과의사|수의사|의사|간호사|변호사|세무사|회계사|노무사|법무사|"
    "변리사|사서|강사|코치|트레이너|교사|정비사|물리치료사|영양사|사회복지사|요양보호사|기사|재단사|조리사)님?"
)
#: A post as any page writes it beside a name, before or after it ("정태식 사장님", "보조 한지우", "송예린(주말 알바)"):
#: a rank or a profession, part-time work, an assistant; not an honorific ("님", "씨", "선생님", which any member of a
#: school's or a nursery's staff is called), nor a charge ("담당자: 오승민" of a policy).
POST_WORD = re.compile(
    rf"(?:{_RANKS}|{_PROFESSIONS}|(?:주말|평일|야간|주간)?\s?(?:알바|아르바이트|파트타이머)|보조(?:강사|교사)?|총무|감사|"
    "회계|간사|위원장|위원|부회장|운영자|기장|점장|주방장|조교)"
)
# a title of the writer's own making is the unit's name with 장 ("터미널장", "허브장"), never a place (공장, 주차장)
# a post ending in 장 not in the list is a word of its own ("김하늘 운영위원장"), never glued on ("서령종합운동장")
_KO_NAME = re.compile(
    rf"^[가-힣]{{2,4}}(?:\s?(?:{_TITLES})|\s(?:{_PROFESSIONS})|\s[가-힣]{{2,5}}장)?(?:\s?\([^)]*\))?$"
)
_TITLE_FIRST = re.compile(
    rf"^(?:{_TITLES}|[가-힣]{{1,4}}장)\s+(?!(?:{_TITLES})(?:\s|$))(?=[가-힣]{{2,4}}(?:\s?\([^)]*\))?$)"
)
_NOT_NAMES = re.compile(
    r"^(없음|미정|공석|해당\s?없음|본인|전원|전체|모두|기타|별도|추후|협의)$|(팀|부서|본부|센터|지점|회사|사무소|그룹|비자|"
    r"실|과|국|청|처|위원회|협회|재단|법인|은행|공사)$"
)
_PLACE_LABEL = re.compile(
    r"(근무지|위치|소재지|주소|본사|지역|장소|도시|소재|본점|출발지|도착지|목적지|구장|경기장|홈구장|연고지|캠퍼스)$"
)
TIME_UNITS = frozenset({"개월", "년", "일", "시간", "분", "주", "박", "박일", "초"})
_KO_COUNTERS = frozenset({"명", "개", "곳", "건", "대", "회", "석", "점", "배"})


def is_person_name(value: str) -> bool:
    """Whether a Korean value reads as person names: "이준호", "박하늘 대표", "김민지(영업팀)", "이준호, 정다은",
    "고(故) 정만수", "홍 사장" —
    not "무비자 30일", "관광 비자", "영업팀" or "미정"."""
    value = re.sub(r"\s?\([^()]*\)$", "", value.strip())  # "한도윤 (제3대, 2021년 3월 취임)": the note's commas
    parts = [p.strip() for p in re.split(r"[,·/]|\s및\s|\s와\s|\s과\s", value) if p.strip()]
    if not parts or len(parts) > 6:
        return False
    for part in parts:
        part = re.sub(r"^(?:고\s?\(故\)|故)\s*", "", part)  # "고(故) 정만수": the late 정만수
        part = _TITLE_FIRST.sub("", part)  # "사무장 김영수": the post, then the name
        bare = re.sub(r"\s?\([^)]*\)$", "", part)
        if _SURNAME_POST.fullmatch(bare) and _has_surname(bare):
            continue  # "홍 사장", "박 과장님": a person called by surname and post
        if not _KO_NAME.match(part) or _NOT_NAMES.search(bare.split()[0]) or not _has_surname(bare.split()[0]):
            return False
        if len(bare.split()) > 1 and _NOT_PERSON_LABEL.search(bare):
            return False  # "김해 공장", "서울 주차장": a place
    return True


def name_before_post(value: str) -> str | None:
    """The name of "<name> <post>" ("박서윤 팀장", "이도현 약사", "나상현 허브장"), or None: not for a post first
    ("사무장 김영수") or words that only look like a name ("연장보육 전담교사")."""
    parts = value.split()
    if len(parts) != 2 or not re.fullmatch(r"[가-힣]{3}", parts[0]) or not _has_surname(parts[0]):
        return None
    if not _POST_AFTER_NAME.fullmatch(parts[1]):
        return None
    return parts[0]


def without_honorific(value: str) -> str:
    """A post's honorific dropped ("최 소장님" → "최 소장", "서은비 원장님" → "서은비 원장"): an answer that is right
    may name the post without it."""
    stem = value.strip()[:-1] if value.strip().endswith("님") else ""
    words = stem.split()
    if len(words) == 2 and _POST_AFTER_NAME.fullmatch(words[1]) and _has_surname(words[0][:1]):
        return stem
    return value


def post_only(value: str) -> bool:
    """Whether a value is a post with no name ("사무국장", "담당 강사"): who holds it, the page does not say."""
    bare = re.sub(r"\s*[(（][^()（）]*[)）]$", "", value.strip())
    words = bare.split()
    if not 1 <= len(words) <= 2 or name_before_post(bare) is not None or name_after_post(bare) is not None:
        return False
    if _SURNAME_POST.fullmatch(bare) and _has_surname(bare):
        return False  # "홍 사장": a person called by surname and post
    return _POST_AFTER_NAME.fullmatch(words[-1]) is not None and not _has_surname_name(words[0])


def _has_surname_name(word: str) -> bool:
    """Whether a word reads as a Korean name of three syllables opening with a surname ("엄지현")."""
    return re.fullmatch(r"[가-힣]{3}", word) is not None and _has_surname(word) and not _POST_AFTER_NAME.fullmatch(word)


def name_after_post(value: str) -> str | None:
    """The name of "<post> <name>" ("관리실장 김영호", "사무장 김영수"), or None."""
    parts = value.split()
    if len(parts) != 2 or not re.fullmatch(r"[가-힣]{3}", parts[1]) or not _has_surname(parts[1]):
        return None
    return parts[1] if _POST_AFTER_NAME.fullmatch(parts[0]) else None


_POST_AFTER_NAME = re.compile(rf"(?:{_TITLES})|{_PROFESSIONS}|[가-힣]{{1,5}}장")
#: A surname and a post, as colleagues call someone: "홍 사장", "박 과장님", "김 기사님" (not "홍삼", "박스").
_SURNAME_POST = re.compile(rf"[가-힣]\s(?:{_POST_AFTER_NAME.pattern})님?")


#: Korean surnames (one syllable, and the common two-syllable ones): a name opens with one ("접수·수납·예약" does not).
_SURNAMES = frozenset(
    (
        "김 이 박 최 정 강 조 윤 장 임 한 오 서 신 권 황 안 송 전 홍 유 고 문 양 손 배 백 허 남 심 "
        "노 하 곽 성 차 주 우 구 민 류 나 진 지 엄 채 원 천 방 공 현 함 변 염 여 추 도 소 석 선 설 "
        "마 길 연 위 표 명 기 반 라 왕 금 옥 육 인 맹 제 모 탁 국 어 은 편 용 예 경 봉 사 부 가 복 "
        "태 목 형 피 두 감 음 빈 동 온 호 범 좌 팽 승 간 상 시 갈 단 견 당 화 창 옹 순 종 풍 독 엽 "
        "초 학 리"
    ).split()
)
COMPOUND_SURNAMES = ("황보", "남궁", "제갈", "선우", "서문", "독고", "사공")


def _has_surname(name: str) -> bool:
    """Whether a Korean name opens with a surname."""
    return name[:1] in _SURNAMES or name.startswith(COMPOUND_SURNAMES)


def person_label(label: str) -> bool:
    """Whether a Korean label names a role a person fills (담당자, 지점장, 대표이사) — not 비자 or 공장."""
    label = re.sub(r"\s?\([^)]*\)$", "", label.strip())
    return bool(_PERSON_LABEL.search(label)) and not _NOT_PERSON_LABEL.search(label)


def value_kind(fact: FactNode) -> ValueKind:
    """The kind of a Korean fact's value (see `testgen.lang.ValueKind`); a person is decided from the value."""
    if fact.value_type == "date":
        return "date"
    if fact.value_type == "money":
        return "amount"
    if fact.value_type == "percent":
        return "percent"
    if fact.value_type == "number":
        if fact.unit in TIME_UNITS:
            return "duration"
        return "count" if fact.unit in _KO_COUNTERS else "quantity"
    named = re.sub(r"\s*[(（][^()（）]*[)）]$", "", fact.value.strip())  # "정유나 (010-2254-8830)": the name
    if is_contact_value(named):
        return "other"
    if person_label(fact.attribute) and (is_person_name(named) or is_en_person_name(named)):
        return "person"
    if _PLACE_LABEL.search(fact.attribute.strip()):
        return "place"
    label = fact.attribute.strip()
    if _FREE.match(fact.value.strip()) and (PRICE_LABEL.search(label) or label.endswith("금액")):
        return "amount"  # "수강료: 무료" is asked "수강료는 얼마인가요?", not "무엇인가요"
    if re.match(r"(?:약\s*)?[\d,]+\s*명(?:\s|$)", fact.value.strip()):
        return "count"  # "약 640명 (위탁 배송기사 약 2,300명 별도)": a head count with its note
    if re.search(r"\d", fact.value):
        return "detail"  # "영업일 기준 4시간 이내": a condition, not a thing
    return "other"


#: A price that is none: "무료", "무료 (교재비 별도)".
_FREE = re.compile(r"무료(?:\s*[(（].*[)）])?$")
#: The end of a label that names a price: 수강료, 참가비, 요금, 가격, 단가, 비용.
PRICE_LABEL = re.compile(r"(?:료|비|가격|요금|단가|비용)$")


def how_many(counter: str) -> str:
    """몇 + counter, with the one irregular form: 일 → 며칠 (never 몇 일)."""
    return "며칠" if counter in ("일", "박일") else f"몇 {counter}"


# -- common attributes asked with a verb ---------------------------------------------------------------------


@dataclass(frozen=True)
class Verbal:
    """A common attribute asked with a verb instead of "X의 <label>은 …": labels (spaces removed) with a
    value of one of `kinds`. In the templates {T} is the subject with 은/는, {O} with 을/를, {s} bare,
    {v} the value verbatim and {v에} the value with 에 (or 부터 where the template says so)."""

    labels: frozenset[str]
    kinds: frozenset[str]
    question: str
    answer: str
    person_subject: bool = False  # only when the subject is a person ("정도윤은 무엇을 담당하나요?")


def _v(labels: str, kinds: str, question: str, answer: str, person_subject: bool = False) -> Verbal:
    names = frozenset(x.replace(" ", "") for x in labels.split("|"))
    return Verbal(names, frozenset(kinds.split()), question, answer, person_subject)


VERBAL: tuple[Verbal, ...] = (
    _v(
        "설립일|설립|설립 연도|설립년도|설립일자|창립일|창립|창립 연도|창업|창업일",
        "date",
        "{T} 언제 설립되었나요?",
        "{T} {v}에 설립되었습니다.",
    ),
    _v("개설일|개설|개점일|개점|오픈일|개업일|개원일", "date", "{T} 언제 문을 열었나요?", "{T} {v}에 문을 열었습니다."),
    _v("출시일|출시|발매일|출시 연도", "date", "{T} 언제 출시되었나요?", "{T} {v}에 출시되었습니다."),
    _v("입사일|입사|입사 연도|입사일자", "date", "{T} 언제 입사했나요?", "{T} {v}에 입사했습니다."),
    _v("계약일|계약 체결일|체결일|서명일|계약 일자", "date", "{T} 언제 체결되었나요?", "{T} {v}에 체결되었습니다."),
    _v("시작일|개시일|계약 시작일|서비스 개시일|시작", "date", "{T} 언제 시작되나요?", "{T} {v}에 시작됩니다."),
    _v("시행일|발효일|적용일|시행", "date", "{T} 언제부터 시행되나요?", "{T} {v}부터 시행됩니다."),
    _v("종료일|계약 종료일|종료", "date", "{T} 언제 끝나나요?", "{T} {v}에 끝납니다."),
    _v("만료일|계약 만료일|만료", "date", "{T} 언제 만료되나요?", "{T} {v}에 만료됩니다."),
    _v("생년월일|생일|출생일", "date", "{T} 언제 태어났나요?", "{T} {v}에 태어났습니다."),
    _v("설립자|창업자|창립자|창업주", "person", "{O} 세운 사람은 누구인가요?", "{O} 세운 사람은 {v}입니다."),
    _v(
        "상사|직속 상사|보고 대상|보고 라인|보고선|보고 체계",
        "person",
        "{T} 누구에게 보고하나요?",
        "{T} {v}에게 보고합니다.",
    ),
    # "한결보일러 담당자는 누구인가요?": "한결보일러를 맡고 있는 사람" reads as whoever here looks after the supplier
    _v("담당자|담당", "person", "{s} 담당자는 누구인가요?", "{s} 담당자는 {v}입니다."),
    _v(
        "담당|담당 업무|주 담당|주요 담당|맡은 업무|맡은 일|업무|주요 업무|담당 분야|하는 일|하는일|주요 역할",
        "other",
        "{T} 무엇을 담당하나요?",
        "{s}의 담당 업무는 {v}입니다.",
        person_subject=True,
    ),
    _v("본사|본사 위치|본사 소재지|본점", "place", "{s}의 본사는 어디에 있나요?", "{s}의 본사는 {v}에 있습니다."),
    _v("소재지|위치|주소지|소재", "place", "{T} 어디에 있나요?", "{T} {v}에 있습니다."),
    _v(
        "직원 수|직원|종업원 수|종업원|총 직원 수",
        "count quantity",
        "{s}의 직원은 몇 명인가요?",
        "{s}의 직원은 {v}입니다.",
    ),
    # 임직원 counts executives too: not asked as 직원
    _v("임직원 수|임직원", "count quantity", "{s}의 임직원은 몇 명인가요?", "{s}의 임직원은 {v}입니다."),
    _v("가격|판매가|정가|판매 가격|상품 가격", "amount", "{T} 얼마인가요?", "{T} {v}입니다."),
    _v("계약 기간", "duration", "{T} 얼마 동안 유지되나요?", "{T} {v} 동안 유지됩니다."),
)


def verbal_form(label: str, kind: str, subject_is_person: bool = False) -> Verbal | None:
    """The verbal form for a Korean label and value kind, or None."""
    key = re.sub(r"\s+|\([^)]*\)", "", label.strip().rstrip(":"))
    for form in VERBAL:
        if key in form.labels and kind in form.kinds and (subject_is_person or not form.person_subject):
            return form
    return None
