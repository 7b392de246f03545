"""Names people use, as plain text: a title without its subtitle or brackets, and whether a string is a name a
person would type as the subject of a question (not a file name, slug, domain, id or sentence).

Shared by the corpus loader (document titles), entity resolution and the quality gate; it depends on nothing
but text helpers, so the loader need not reach up into the knowledge graph.
"""

from __future__ import annotations

import re
from functools import lru_cache

from testgen.lang import GENERIC_HEADINGS, OFFER_KINDS
from testgen.lang.scripts import CJK
from testgen.text import is_cjk, normalize

# A subtitle starts after " - ", " – ", " | ", ": " or an em dash (spaced, or unspaced between Latin words:
# "Quinazolinones—Synthesis").
# Between CJK words a single em dash joins names ("罗素—爱因斯坦宣言"); a doubled one starts a subtitle.
# A pictograph between spaced words does too: "몽글몽글 펫살롱 🐾 살롱 소개".
_SUBTITLE = re.compile(
    r"\s[\-–|]\s|[:：]\s|\s+—+\s*|\s*—+\s+|(?<=[^\W\d_])—(?=[A-Za-z])|——+|"
    r"(?<=\S)\s+[\U0001F300-\U0001FAFF\u2600-\u27BF][\U0001F300-\U0001FAFF\u2600-\u27BF\uFE0F]*\s+(?=\S)"
)


def short_title(title: str) -> str:
    """A title without its subtitle: "Contract with X for Y: Z" → "Contract with X for Y",
    "Velvera Watch Series — Product Specification Document" → "Velvera Watch Series"; when the first part only
    says what kind of page it is, the part that names something: "회사 소개 | 주식회사 온담헬스케어" → "주식회사
    온담헬스케어", "About us | Acme Corp" → "Acme Corp"."""
    parts = [p.strip() for p in _SUBTITLE.split(title.strip()) if p.strip()]
    if not parts:
        return title.strip()
    if len(parts) >= 2 and (page_kind_title(parts[0]) or is_generic_title(parts[0])):
        named = next((p for p in parts[1:] if not page_kind_title(p) and not is_generic_title(p)), None)
        if named is not None:
            return named
    return parts[0]


#: Labels of a thing's own name ("Company name", "명칭", "상호"): asked by that name, the answer is in the question.
NAME_LABEL = re.compile(
    r"(?:(?:company|legal|official|full|registered|organi[sz]ation|business|trading)\s+)?name"
    r"|회사명|법인명|상호|상호명|업체명|기관명|단체명|시설명|명칭|정식\s*명칭|이름|名称|名前",
    re.I,
)
_PARENTHETICAL = re.compile(r"\s*[(（][^()（）]*[)）]")


def without_parentheticals(name: str) -> str:
    """A name without its bracketed parts: "Haneul Travel (하늘여행)" → "Haneul Travel", "HBO (频道)" → "HBO".

    Returns ``name`` unchanged when nothing would be left. Whether the shorter form is still unambiguous is
    the caller's question (two pages "Mercury (planet)" and "Mercury (element)"): see :func:`resolve_entities`.
    """
    bare = " ".join(_PARENTHETICAL.sub("", name).split())
    return bare if re.search(r"\w", bare) else name.strip()


@lru_cache(maxsize=65536)
def without_trailing_note(text: str) -> str:
    """A name or value without the note in brackets at its end, brackets inside the note too: "Leeds (Head
    Office)" → "Leeds", "약 5,000명 (예산 소진 시 조기 마감)" → "약 5,000명", "화~토 (일·월 휴무, 첫날 25/02/17(월)
    상견례만 예외)" → "화~토"; the text itself (stripped) when nothing would be left."""
    stripped = text.strip()
    if not stripped.endswith((")", "）")):
        return stripped
    depth = 0
    for i in range(len(stripped) - 1, -1, -1):
        depth += stripped[i] in ")）"
        depth -= stripped[i] in "(（"
        if depth == 0:
            return stripped[:i].rstrip() or stripped
    return stripped


# -- names people use ---------------------------------------------------------------------------------------

_FILE_EXTENSION = re.compile(
    r"\.(?:md|markdown|txt|rst|html?|xhtml|php|aspx?|pdf|docx?|odt|rtf|json|jsonl|csv|tsv|xlsx?|pptx?|ya?ml|xml)$",
    re.IGNORECASE,
)
# A cleaned file stem keeps its extension as a last word ("recipes html", "40 1 html").
_EXTENSION_WORDS = frozenset("md markdown txt html htm php aspx pdf docx".split())
_TLDS = "com|org|net|io|edu|gov|info|biz|dev|app|ai|co|uk|eu|de|fr|jp|kr|cn|ru|in|au|ca|us|tv|me|wiki|run"
_DOMAIN = re.compile(
    rf"https?://|\bwww\.|\b[a-z0-9][a-z0-9-]*\.(?:[a-z0-9-]+\.)*(?:{_TLDS})\b"
    # a domain whose dots became spaces or underscores: "stardewvalleywiki com", "arxiv org pdf"
    r"|\b[a-z0-9][a-z0-9-]*[\s_](?:com|org|net|io|edu|gov)\b"
)
_HYPHEN_SLUG = re.compile(r"(?<![\w-])[a-z0-9]+(?:-[a-z0-9]+){3,}(?![\w-])")
_PLACEHOLDER = re.compile(r"(?:untitled|new document|document|doc|file|page|noname|no title)[\s_-]*\d*", re.I)
_LABEL_LINE = re.compile(r"(?:abstract|summary|text|title|keywords?|description|tl;?dr|note|background)\s*[:：]", re.I)
_ABBREVIATION_END = re.compile(r"(?:\b[A-Z][A-Za-z]{0,4}|\b[a-z]{1,3})\.$")  # "Ltd.", "Co.", "K.", "spp."
_CJK = re.compile(f"[{CJK}]")
_MAX_WORDS = 12
# What may follow a comma inside a name ("Acme Co., Ltd.", "Martin Luther King, Jr."); anything else makes the
# name a list or an address ("Ground Floor, Lotus Plaza, Ashram Road").
_NAME_SUFFIX_AFTER_COMMA = re.compile(r"\s*(?:inc|ltd|llc|llp|plc|co|corp|gmbh|ag|sa|bv|jr|sr|ii|iii|iv)\b\.?", re.I)
_MAX_CJK_CHARS = 25


def _year_like(digits: str) -> bool:
    return len(digits) == 4 and 1000 <= int(digits) <= 2099


def leading_number_end(name: str, *, spaced: bool) -> int:
    """Where a number that numbers a file rather than naming a thing ends (0 when there is none).

    Followed by ``_`` or ``)`` ("3_notes", "2628_…", "1)"), by ". " ("1. Overview"), or by "-" and a letter
    when zero-padded or a long non-year ("01-intro", "123-x"; "2019-nCoV" and "3-year" are names). With
    ``spaced``, a number followed by a space counts too, unless it is a year or a small count ("1918
    Influenza", "3 Idiots"): zero-padded, five digits and more, or three to four digits that are no year.
    """
    match = re.match(r"(\d+)(?:([_)])|(\.)\s|(-)(?=[^\W\d_])|(\s)(?=\S))", name)
    if match is None:
        return 0
    digits = match.group(1)
    numbered = digits.startswith("0") or len(digits) >= 5 or (len(digits) >= 3 and not _year_like(digits))
    if match.group(2) or match.group(3) or (match.group(4) and numbered) or (match.group(5) and spaced and numbered):
        return match.end()
    return 0


def _leading_id(name: str) -> bool:
    """A number that numbers the file rather than naming the thing: "2628 Haunted…", "01-intro", "3_notes"."""
    return leading_number_end(name, spaced=True) > 0


def _id_token(word: str) -> bool:
    """A hash or opaque id ("ljtdg6eaucrbf1aksw5rm", "acf2defda30e"): long, lowercase, letters and digits mixed."""
    if len(word) < 8 or not word.isalnum() or not word.isascii() or word.lower() != word:
        return False
    return sum(ch.isdigit() for ch in word) >= 2 and sum(ch.isalpha() for ch in word) >= 2


#: A Korean sentence's polite ending: "…습니다", "…합니다", "…드립니다", "…해요".
_KO_POLITE_END = re.compile(r"[가-힣](?:습니다|ㅂ니다|니다|세요|어요|아요|해요)[.!]?$")


def _ko_plain_statement(text: str) -> bool:
    """A Korean headline or statement in the plain style: an ellipsis between clauses ("…생긴다…다음 달 7일 첫
    운행"), or a verb ending in 다 after ㄴ/는 or a past tense ("생긴다", "연다", "늘었다")."""
    if re.search(r"[가-힣]\s*(?:…|\.\.\.)\s*[가-힣0-9]", text):
        return True
    found = re.search(r"([가-힣])다$", text)
    if found is None or len(text) < 3:
        return False
    last = ord(found.group(1)) - 0xAC00
    return last % 28 == 4 or found.group(1) in "는했됐었았였겠"  # ㄴ under the syllable: 긴다, 연다, 한다


def _sentence_like(name: str) -> bool:
    text = name.strip().strip("\"'“”‘’")
    if _LABEL_LINE.match(text):
        return True  # "Abstract: We report…"
    if "。" in text.rstrip("。") or re.search(r"[?？]\s*\S", text):
        return True  # a sentence break inside the name
    if text.endswith(("?", "？", "。")):
        return True  # a question or a statement; "!" ends brand names too ("Yahoo!", "停止！！云雀")
    words = text.split()
    if text.endswith("!") and len(words) >= 4:
        return True  # "Earn SkyPoints Faster with Us!"
    if text.endswith(".") and not _ABBREVIATION_END.search(text):
        return True
    if name.strip()[:1] in "\"“'‘" and len(words) >= 4:
        # a quotation as a title ('"The bikes go where the van can't"'): a song's or a book's name capitalises
        # its words, what someone said does not
        lower = [w for w in words[1:] if w.isascii() and w[:1].islower() and w.lower() not in _GLUE_WORDS]
        if len(lower) * 2 >= len(words):
            return True
    latin = [w for w in words if re.search(r"[A-Za-z]", w)]
    content = [w for w in latin if w.lower() not in _GLUE_WORDS]
    if len(content) >= 6 and len(latin) == len(words) and text == text.upper():
        return True  # a headline in capitals ("LOCAL BATTERY MAKER POWERS FOOD BANK'S NEW DELIVERIES")
    # "condition is a boolean, True of False": prose starts with a lowercase word; names rarely do
    return len(words) >= 4 and words[0].isalpha() and words[0].isascii() and words[0].islower()


#: Short words a title leaves in lower case ("The Lord of the Rings").
_GLUE_WORDS = frozenset("a an the of and or in on at to for by with from".split())


def name_problems(name: str) -> tuple[str, ...]:
    """Why ``name`` is not a name a person would type as the subject of a question; ``()`` when it is.

    Each problem is one of:

    - ``empty``: nothing but spaces or punctuation;
    - ``file extension``: ends with ``.md``, ``.txt``, ``.html``, ``.pdf``, … or, once cleaned, a last word
      ``html``/``md``/… ("15 chakoteya net DoctorWho 40 1 html");
    - ``underscore``: a slug or identifier (``Version_History``, ``Google_検索``);
    - ``url or domain``: ``https://``, ``www.``, ``example.com``, or a domain whose dots became spaces
      (``stardewvalleywiki com``);
    - ``slug``: four or more lowercase words joined by hyphens (``so-into-northern-spain``), or an opaque
      id token (``ljtdg6eaucrbf1aksw5rm``);
    - ``leading id``: a number that numbers the file, not the thing ("2628 Haunted…", "01-intro",
      "3_notes", "1. Overview"); years ("1918 Influenza") and small counts ("3 Idiots") are fine;
    - ``placeholder``: "untitled", "untitled 2", "document 3", …;
    - ``too long``: more than 12 words, or a run of more than 25 Chinese/Japanese/Korean characters;
    - ``sentence``: reads as prose, not as a name: ends with ``. ? !`` (abbreviations such as "Ltd." and
      initials are fine), has a sentence break inside, opens with a label such as "Abstract:", or opens
      with a lowercase word and runs to four words or more;
    - ``statement``: a Korean statement or headline ("바로잡습니다", "77번 버스 생긴다…다음 달 7일 첫 운행"): a
      plain-text page's first line may still be its title;
    - ``too short``: fewer than two letters or digits ("A", a grade in a table);
    - ``list or address``: a comma inside, except before a company or generation suffix ("Co., Ltd.",
      ", Jr."): "Ground Floor, Lotus Plaza, Ashram Road";
    - ``lowercase``: two or more Latin words with no capital letter or digit at all ("audio catalog",
      "so into northern spain"): a cleaned slug, not a name as it is written;
    - ``question``: opens with a question word ("What goes in which bin"): a page's headline;
    - ``kind``: a Korean word for a kind of organisation or staff alone, or with 소개 ("학원", "강사 소개");
    - ``salutation``: a Korean letter's greeting line ("정하린 고객님께").

    Names in any script are judged; the checks on case apply only to Latin words. The function is pure and
    cheap, so a quality gate can call it on every generated question's subject.
    """
    text = " ".join(name.split())
    if not re.search(r"\w", text):
        return ("empty",)
    problems: list[str] = []
    words = [w for w in text.split() if re.search(r"\w", w)]  # "&" and "—" are not words
    if _FILE_EXTENSION.search(text) or (len(words) > 1 and words[-1] in _EXTENSION_WORDS):
        problems.append("file extension")
    if "_" in text:
        problems.append("underscore")
    if _DOMAIN.search(text):
        problems.append("url or domain")
    if _HYPHEN_SLUG.search(text) or any(_id_token(w) for w in words):
        problems.append("slug")
    if _leading_id(text):
        problems.append("leading id")
    if _PLACEHOLDER.fullmatch(text):
        problems.append("placeholder")
    if len(words) > _MAX_WORDS or any(len(run) > _MAX_CJK_CHARS for run in re.findall(f"(?:{_CJK.pattern})+", text)):
        problems.append("too long")
    if _sentence_like(text):
        problems.append("sentence")
    elif _KO_POLITE_END.search(text) or _ko_plain_statement(text):
        problems.append("statement")  # a page's headline may be its title, never a question's subject
    if len(re.findall(r"\w", text)) < 2:
        problems.append("too short")
    if any(not _NAME_SUFFIX_AFTER_COMMA.match(part) for part in text.split(",")[1:]):
        problems.append("list or address")
    latin = [w for w in words if re.fullmatch(r"[A-Za-z][A-Za-z'’&.-]*", w)]
    if len(words) >= 2 and len(latin) == len(words) and text == text.lower():
        problems.append("lowercase")
    if _WH_OPENING.match(text):
        problems.append("question")
    if _KO_KIND_ONLY.fullmatch(text):
        problems.append("kind")
    if re.search(r"[가-힣](?:님께|께서|에게|님에게)$", text):
        problems.append("salutation")  # "정하린 고객님께": a letter's greeting line, not a name
    return tuple(problems)


#: A title asking something ("What goes in which bin", "How to find us"): a page's headline, not a name.
_WH_OPENING = re.compile(r"(?:what|which|how|where|when|why|who)\s+\w", re.I)
#: A Korean word for a kind of organisation or of staff, alone or after "우리"/"저희" ("학원" of "학원 소개", "강사" of
#: "강사 소개"): what a page introduces, not the name of the one it is.
_KO_KIND_ONLY = re.compile(
    r"(?:(?:우리|저희)\s?)?(?:학원|병원|의원|회사|학교|센터|기관|단체|재단|협회|도서관|캠핑장|농장|매장|가게|식당|카페|"
    r"강사진?|의료진|직원|교사|선생님|임원|임직원|부서|당사|본사|시설|비급여)(?:\s?(?:소개|안내|정보))?"
    # a staff word made with a suffix ("정비사", "연구원"), only with 소개: alone it may be a name ("이지원")
    r"|[가-힣]{1,2}(?:사|원|관|자|진)\s?(?:소개|안내)"
)


def is_usable_name(name: str) -> bool:
    """Whether ``name`` can be the subject of a question: the name a person would type for the thing.

    False for file names with an extension, slugs and identifiers with underscores, URLs and domains,
    hyphenated lowercase slugs and opaque ids, leading numeric ids ("2628 …", "01-…"), placeholders
    ("untitled 2"), names over about 12 words (25 CJK characters), sentence-like text and all-lowercase
    multi-word Latin slugs. :func:`name_problems` gives the reasons. Examples::

        is_usable_name("Aurora Cargo Max")                         # True
        is_usable_name("하늘여행")                                   # True
        is_usable_name("陆军总司令部")                               # True
        is_usable_name("16 stardewvalleywiki com Version History")  # False: url or domain, leading id
        is_usable_name("notes.md")                                  # False: file extension
        is_usable_name("Abstract: We measured …")                   # False: sentence

    Subjects built by :func:`resolve_entities` are short titles of documents, table row headers and
    recurring values; a quality gate rejects a question whose subject fails this test.
    """
    return not name_problems(name)


def is_generic_title(title: str) -> bool:
    """Titles that name a kind of page, not a thing ("Company Overview", "연혁", "FAQ")."""
    words = re.findall(r"\w+", normalize(title))
    return not words or all(w in GENERIC_HEADINGS or w.isdigit() for w in words)


_GLUE = {"of", "the", "and", "&", "for", "about", "on", "및", "의"}


def title_core(title: str) -> str:
    """A title without its generic words: "History of Aurora Bikes" → "aurora bikes", "하늘여행 연혁" → "하늘여행"."""
    words = re.findall(r"\w+", normalize(short_title(title)))
    return " ".join(w for w in words if w not in GENERIC_HEADINGS and w not in _GLUE)


_EDGE_GLUE = frozenset({"with", "for", "of", "the", "and", "&", "on", "about", "및", "의"})


def title_cased(name: str) -> str:
    """A name in capitals with each word capitalised, small joining words lower-cased inside it: "KESSLER FALLS
    SCHOOL DISTRICT NO. 14" → "Kessler Falls School District No. 14", "BANK OF THE WEST" → "Bank of the West"."""
    words = name.split()
    return " ".join(
        w.lower() if 0 < i < len(words) - 1 and w.lower() in _SMALL_WORDS else w[:1] + w[1:].lower()
        for i, w in enumerate(words)
    )


_SMALL_WORDS = frozenset("of and the for at in on de du la van von".split())


def without_legal_form(name: str) -> str:
    """A Korean organisation's name without its legal form, as people write it: "재단법인 늘품나눔재단" →
    "늘품나눔재단", "주식회사 윤슬로지" → "윤슬로지", "(주)하늘여행" → "하늘여행", "도서출판 소금빛" →
    "소금빛"; the name itself otherwise."""
    return _LEGAL_FORM.sub("", name).strip() or name


_LEGAL_FORM = re.compile(
    r"^(?:주식회사|유한회사|재단법인|사단법인|학교법인|의료법인|사회복지법인|법무법인|세무법인|회계법인|특허법인|노무법인"
    r"|도서출판|\(주\)|㈜)\s*|\s*(?:주식회사|\(주\)|㈜)$"
)


#: A work's title in the quotation brackets Korean, Chinese and Japanese set titles in: 《겨울, 수선집》, 「…」, 〈…〉.
QUOTED_WORK = re.compile(r"《[^《》]{2,40}》|『[^『』]{2,40}』|「[^「」]{2,40}」|〈[^〈〉]{2,40}〉")


def core_name(name: str) -> str:
    """A name without the kind words at its edges, as people shorten it: "Contract with Bergfeld Logistik" →
    "Bergfeld Logistik", "Warranty and Returns policy" → "Warranty and Returns", "세진전자 포상여행 계약" →
    "세진전자 포상여행", "『소리를 모으는 사람』" → "소리를 모으는 사람" (a work's title without its brackets). The name
    itself when nothing is left or nothing was stripped."""
    if QUOTED_WORK.fullmatch(name.strip()):
        return name.strip()[1:-1]
    words = name.split()
    if len(words) >= 2 and normalize(words[-1]) in OFFER_KINDS:
        return " ".join(words[:-1])  # "Team Plan" → "Team", as the plan's column and the page call it
    while words and normalize(words[0]) in GENERIC_HEADINGS | _EDGE_GLUE:
        words.pop(0)
    while words and normalize(words[-1]) in GENERIC_HEADINGS | _EDGE_GLUE:
        words.pop()
    core = " ".join(words)
    if len(words) == 1 and is_cjk(core) and len(core) <= 2:
        return name  # "제주 지점" is not "제주": a place name alone names the island, the city, the product …
    return core or name


# -- titles of pages, not names of things ---------------------------------------------------------------------

#: Words of titles that name a kind of page or of content ("Office Locations", "Post-mortem", "팀 소개",
#: "휴가·복지 제도"), beside the generic headings: a question about such a page's fact has no thing to name.
PAGE_KIND_WORDS = GENERIC_HEADINGS | frozenset(
    """locations location offices office hours directory handbook guide guides onboarding checklist procedure
    procedures process processes post-mortem postmortem retrospective minutes meeting meetings agenda announcement
    announcements news updates changelog notice notices welcome introduction press release releases immediate
    standard operating sop fares tickets fees rates timetable timetables events programme calendar staff list lists
    rota roster newsletter bulletin opening closing
    소개 연혁 공지 공고 제도 절차 휴가 복지 팀 회의록 회의 가이드 매뉴얼 체크리스트 온보딩 프로세스 업무 결과 보고
    보고서 자료 규칙 지침 공시 의료진 교수진 강사진 임직원 구성원 단원 조직도 모음 문답 질의응답 정정보도 보도자료
    연락망 비상연락망 연락처 내선번호 전화번호부
    재단 기관 단체 법인 협회 조합 병원 학교 센터 도서관 연구소 foundation firm 사업 실적 계획 예산 활동""".split()
)
_WHATS_ON = re.compile(r"\bwhat['’]s on\b")
#: A Korean particle glued to the last word of a title's part ("회사 소개와 연혁": 소개 + 와).
_KO_JOINING = re.compile(r"(?<=[가-힣])(?:와|과|및|의)$")


@lru_cache(maxsize=65536)
def page_kind_title(name: str) -> bool:
    """Whether a name is made only of words for kinds of page ("Office Locations", "Post-mortem", "회사 소개와
    연혁", "팀 소개", "휴가·복지 제도"): the title of a page, not the name of what its facts are about."""
    # a particle glued on ("소개와") is dropped, not the end of a kind word ("결과")
    name = _WHATS_ON.sub("events", normalize(name))  # "What's On — Spring 2025": a page of events
    words = [w if w in PAGE_KIND_WORDS else _KO_JOINING.sub("", w) for w in re.findall(r"[\w\-]+", name)]
    words = [w for w in words if w and w not in _GLUE]
    return bool(words) and all(w in PAGE_KIND_WORDS or _PERIOD_WORD.fullmatch(w) for w in words)


#: A year or part of one among a page's kind words: "2024년도 사업 결과 보고" names a year's report, no thing.
_PERIOD_WORD = re.compile(
    r"\d+(?:년도?|분기|월)?|(?:fy)?\d{2,4}|상반기|하반기|q[1-4]|h[12]|spring|summer|autumn|fall|winter|봄호?|여름호?|가을호?|겨울호?"
)


#: Words that only introduce a page's subject: "About Tarnwell Renewables", "Introducing Evenflow", "윤슬로지 소개".
_INTRODUCING = re.compile(r"^(?:about|introducing|meet|welcome to|all about)(?:\s+the)?\s+(?=\S)", re.I)
# A Korean title's trailing words that name the document, not its subject: "… 소개", "… 추진 결과 보고", "… 참여자
# 모집 공고", "… 정기 경영공시".
_KO_INTRODUCING = re.compile(
    r"\s*(?:(?:(?<=\s)(?:병원|회사|기관|학교|센터|단체)\s*)?(?:브랜드\s*)?소개(?:\s*페이지)?|개요|(?:추진\s*)?(?:결과\s*)?보고서?|(?:(?:참가|참여|신청)\s*)?(?:[가-힣]+\s)?모집(?:\s*공고)?|선발\s*공고|(?:시행\s*)?공고|(?:정기\s*)?(?:경영\s*)?공시|"
    r"(?:사용\s*)?설명서|매뉴얼|(?:비상\s*)?연락망|(?:사내\s*)?위키|"
    r"(?:(?:가맹점|고객|현장|사내|내부)\s*)?(?:업무|운영|상담|응대)\s*(?:매뉴얼|위키|지침|편람|가이드)|"
    r"(?<=\s)(?:[가-힣]+\s*(?:및|·|/|&)\s*)?[가-힣]+\s명단|(?:찾아)?오시는\s*길|이야기|사람들(?:\s*(?:&|및|·)\s*연락처)?|"
    r"(?:연간\s*)?활동(?:\s*보고서?)?|가정\s*통신문(?:\s*제?\s*[\d-]+\s*호)?|(?:구성원|임직원|교직원|직원)\s*현황|"
    r"(?:직원|부서|부서별|팀별)\s*연락처|(?:점포|매장|지점)\s*(?:안내|현황|목록)|조직도(?:\s*(?:및|·|/|&)\s*(?:(?:직원|부서|부서별|팀별)\s*)?연락처)?|(?:제품\s*)?사양서?|(?:(?:연습|공연|행사|교육|운영|수업)\s*)?일정표?|(?:진료|이용|시설|입원|외래|방문|서비스)\s*안내(?:문|서)?|"
    r"(?:(?<=\s)[가-힣]+\s)?(?:진료\s*)?(?:비용|요금|가격|수수료|이용료|진료비)\s*안내(?:문|서)?)$"
)
#: A joining word left at the end of a title once what it joined is cut: "… 회사 소개 및".
_KO_JOINED_END = re.compile(r"\s+(?:및|과|와)$|\s*[·/&,]$")
#: A Korean welcome page's title: "새길로지스 사내 위키에 오신 것을 환영합니다 👋" welcomes to 새길로지스.
_KO_WELCOME = re.compile(
    r"^(.+?)(?:\s*(?:사내|공식))?(?:\s*(?:위키|홈페이지|포털|블로그|누리집))?에\s*오신\s*(?:것을|걸)\s*환영합니다[.!]*$"
)
#: A Korean history page's title: "새솔신협이 걸어온 길", "새솔신협의 발자취" tell 새솔신협's history.
_KO_HISTORY_OF = re.compile(r"^(.+?)(?:이|가)\s*걸어온\s*길$|^(.+?)의\s*(?:발자취|역사)$")
#: A version or revision note closing a title: "[최종 / 25.03.24 수정]", "(v2, FINAL)", "(개정)", "(2024년 9월 기준)".
_VERSION_NOTE = re.compile(
    r"\s*[\[(（][^\[\]()（）]{0,30}(?:수정|개정|최종|초안|기준|final|draft|rev\.?\s*\w+|v\d[\w.]*)[^\[\]()（）]{0,20}[\])）]\s*$",
    re.I,
)
#: Pictographs a title is decorated with ("👋", "☕").
_EMOJI = re.compile(r"[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F]")
#: An introducing word before the name, as file names put it: "회사소개 흙결공방", "기관 소개 - 새벌구청".
_KO_INTRODUCING_BEFORE = re.compile(r"^(?:회사|기관|재단|단체|학교|팀|공방|매장)?\s?소개\s*[-–:]?\s+(?=\S)")
#: A guide of some kind titled with the body or place it is for: "서하시립박물관 관람 안내", "솔내도서관 이용 안내",
#: "푸른솔동물병원 진료시간".
_KO_GUIDE_OF = re.compile(
    r"^(.+?(?:박물관|미술관|도서관|기념관|문화관|체육관|병원|의원|센터|사무소|학교|공원|재단|협회|공단|호텔|(?<!대)학원|요양원|"
    r"캠핑장|어린이집|유치원|정비소))"
    r"\s+(?:[가-힣]{2,6}\s?안내(?:문|서)?|(?:진료|운영|이용|영업|관람)\s?시간(?:\s?안내)?|요금표)$"
)
#: A degree or credential after a person's name: "Samir Haddad, M.Ed.", "Ana Ruiz, PhD".
_CREDENTIAL = re.compile(
    r",\s*(?:Ph\.?\s?D\.?|M\.?D\.?|M\.?B\.?A\.?|M\.?S(?:c)?\.?|M\.?A\.?|M\.?Ed\.?|M\.?F\.?A\.?|B\.?S(?:c)?\.?|"
    r"B\.?A\.?|R\.?N\.?|CPA|Esq\.?)$"
)
#: A tag before a title that says what kind of post it is: "[공지] …", "[보도자료] …", "【お知らせ】…", "[Notice] …".
_TITLE_TAG = re.compile(r"^\s*(?:\[[^\]]{1,20}\]|【[^】]{1,20}】)\s*(?=\S)")


#: A Korean body's name after the year a page is for: "2024학년도 솔빛마루어린이집", "2025년 가온누리병원".
_KO_DATED_BODY = re.compile(
    r"^(?:19|20)\d{2}\s*(?:학년도|년도?)\s+([가-힣][가-힣\s]*(?:어린이집|유치원|학교|병원|의원|센터|도서관|박물관|협회|재단|"
    r"신협|은행|교회|법인|회사))$"
)


@lru_cache(maxsize=65536)
def introduced_name(name: str) -> str:
    """A title without the words that only introduce its subject: "About Tarnwell Renewables" → "Tarnwell
    Renewables", "Introducing Evenflow" → "Evenflow", "윤슬로지 소개" → "윤슬로지", "2025년 서하시 청년 월세 지원사업
    추진 결과 보고" → "2025년 서하시 청년 월세 지원사업"; a post's tag ("[공지]") and a credential after a person's
    name (", M.Ed.") go too. The title itself when nothing else was stripped or what is left is no usable name
    ("About us", "회사 소개")."""
    name = _CREDENTIAL.sub("", _TITLE_TAG.sub("", name.strip()))
    name = _VERSION_NOTE.sub("", _EMOJI.sub("", name)).strip()  # "… 일정표 [최종 / 25.03.24 수정]", "… 👋"
    welcome = _KO_WELCOME.match(name) or _KO_HISTORY_OF.match(name)
    if welcome:
        bare = next(g for g in welcome.groups() if g)
    else:
        bare = _INTRODUCING.sub("", name).strip()
        for _ in range(3):  # "회사 소개 및 직원 연락처": each introducing part, with the word joining them
            cut = _KO_JOINED_END.sub("", _KO_INTRODUCING.sub("", bare).strip()).strip()
            if cut == bare:
                break
            bare = cut
        bare = bare.rstrip("!") if bare != name else bare  # "Welcome to Quillstone!"
    bare = _KO_INTRODUCING_BEFORE.sub("", bare).strip()  # "회사소개 흙결공방" (a file named 회사소개_흙결공방)
    guide = _KO_GUIDE_OF.match(bare)
    if guide:
        bare = guide.group(1)  # "서하시립박물관 관람 안내": the museum's guide for visitors
    dated = _KO_DATED_BODY.match(bare)
    if dated:
        bare = dated.group(1)  # "2024학년도 솔빛마루어린이집 이용안내": the guide's year, not the daycare's name
    if bare == name or not bare or page_kind_title(bare) or not is_usable_name(bare):
        return name
    if not is_cjk(bare) and not (bare[:1].isupper() or bare[:1].isdigit()):
        return name  # "About us", "about the team": no name follows
    return bare


#: Folder names that sort documents by their form (articles, a blog, reference pages), not by the kind of thing
#: they are about: no question says "which reference is X associated with?".
_FORM_FOLDERS = frozenset(
    """reference references blog blogs post posts article articles wiki wikis doc docs documentation page pages
    note notes report reports handbook handbooks misc general content contents kb archive archives resource
    resources guide guides news 문서 자료 위키 블로그 기사 보고서 게시글 참고 기타""".split()
)


def form_folder(doc_type: str) -> bool:
    """Whether a document type (a folder name) names a form of document rather than a kind of thing."""
    label = normalize(doc_type.split("/")[-1]).replace("_", " ").replace("-", " ")
    return label in _FORM_FOLDERS


#: Words for a price, in a label's last place and in a line that retells it.
PRICE_WORD = re.compile(
    r"\b(?:price[sd]?|fees?|costs?|charges?|rates?)\b|요금|비용|가격|수수료|금액|费用|价格|料金|価格", re.I
)


def priced_head(attribute: str) -> str | None:
    """The head word of the item a price label names ("Wellness or sick-pet exam price" → "exam", "MRI 요추 비용" →
    "요추"), or None when the label names no price or no item."""
    words = normalize(attribute).split()
    if len(words) < 2 or not PRICE_WORD.fullmatch(words[-1]):
        return None
    head = words[-2]
    return head if len(head) >= (2 if is_cjk(head) else 4) else None
