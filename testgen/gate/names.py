"""**file_name_subject**: a question must name things the way people do — never by a file name with its
extension (``2024 tax changes.pdf``), a slug (``velvera_technology``, ``example_com_wiki_Page``) or a web
address. Checked on the question text itself, so it holds for LLM rewrites and for sets made elsewhere.

**document_subject**: nor by the document's own title when that title names a document ("Usage Guide",
"Specification Document", "FAQ"): "What is the Smartphone Usage Guide's biometric unlock?" asks about the guide,
while the fact is about the phone.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from testgen.corpus import clean_stem
from testgen.text import normalize

_FILE = re.compile(
    r"[\w\-]\.(?:md|markdown|txt|pdf|docx?|rtf|html?|csv|tsv|xlsx?|pptx?|json|jsonl|ya?ml|rst|xml|hwp|odt)(?![A-Za-z0-9])",
    re.I,
)
# Words that make a title name a document rather than the thing it describes.
DOCUMENT_WORDS = re.compile(
    r"\b(?:guide|guidelines?|manual|handbook|document(?:ation)?|specifications?|spec sheet|catalog(?:ue)?|notices?|"
    r"memo(?:randum)?|circular|"
    r"brochure|calendar|timetable|syllabus|options|directory|overview|faqs?|readme|report|whitepaper|datasheet|glossary|map|index|summary|menu(?=\s*(?:\d|$|v\d|\())|"
    r"tariffs?|price lists?|rate cards?|fee schedules?|schedule of (?:fees|charges)|"
    r"instructions|notes|frequently asked questions|questions and answers|q&a|careers at|about us|"
    r"contact us|api reference|reference (?:docs?|guide|manual)|release notes|changelog|getting started|"
    r"knowledge base|(?:press|news|media) release|minutes of|(?:meeting|board|committee) minutes)\b|"
    r"^\s*how to\b|^\s*(?:contact|meet|reach|call|find) (?:us|our|the)\b|\b(?:with|join) us\b|"
    r"자주 묻는 질문|(?:문의|질문|사례|공지) 모음|질의응답|회의록|정정보도|보도자료|공지\s?사항|게시판|"
    r"常见问题|よくある質問|(?:수강료|이용료|교습비|진료비|요금|가격|단가)\s*$|"
    # two services a page covers together, "주차 및 배송": the page, not one thing ("예약 및 환불 규정" is a rule)
    r"^[가-힣]+\s및\s[가-힣]+(?<!규정)(?<!규칙)(?<!수칙)(?<!약관)(?<!정책)(?<!지침)(?<!방침)(?<!회칙)$|"
    r"(?<=.)(?<!조선 )(?<!고려 )(?<!조선)(?<!고려)(?:후기|체험기|방문기)(?=$|[\s_\d(])|블로그|"
    r"안내서?|가이드|매뉴얼|핸드북|설명서|문서|보고서|기준서|(?:주의|유의|준수|안내)\s?사항|목록|카탈로그|개요|백서|요강|협약|"
    r"(?:비교|일정|시간|요금|가격|일람|대조|편성|단가|수수료|배치|근무|배정|당번|노선|식단|현황|분담|운행|배차)표|표시판|명단|"
    r"(?:접수|관리)?대장$|(?:편성|선발|평가|채점|입반|배정|운영|이용|환불|보강)\s?기준(?:\s|$)|"
    r"(?:직원|임직원|교직원|본사)?\s*(?:및|&|·|,)?\s*연락(?:처|망)\s*(?:\(.*\))?$|연락(?:처|망)\s*(?:[/·,&]|및\s)|조직도|"
    r"비상\s?연락망|"
    # a notice titled by what it tells: "지하주차장 방수공사 일정 통보", "여름철 운영시간 연장 및 정기 휴장일 변경"
    r"(?:통보|알림|공고|안내문)\s*$|(?<=[가-힣]\s)(?:변경|연장|인상|인하|조정|일정)\s*$|"
    # a mail titled by what it asks or answers: "번역 취소 및 환불 문의", "견적 요청 회신"
    r"(?<=[가-힣]\s)(?:문의|답변|회신|질의|요청)\s*$|"
    # a rule's article ("제7조 (기물 파손)"), a page introducing its staff ("강사 소개 및 담당반")
    r"^\s*제\s?\d+\s?조|(?:강사|교사|직원|선생님|멤버|스태프)\s?소개|(?:강사|교수|의료|임원|운영)진$|"
    r"님과\s?카카오톡\s?대화|카카오톡\s?대화|kakaotalk|"
    r"\b(?:staff|team|committee)\s+(?:and|&)\s+contacts\b|\bcontacts? (?:list|sheet)\b|"
    r"\bcontacts\s+(?:and|&)\s+roles\b|"
    # a newsletter's issue, a meeting, a notice, an agenda item, a forwarded mail's header
    r"\b(?:newsletter|bulletin)\b|\bnews\s*[–—:|-]\s*(?:(?:spring|summer|autumn|fall|winter|christmas|easter)\b|issue\b|"
    r"no\.|vol\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|\d)|(?:team|staff|committee|board|trustees'?|general|annual|ops|operations|volunteers?)"
    r" meeting\b|\b[ae]gm\b|^\s*(?:agenda )?item\s+\d+[.:)]|^\s*(?:안건|의제)\s*\d|original message|forwarded message|"
    r"가정통신문|소식지|뉴스레터|회보|\d{1,2}\s?월호|(?:봄|여름|가을|겨울|신년|송년|특별|창간)\s?호(?![가-힣])|원본\s?메일|"
    # a heading speaking for the writer: "우리 가게 사람들", "Our team"
    r"^\s*(?:우리|저희)\s|^\s*our (?:team|people|staff|story|history|services|prices|rooms|tutors|teachers)\b|"
    r"전달(?:된|한)?\s?메일|공지문?\s*$|"
    r"(?:운영|정기|월례|주간|월간|직원|교사|강사|임원|팀|부서|전체|임시|정례)\s?회의\s*(?:\(.*\))?$|"
    r"指南|手册|文档|说明书|目录|概述|ガイド|マニュアル|資料|一覧|説明書|概要",
    re.I,
)
_SLUG = re.compile(r"[^\W_]_+[^\W_]|https?://|www\.", re.I)


def document_subject(name: str) -> bool:
    """Whether a subject names a document ("Smartphone Usage Guide", "Product Specification Document") rather
    than the thing a user asks about: the facts under it belong to what the document describes. A version or a
    date after the title is the file's ("직원연락처 2025", "Price list v2 FINAL")."""
    return DOCUMENT_WORDS.search(name) is not None or DOCUMENT_WORDS.search(_FILE_VERSION.sub("", name)) is not None


#: A version, a draft mark or a date at the end of a file's title: "v2", "FINAL", "(수정)", "2025", "2025-03".
#: A file name's version or draft mark: "v2", "v1.3", "FINAL", "draft", "최종2", "수정".
VERSION_MARK = r"v\d+(?:\.\d+)*|final|draft|최종\d*|수정"
_FILE_VERSION = re.compile(
    rf"(?:[\s_\-–]*(?:{VERSION_MARK}|\d{{2,4}}(?:[.\-]\d{{1,2}}){{0,2}}|[(（][^()（）]*[)）]))+\s*$", re.I
)


def document_kind(title: str) -> bool:
    """Whether a title names a document that carries facts of its own: a policy, rules, a contract."""
    return _DOCUMENT_KINDS.search(title) is not None


def file_stem_title(title: str, doc_id: str) -> bool:
    """Whether a page's title is its file's name, marked with a date, a period or a version ("원데이 7월 일정 최종2",
    "fees 2024-25", "시험일정 2025 3-4월"): the page has no heading, and nobody calls a thing by its file's name."""
    stem = clean_stem(PurePosixPath(PurePosixPath(doc_id).name).stem)
    return normalize(stem) == normalize(title) and _STEM_MARK.search(title) is not None


#: A file name's date, period or version: "2024", "24-25", "7월", "3-4월", "v2", "FINAL", "최종2", "(수정)".
_STEM_MARK = re.compile(
    rf"(?<![^\s_(-])(?:20\d\d(?:년\s?(?:\d{{1,2}}월)?)?|\d{{1,2}}(?:-\d{{1,2}})?월|{VERSION_MARK}|\d{{2}}[.-]\d{{2}})"
    r"(?![^\s_)-])",
    re.I,
)


def day_dated(doc_id: str) -> bool:
    """Whether a file's name dates it to one day or week ("rota_wc_03-03-2025", "2025-01-14 직원회의록",
    "카톡공지_250320"): a rota's or a log's figures hold for that day or week only."""
    return _DAY_DATE.search(PurePosixPath(doc_id).name) is not None


#: A day's date in a file name: "03-03-2025", "2025-01-14", "12.02.2025", "250320", "w-c 13 Jan"; or a week's
#: number: "rota_w14_2025", "week 9", "4월 2주차".
_DAY_DATE = re.compile(
    r"(?<!\d)(?:\d{1,2}[-._]\d{1,2}[-._](?:20)?\d{2}|20\d{2}[-._]\d{1,2}[-._]\d{1,2}|\d{6})(?!\d)|\bw[-/ ]?c\b"
    r"|(?<![a-z0-9])(?:w|wk|week)[-_ ]?\d{1,2}(?!\d)|\d주차",
    re.I,
)


def file_name_problem(question: str) -> str | None:
    """Why the question names something by a file name or slug, or None."""
    if _FILE.search(question):
        return "a file name in the question"
    if _SLUG.search(question):
        return "a slug or address in the question"
    return None


_DOCUMENT_META = re.compile(
    r"\b(?:effective|version|revision|revised|review(?:ed)?|updated|approved|issued|owner|author|valid)\b|"
    r"시행|개정|승인|발행|작성|버전|生效|修订|版本|施行|改訂|発行",
    re.I,
)


# Titles of documents that carry facts of their own (an effective date, a version): policies, contracts, rules.
_DOCUMENT_KINDS = re.compile(
    r"\b(?:polic(?:y|ies)|procedures?|regulations?|rules|terms|agreements?|contracts?|guidelines?|charter|"
    r"code of conduct|standard)\b|규정|정책|약관|계약|지침|규칙|政策|规定|条款|合同|規程|規定|契約",
    re.I,
)


def meta_asked_of_another(attribute: str, subject: str, question: str) -> bool:
    """Whether a document's own fact (its version, owner, effective or review date) of a subject that is a document
    ("Booking and Cancellation Policy – Brackenfield Sports Hall") is asked without naming the document: by the hall's
    name it would be the hall's version."""
    kind = _DOCUMENT_KINDS.search(subject)
    return (
        _DOCUMENT_META.search(attribute) is not None
        and kind is not None
        and normalize(kind.group()) not in normalize(question)
    )


def document_owned(attribute: str, doc_title: str, subject: str) -> bool:
    """Whether a fact belongs to the document it is printed in rather than to `subject`: "Effective Date" of a
    page titled "Professional Development Policy" is the policy's, even under a heading naming the university."""
    return (
        _DOCUMENT_META.search(attribute) is not None
        and (document_subject(doc_title) or _DOCUMENT_KINDS.search(doc_title) is not None)
        and not (document_subject(subject) or _DOCUMENT_KINDS.search(subject) is not None)
    )


def minutes_date(attribute: str, doc_title: str) -> bool:
    """Whether a labelled date is the one a meeting's minutes open with ("**Date:** Monday 15 January 2024, 8:15am"):
    the page's own, which a series of minutes repeats with another date on every page."""
    return _DATE_LABEL.fullmatch(attribute.strip()) is not None and _MINUTES.search(doc_title) is not None


_DATE_LABEL = re.compile(r"(?:date|date and time|time|when|held on|일시|날짜|일자|회의\s?일시|日期|日時)", re.I)
_MINUTES = re.compile(r"\b(?:minutes|meeting|agenda)\b|회의록|회의|议事录|会议记录|議事録", re.I)


# A company's legal suffix in a page title ("Aventro Motors Pvt. Ltd."), and measures only an object has.
_COMPANY = re.compile(r"\b(?:pvt|ltd|inc|llc|llp|plc|corp|gmbh|co)\b\.?", re.I)
_OBJECT_MEASURES = re.compile(
    r"\b(?:width|length|height|weight|wheelbase|ground clearance|mileage|engine|torque|horsepower|top speed|"
    r"battery capacity|dimensions|payload|boot space)\b",
    re.I,
)


def organisation_measure(attribute: str, doc_title: str, subject: str) -> bool:
    """Whether an object's measure (width, engine, payload …) is given to the company a page's title names ("Aventro
    Motors Pvt. Ltd." over one car's specification: "What is Aventro Motors' width?")."""
    company = _COMPANY.search(doc_title) is not None
    named = normalize(subject) in normalize(doc_title)
    return company and named and _OBJECT_MEASURES.search(attribute) is not None


#: Words a rule's title shares with any other ("및", "and", "the"), left out when titles are compared.
_RULE_TITLE_STOP = frozenset("및 과 와 의 and the of for & a an our".split())


def rule_words(title: str) -> frozenset[str] | None:
    """The words of a rule's title, without its kind, version or date ("예약 및 환불 규정(최종)" → 예약, 환불;
    "Booking & Cancellation Policy (FINAL)" → booking, cancellation), or None when the title names no rule."""
    kind = _DOCUMENT_KINDS.search(title)
    if kind is None:
        return None
    bare = _FILE_VERSION.sub("", title)
    words = re.findall(r"[^\W\d_]+", normalize(_DOCUMENT_KINDS.sub(" ", bare)))
    return frozenset(w for w in words if w not in _RULE_TITLE_STOP and len(w) >= 2)
