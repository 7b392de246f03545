"""Sentence seeds: a question made from a sentence of prose is only as good as the sentence standing alone
(**sentence_not_standalone**). Kept: a declarative sentence that names its own subject and states one dated or
counted thing. Dropped:

* a question, an exclamation, a heading-like label line (``Abstract: …``, ``Note: …``);
* a sentence that leans on the one before: it opens with a pronoun (``It``, ``They``, ``그는``, ``它``, ``彼は``)
  or a connective (``However``, ``또한``, ``此外``, ``しかし``), or points back (``this``, ``the above``, ``해당``);
* a footnote or a reference-list entry (opens with ``[10]``, ``^3``, ``¹``), a superscript mark left in it once
  inline citations (``[27]``, ``(Smith et al., 2019)``) are taken out, or a fragment (lower-case start, a few
  words);
* two sentences run together, or two dates in one sentence (which one is asked?); a Chinese or Japanese sentence
  that opens with its date (``1839年、オランダは…``, ``1921年，国际法院…``) is judged by the clause after the date,
  which is what its question keeps (in Chinese it must also have a subject and tell an event);
* English questions that invert a present-tense description (``When is X a newly identified pathogen?``) or
  start from an adverb (``When was Most recently the …``).
"""

from __future__ import annotations

import re

from schemas import FactNode
from testgen.kg.values import find_values
from testgen.lang.cjk import leading_date_rest
from testgen.lang.scripts import HAN
from testgen.text import plain_sentence

_LABEL_LINE = re.compile(r"^\s*[\w][\w \-/&]{0,30}[:：]\s")
_CITATION = re.compile(r"\[\s*\d+(?:\s*[-–,]\s*\d+)*\s*\]|\[\s*(?:citation|ref|note)[^\]]*\]|\^\d|[¹²³⁴⁵⁶⁷⁸⁹⁰]", re.I)
_EN_LEAD = frozenset(
    """it its it's they them their theirs he she his her him we our us you your i this these those that such
    there however therefore thus hence also moreover furthermore additionally besides meanwhile nevertheless
    nonetheless instead otherwise consequently accordingly and but or so yet then later afterwards similarly
    likewise here both another other others either neither one some""".split()
)
#: The writer's own words for the writer ("our", "we"; "US" in capitals is the country).
_EN_FIRST_PERSON = re.compile(r"(?<![\w'’])(?:[Oo]urs?|[Ww]e|us|[Mm]y)(?![\w'’])")
_KO_LEAD = re.compile(
    r"^(?:그|이|저|저희|우리|제가|저는|나는|내가|그녀|그들|이들|저들|이것|그것|저것|이는|그는|이러한|그러한|이런|그런|해당|위의?|아래의?|상기|"
    r"또한|그러나|하지만|그리고|따라서|그래서|그런데|또|이에|이후|이때|그때|한편|게다가|더불어|반면|즉|"
    r"예를\s*들어|예컨대|가령|다만|단|특히|이처럼|이와\s*같이|위와\s*같이|참고로)(?:\s|[은는이가을를의에도,])"
    # a rule's article heading run into its text: "제16조(임시총회) 회장이 …"
    r"|^제\s?\d+\s?조(?:의\s?\d+)?\s*[(（]"
    # a reply in a chat or a mail thread: "네 3월분부터 새싹반은 …", "아 그건 …"
    r"|^(?:네|넵|예|아|앗|음|헐|ㅇㅇ|ㅎㅎ|ㅋㅋ|맞아요|맞습니다|그럼요|물론이죠?)(?:[\s,.!~]|$)"
)
# Two events told in order in one Chinese sentence ("…回港后即主持…", "失联后将坠入").
_ZH_SEQUENCE = re.compile(r"后(?:即|便|就|随即|将|再|又|于|在)|随即|之后便|然后")
# A Chinese sentence whose subject is only a kind of thing ("会馆于2005年重新开放": which hall is named before).
_ZH_BARE_KIND = re.compile(
    r"^(?:公司|学校|大学|学院|会馆|医院|球队|球会|乐队|乐团|政府|组织|机构|车站|本站|教堂|寺院|电台|俱乐部|剧院|"
    r"博物馆|图书馆|协会|学会|委员会|集团|银行|工厂|铁路|线路|机场|港口|城市|政党|军队|部队|列车|歌曲|专辑|电影|"
    r"影片|作品|小说|游戏|节目|比赛|赛事|大桥|建筑|工程|计划|项目|法案|条约|妻子|丈夫|儿子|女儿|父亲|母亲)"
    r"(?:[于在已曾将也亦则又便就被由]|是)"
)
# The sentence after the evidence says the value changed ("悬红10万元。…悬红赏金增至30万元"): which one is asked?
_CHANGED_LATER = {
    "en": re.compile(
        r"\b(?:increased|raised|rose|reduced|cut|lowered|decreased|changed|revised|extended|updated|moved) to\b", re.I
    ),
    "zh": re.compile(r"(?:增|增加|提高|上调|提升|追加|升|降|减|下调|改|调整|更改|延长|缩短)(?:至|到|为)"),
    "ja": re.compile(r"に(?:引き上げ|引き下げ|増額|減額|変更|改め|延長|短縮)"),
    "ko": re.compile(r"(?:으로|로)\s*(?:인상|인하|변경|증액|감액|상향|하향|늘어|늘렸|줄어|줄였|연장|단축)"),
}
# A Chinese question opening with 什么时候 (after "关于X，") must go on with a verb or preposition:
# "什么时候获博士学位", not "什么时候学校升格…" (its subject after the question word) or "什么时候青山氏第四代藩主".
_ZH_OPENING_WHEN = re.compile(r"(?:^|^关于[^，,]+[，,])什么时候")
_ZH_VERB_START = re.compile(
    r"(?:在|于|由|被|以|与|从|自|起|开始|获|荣获|获得|取得|入选|公布|加盟|加入|发售|发行|发布|宣布|创作|创办|创立|返回|回到|"
    r"播放|播出|开播|上映|恢复|受|毕业|病逝|逝世|去世|去|转|更名|改|成立|成功|出版|出任|出生|建|设|正式|首|第一次|再|重新|升|"
    r"合|任|担任|当选|推出|完成|举行|举办|签|迁|移|成为|退休|访问|参加|离开|抵达|到达|结婚|开放|开业|开幕|开通|通车|竣工|"
    r"落成|启用|停|关闭|解散|撤销|废除|列为|评为|被评|确定|批准|登记|注册|上市|收购|合并|发现|发明|引入|投入)"
)
# A Chinese clause that tells an event, which a date can answer "when" for (a state, "仅拥有两个县", it cannot).
_ZH_EVENT = re.compile(
    r"成立|确立|上映|首映|成为|获得|获颁|改用|改为|改名|更名|选中|通车|建成|建立|创建|创办|创立|兴建|重建|修建|扩建|发表|"
    r"购入|收购|合并|离开|制得|公布|验收|租借|定为|列为|评为|建于|批准|获批|加入|加盟|选入|入选|设立|迁往|迁至|迁入|进驻|"
    r"结成|取得|发现|当选|退任|退休|投得|开通|开幕|开放|开业|启用|发布|发行|出版|上市|签署|签订|签约|举行|举办|推出|去世|"
    r"逝世|病逝|出生|毕业|转会|升格|竣工|落成|停办|关闭|解散|撤销|废除|首演|首播|播出|开播|发射|即位|继位|登基|就任|担任|"
    r"出任|任命|夺得|赢得|击败|完成|颁布|实施|施行|生效|通过|宣布|引入|引进|投入|建造|竣工|动工|开工|开始|结束|停止|恢复"
)
#: An English sentence whose subject is an organisation by its kind alone: "The Authority was founded in 1961".
_EN_BARE_KIND = re.compile(
    r"(?:The|Our|This)\s+(?:Authority|Company|Corporation|Foundation|Firm|Board|Council|Department|Agency|District|"
    r"Project|Society|Association|Institute|Trust|Bank|University|College|School|Library|Hospital|Centre|Center|"
    r"Group|Organi[sz]ation|Team)\b(?!\s+(?:of|for)\b)(?=\s+[a-z])"
)
#: Section headings of a letter in the first person, whose sentences leave out the "I" they are about.
_GREETING = re.compile(
    r"인사(?:말|글)?$|\b(?:greetings?|welcome message|(?:a )?(?:message|letter|word) from)\b|ご挨拶|致辞", re.I
)
#: What follows a value that sits in a clause describing the sentence's subject: an adnominal verb, then the subject
#: ("… 시작한 흙결공방이", "… 설립된 하늘여행은").
_KO_MODIFIER_AFTER = re.compile(
    r"^[^,.]*?[가-힣](?:한|된|던|온|진|난|인)\s+[가-힣A-Za-z0-9]+(?:이|가|은|는)\s"
    # "2016년에 문을 연 점포로 …": the date is the opening's, the sentence tells what the store has
    r"|^[^,.]*?[가-힣]*(?:한|된|던|온|진|난|인|연|운|든)\s+[가-힣]+(?:으로|로)\s"
)
#: Honorific forms addressed to the reader: "늦으시면", "하셔야 합니다", "제출해 주세요", "바랍니다".
_KO_TO_READER = re.compile(r"[가-힣]시면\s|셔야\s|(?:주|하)세요|십시오|바랍니다")
#: A sentence whose predicate is a noun after a clause that modifies it: "…2014년부터 … 챙겨 온 세무회계사무소입니다".
_KO_DEFINING = re.compile(
    r"(?:온|한|된|던|진)(?:\s+[가-힣A-Za-z]+){0,2}\s+[가-힣]+(?:입니다|이다|이에요|예요)[.!]?\s*$"
)
#: After a date: the rest of the clause, a verb ending in an adnominal ㄴ ("연", "맡은"), up to two words and a noun
#: with the copula: "무실지점은 2003년 9월에 문을 연 두 번째 영업점입니다".
_KO_DATED_MODIFIER = re.compile(
    r"^(?:에는|에|부터)?(?:\s+[가-힣]+){0,3}?\s+[가-힣]*([가-힣])(?:\s+[가-힣A-Za-z0-9]+){0,2}\s+[가-힣]+"
    r"(?:입니다|이다|이에요|예요)[.!]?\s*$"
)


def _ko_defined_after(sentence: str, value: str) -> bool:
    """Whether the sentence after `value` modifies its predicate noun with a verb ending in ㄴ: the date tells when
    something was done by what the sentence says the subject is, not when the subject did anything."""
    at = sentence.find(value)
    found = _KO_DATED_MODIFIER.match(sentence[at + len(value) :]) if at >= 0 else None
    return found is not None and (ord(found.group(1)) - 0xAC00) % 28 == 4  # the syllable closes with ㄴ


# A Korean clause whose subject is only a kind of thing ("회사는 주로 …팔았다"): which company is in the text before.
_KO_BARE_KIND = re.compile(r"(?:^|\s)(?:회사|당사|본사|기업|학교|제품|상품|계약|정책|규정|부서)(?:은|는|이|가)\s")
# Chinese and Japanese sentences that open with a pronoun, a connective, or a bare predicate (是…, 于…: the
# subject was in the sentence before).
_ZH_LEAD = re.compile(
    r"^(?:他|她|它|他们|她们|它们|这|那|该|此|其|但|但是|因此|所以|然而|此外|而且|同时|另外|并且|于是|之后|是|为|于|在|并|曾|也|又|亦|则|而|即|后|并于|"
    r"已|还|便|就|遂|均|都|仍|才|再|随后|后来|同年|次年|翌年)"
)
_JA_LEAD = re.compile(
    r"^(?:彼|彼女|彼ら|それ|これ|あれ|この|その|あの|同|しかし|また|そのため|さらに|なお|ただし|一方|そして|だが|ここ|そこ)"
)
_CJK_PAUSE = re.compile(r"[，、,]")
#: Longest sentence (words; characters for CJK) that still makes a question a person would type.
MAX_WORDS = 30
MAX_CJK_CHARS = 45
#: Korean writes words with spaces and particles: a sentence past this many characters buries what it asks.
MAX_KO_CHARS = 60
_BACK_REFERENCE = re.compile(
    r"\b(?:the above|the following|as mentioned|see above|see below|(?:listed|shown|set out|given|detailed) below|"
    r"as follows|the same|similar|such|the latter|the former|"
    r"et al|fig(?:ure)?\.?\s*\d|table\s*\d)\b",
    re.I,
)
_ABBREVIATION_END = re.compile(r"\b(?:Dr|Mr|Mrs|Ms|Prof|St|Inc|Ltd|Co|No|vs|etc|al|Fig|approx)\.\s*$")
# Words that tie a sentence to the one before it, anywhere in it ("隔年", "同月", "上記", "이듬해", "당시").
_CJK_BACK_REFERENCE = {
    "zh": re.compile(
        r"隔年|同年|同月|同日|当年|该年|翌年|次年|此时|当时|其后|此后|上述|下图|下表|上表|上图|如下|前者|后者|"
        r"该|此|其|牠|祂|他們|她們|它們|這|該|(?<![其吉])他|她|它|直至"
    ),
    "ja": re.compile(
        r"同年|同月|同日|翌年|翌月|当時|その後|上記|下記|下表|下図|上図|前者|後者|同社|同氏|同国|同市|同党|"
        r"前述|上述|後述|やがて|結果|この|その|これ|それ|同様|同じ"
    ),
    "ko": re.compile(
        r"같은 해|이듬해|그해|그 해|당시|위의|아래의|상기|다음 표|다음과 같|해당|前者|後者|(?<![가-힣])아래(?:와|의)?\s"
        # "위 3항 방식으로", "위 위약금의 2배": a clause or an amount set out above
        r"|(?<![가-힣\d])위\s(?=\d+\s?[항조호]|[가-힣]+(?:금|료|비|액|율|항|조|호|표|기준|내용|사항|방식|조건|기간|규정)(?:의|을|를|은|는|이|가|에|으로|로)?(?![가-힣]))"
        r"|(?<![가-힣])(?:그|그녀|그들|이들)의(?=\s)"  # "그의 이름을 딴 기념실": whose name was in the text before
    ),
}
_ENDS = re.compile(r"[.!?。！？．」』)）\"'”]\s*$|[다요]\s*$")
#: A verb of saying before the value: what follows it is what was said, and its dates are the saying's content.
_REPORTED = re.compile(
    r"\b(?:noted|notes|said|says|reported|reports|explained|added|told|confirmed|mentioned|argued|claimed|warned|"
    r"recalled|pointed out|stressed|observed|remarked)\b",
    re.I,
)
_RELATIVE = re.compile(r"\b(?:that|which|who|whom|whose|where|when|while|whereas|although|because|if)\b", re.I)
# After the date, a finite verb: the date sat in a clause that describes the subject ("The virus described in
# December 2019 has resulted in …"), and the question would ask when the subject described something.
_EN_VERB_AFTER = re.compile(r"^\s*(?:has|have|had|is|are|was|were|will|would|remains?|remained|became|becomes)\b")
_RUN_ON = re.compile(r"[a-z0-9)\]][.!?]\s+[A-Z]")
_ADVERB_LEAD = frozenset(
    "most more recently first then later finally initially subsequently currently previously originally "
    "eventually soon already still just only even".split()
)


def changed_later(fact: FactNode, following: str, language: str) -> bool:
    """Whether `following` (the text after the fact's sentence, to the end of its paragraph) goes on to change the
    value: its next sentence says the same kind of value was raised, cut or changed."""
    pattern = _CHANGED_LATER.get(language, _CHANGED_LATER["en"])
    nxt = re.split(r"(?<=[.!?。！？])\s*", following.strip(), maxsplit=1)[0] if following.strip() else ""
    return bool(pattern.search(nxt)) and any(v.value_type == fact.value_type for v in find_values(nxt))


def standalone_problem(fact: FactNode, language: str) -> str | None:
    """Why a sentence fact's evidence cannot seed a question on its own, or None when it can."""
    raw = fact.evidence.replace("**", "").replace("__", "").strip()
    if _CITATION.match(raw):
        return "a footnote or a reference-list entry"
    sentence = plain_sentence(raw)  # inline citation marks ("… in 2020 [27].") are left out of the question
    if not sentence:
        return "empty sentence"
    if fact.value not in sentence:
        return "the value is part of a citation"
    if sentence.rstrip().endswith(("?", "？", "!", "！")):
        return "a question or exclamation"
    if re.search(r"「」|『』|（）|\(\)|“”|\"\"", sentence):
        return "debris (an empty quotation or bracket)"
    if _LABEL_LINE.match(sentence) and language in ("en", "ko"):
        return "a label line"
    if _CITATION.search(sentence):
        return "a citation or footnote mark"
    if _BACK_REFERENCE.search(sentence):
        return "points back to other text"
    if language in _CJK_BACK_REFERENCE and _CJK_BACK_REFERENCE[language].search(sentence):
        return "points back to other text"
    if _ABBREVIATION_END.search(sentence):
        return "cut off at an abbreviation ('… by Dr.')"
    if fact.context and _GREETING.search(fact.context):
        return "a greeting in the first person ('대표 인사', 'A message from our CEO'): whose story is it?"
    problem = (
        _latin_problem(sentence) if language not in ("ko", "zh", "ja") else _asian_problem(fact, sentence, language)
    )
    if problem:
        return problem
    if fact.value_type == "number" and fact.number == 1:
        return "a count of one (an article in the sentence, not a quantity anyone asks about)"
    if fact.value_type == "date" and sum(v.value_type == "date" for v in find_values(sentence)) > 1:
        return "two dates in one sentence"
    before = sentence[: max(sentence.find(fact.value), 0)]
    if fact.value_type == "date" and re.search(r"\b(?:by|until|till|before|after|prior to|through)\s*$", before, re.I):
        return "a bound, not a time ('By February 2020, …': when did it happen?)"
    if fact.value_type == "date" and re.search(r"\d[\d,.]*\s+[A-Za-z]+\s+(?:in|during|over)\s*$", before):
        return "the period of a quantity, not a time ('booked for 163 hours in 2024': when was it booked?)"
    typed = [v for v in find_values(sentence) if v.value_type != "number" or v.unit]
    if fact.value_type != "date" and len(typed) > 1:
        return "several amounts in one sentence (which one is asked?)"
    if raw[:1] in "※†‡" or (re.match(r"\\?\*(?!\*)", raw) and "*" not in raw.lstrip("\\*")[:40]):
        return "a footnote ('*크기와 무게는 …', '※ …'): a note on something above it"
    if sentence[:1] in "([{（【《「『\"'“‘<":
        return "a fragment (opens with a bracket or quote)"
    if not _ENDS.search(sentence):
        return "cut off (no closing punctuation)"
    if language == "en" and _RELATIVE.search(sentence[: max(sentence.find(fact.value), 0)]):
        return "the value may belong to a relative clause"
    if language == "en" and _REPORTED.search(sentence[: max(sentence.find(fact.value), 0)]):
        return "the value belongs to what was reported ('Liu noted several libraries went fine-free in 2022')"
    if language == "en" and _EN_VERB_AFTER.match(sentence[sentence.find(fact.value) + len(fact.value) :]):
        return "the value sits in a clause that describes the subject ('X described in 2019 has …')"
    return None


def _latin_problem(sentence: str) -> str | None:
    """`standalone_problem`'s checks for a sentence in a Latin script: its opening, its length, run-ons."""
    words = re.findall(r"[A-Za-z']+", sentence[:60])
    if sentence[:1].islower():
        return "a fragment (lower-case start)"
    if words and words[0].lower() in _EN_LEAD:
        return f"opens with '{words[0]}'"
    if _EN_BARE_KIND.match(sentence):
        return "a bare kind noun as the subject ('The Authority was …': the body named in the text around it)"
    if len(sentence.split()) < 5:
        return "a fragment (too short)"
    if _RUN_ON.search(sentence[:-1]) or ";" in sentence:
        return "two sentences run together"
    if len(sentence.split()) > MAX_WORDS:
        return "too long to ask as one question"
    return None


def _asian_problem(fact: FactNode, sentence: str, language: str) -> str | None:
    """`standalone_problem`'s checks for a Korean, Chinese or Japanese sentence: its opening, its length, one
    clause."""
    # "1839年、オランダは…承認した。": the date that opens the sentence is what is asked; the clause after it is
    # what the question keeps, and what must stand alone
    rest = leading_date_rest(sentence, fact.value, language) if fact.value_type == "date" else None
    clause = sentence if rest is None else rest
    if rest is not None and language == "zh":
        if _ZH_VERB_START.match(clause) or re.match(r"因|本(?=[\u4e00-\u9fff])", clause):
            return "the clause after the date has no subject of its own ('1981年，正式建立…', '本线…')"
        if re.match(r"[\u4e00-\u9fff]{1,6}(?:总站|终点站|起点站|首站|尾站)", clause):
            return "a route's terminus as the subject ('香港仔总站迁往…': the terminus of which route?)"
        if not _ZH_EVENT.search(clause):
            return "the clause after the date states no event ('1779年，佛蒙特州仅拥有两个县')"
    lead = {"ko": _KO_LEAD, "zh": _ZH_LEAD, "ja": _JA_LEAD}.get(language)
    if lead is not None and lead.match(clause):
        return "opens with a pronoun or connective"
    if language == "ko" and len(sentence) > MAX_KO_CHARS:
        return "too long to ask as one question"
    if language == "ko" and _KO_BARE_KIND.search(sentence):
        return "a bare kind noun as the subject ('회사는 …': the company named in the text around it)"
    if language == "ko" and _KO_MODIFIER_AFTER.match(sentence[sentence.find(fact.value) + len(fact.value) :]):
        return "the value sits in a clause describing the subject ('2019년 3월 … 시작한 흙결공방이 다섯 살이 되었다')"
    if language == "ko" and re.search(r"(?:^|\s)저희", sentence):
        return "the writer speaking ('저희 병원에서 …'): which clinic, the page around it says"
    if language == "ko" and _KO_TO_READER.search(sentence):
        return "words to the reader ('…분 넘게 늦으시면', '…하셔야 합니다'), not a fact about a subject"
    if language == "ko" and (_KO_DEFINING.search(sentence) or _ko_defined_after(sentence, fact.value)):
        return "a sentence defining its subject ('…부터 … 챙겨 온 사무소입니다'): the value modifies the predicate noun"
    if language in ("zh", "ja"):
        if len(clause) > MAX_CJK_CHARS:
            return "too long to ask as one question"
        if language == "zh" and _ZH_BARE_KIND.match(clause):
            return "a bare kind noun as the subject ('会馆于…': the hall named in the text before)"
        if language == "zh" and _ZH_SEQUENCE.search(sentence):
            return "two events in one sentence ('回港后即主持…': which one is dated?)"
        if fact.value_type != "date" and re.search(r"\d\s*[回章节卷期届版号]$", fact.value):
            return "an ordinal ('87回' is chapter 87), not a quantity"
        if _CJK_PAUSE.search(clause):
            # one clause only: a second one stays in the question as an unasked statement
            return "a compound sentence"
    return None


# A CJK question word left beside the rest of the value it replaced ("什么时候18时", "いつ-24日", "いつは").
_CJK_LEFTOVER = re.compile(
    r"(?:什么时候|什么(?!时候)|多少|几|いつ|何|いくら)(?:[\d\-~〜－]|[时時点号日]|は)"
    r"|什么时候(?:后|以后|前|以前|底|末|初|中旬|上旬|下旬)|[前约約](?:什么时候|多少|几|いつ|何)"
    r"|[（(][^）)]*(?:什么时候|多少|几|いつ|何)[^（(]*[)）]|公元(?:什么时候|多少)|[－\-~〜–](?:什么时候|多少|几|いつ|何)"
    r"|年(?:什么时候|いつ)|いつ[のな]|(?:什么时候|いつ)[：:]"
    r"|什么时候(?:上午|下午|早|晚|凌晨|中午|夜|春|夏|秋|冬|[0-9０-９])"  # "于什么时候下午14:25分首播"
    r"|(?:什么时候|多少钱?|几|いつ|いくら)[（(]"  # "多少钱(已经在3月17曰加价)…"
    r"|(?:什么时候|いつ)(?:至|到|起至|から|まで|[～~〜－\-–])"  # one end of a range: "赛期由什么时候至12日"
    r"|(?:多少|几)[^\s，。？]{0,2}(?:左右|以上|以下|余)"  # "含有多少个左右": the approximation stays behind
    r"|是什么时候(?![^，,。？]*的[？?]$)"  # "…是什么时候欧洲国家杯12位主裁判之一": a copula, not an event
    r"|(?:多少|几)[^\s，。？]{0,6}(?:和|与|及)"  # "下设多少个研究所和一个工厂": the rest of a list stays behind
    r"|(?:到|至)什么时候(?!为止|止)(?=[" + HAN + "])"  # "沿用到什么时候苏联解体": the date named an event
    # Korean: "언제 말 기준으로" ("2024년 말"), "언제 하반기"
    r"|언제\s*(?:말|초|중순|초순|하순|상반기|하반기|연말|연초|\d|기준|경|무렵|봄|여름|가을|겨울)(?=[\s은는이가을를의에]|$)"
    r"|[（(][^）)]*(?:몇|얼마|언제|누구|어디)[^（(]*[)）]"  # "초안(몇 곳)을": the question word in a bracket
)
# A Chinese time adverbial opens its clause or follows 于/在/自/从/至/到/是; right after a verb or a name the date
# belongs to what follows ("执法什么时候欧洲国家杯": the year is part of the tournament's name).
_ZH_UNMARKED_DATE = re.compile(r"[^于在自从至到是，,、：:\s]什么时候")
# The date asked sits in a clause that modifies a noun, not in the sentence's own statement: "兴建于什么时候的堡垒街
# 长老会教堂就是…", "いつ投開票の第45回総選挙では…", "いつ創設された…が最初ですか" (a copula sentence: what is asked is
# what something *is*; the date only describes it).
_MODIFYING_DATE = {
    "zh": re.compile(r"什么时候[^，,。？]*的(?![？?]$)"),
    "ja": re.compile(r"いつ[^、。？をがはにでとへもや]{1,8}の|いつ.*ですか？$"),
    "ko": re.compile(r"언제\s+\S*(?:한|된|던|하는|되는)\s+[^\s?？]"),  # "언제 체결한 … 계약으로 …"
}


def _inflections(base: str) -> set[str]:
    return {base + "ed", base + "d", base[:-1] + "ied", base + base[-1:] + "ed", base + "s", base + "es"}


def words_problem(question: str, evidence: str) -> str | None:
    """An English question inverted from a sentence may add only its question words and one verb in its base
    form (whose inflection, in lower case, is in the sentence): anything else is a misreading of the sentence
    ("When did the Millennium Summit at the unit Nations?" took "United" for a verb)."""
    said = set(re.findall(r"[A-Za-z0-9'’\-/]+", evidence.replace("**", "")))
    said_lower = {w.lower() for w in said}
    asked = re.findall(r"[A-Za-z0-9'’\-/]+", question)
    extra = [w for w in asked[1:] if w not in said and w.lower() not in _QUESTION_WORDS]
    extra = [w for w in extra if not (w[0].isupper() and w.lower() in said_lower)]  # "The" at the start
    if len(extra) > 1:
        return "the question has words the sentence does not"
    if extra and not (extra[0].islower() and _inflections(extra[0]) & said):
        return "the question has words the sentence does not"
    if _NO_OBJECT.search(question):
        return "the question ends on a verb without what it acts on ('When did Leah Okonkwo join?': join what?)"
    return None


#: A question ending on a verb that needs its object: the page says what was joined; the question does not.
_NO_OBJECT = re.compile(r"\b(?:join|rejoin|leave|enter|acquire|buy|sign|sell|attend|visit|receive)\s*\?\s*$", re.I)


_QUESTION_WORDS = frozenset("when since did do does was were is are has have had been".split())


# A definite common noun that stands for something the text named before: "When did the virus re-emerge?" in a
# collection about many viruses, "…an update to the game?" (which game?).
_EN_BACK_REFERENCE = re.compile(
    r"\bthe (?:virus|disease|outbreak|game|company|firm|film|movie|book|album|song|show|series|team|band|club|"
    r"study|paper|device|product|app|city|town|country|war|patient|drug|vaccine|author|player|project|event|"
    r"epidemic|pandemic|trial|survey|cohort|experiment|government|ministry|agency|hospital|school|university|"
    r"programme|program|organisation|organization|committee|(?:new|former|previous|latter|then) [a-z]+)"
    r"(?![\w-])(?!\s+[A-Z0-9])"
)


# A Chinese question ending on a verb that takes an object after a stated plan ("…表示计划在什么时候推出？"): what is
# launched was in the text around it (a passive "被引入", "由…出版" has its object as the subject).
_ZH_NO_OBJECT = re.compile(
    r"(?:表示|宣布|声称|称|计划|打算|准备|预计)[^，,被由]*什么时候[^，,被由]*"
    r"(?:推出|发布|发行|出版|推行|引入|引进|采用|收购|签署|签订|购买|投入|公布|提出|开发)[？?]$"
)
# "X是Y的城市一年中有多少天…": a copula clause running straight into a second predicate with the question word.
_ZH_TWO_PREDICATES = re.compile(r"是[^，,；;。？?]{2,}的[^，,；;。？?]{1,8}?(?:一年中|每年|当中|其中)?有(?:多少|几)")


# "When was the rate in X lower compared with Y?": a state that held, not an event that happened at one time.
_EN_COMPARISON = re.compile(
    r"\b(?:higher|lower|greater|smaller|larger|bigger|fewer|better|worse|more|less)\s+(?:than|compared|relative)\b"
)


# "… first shown to induce protective?": an infinitive's adjective with its noun missing (a verb like "become" or
# "remain" takes an adjective alone: "… expected to become profitable?").
_EN_DANGLING = re.compile(r"\bto\s+([a-z]+)\s+[a-z]+(?:ive|ous|ful|able|ible)\?$")
_LINKING_VERBS = frozenset("be become remain stay seem appear prove turn grow get".split())


#: A second verb joined to the asked one: "… for eight years and won a regional title?", "… and has been with …".
_EN_SECOND_PREDICATE = re.compile(r"\s(?:and|but)\s+(?:has|have|had|was|were|is|are|did|won|[a-z]{3,}ed)\s")
#: "When was <subject> a/an <noun> <participle>?": the sentence said what the subject was, then dated the noun.
_EN_PREDICATE_NOUN = re.compile(
    r"^(?:When|Since when)\s+(?:was|were)\s+\S+(?:\s+\S+)*?\s+(?:a|an)\s+(?:[\w-]+\s+){0,4}[\w-]+(?:ed|en)\?$"
)


#: Korean words for a time relative to when the page was written: this year, last month, today.
_KO_RELATIVE_TIME = re.compile(
    r"(?:올해|금년|작년|지난해|내년|이번\s?달|지난\s?달|다음\s?달|이번\s?주|지난\s?주|오늘|어제|내일)"
)
#: A Korean question opening with two topics before its question word: the page's, then the sentence's own
#: ("사무국 사람들 & 연락처는 강다온 활동가는 언제 …"); a word ending in 는 after a verb stem (하는, 있는) is no topic.
_KO_TWO_TOPICS = re.compile(
    r"^[^?]*?[가-힣A-Za-z0-9)\]](?:은|는)\s(?:[^\s?]+\s){0,2}?[^\s?]*[가-힣A-Za-z0-9](?<![하되있없한된인])(?:은|는)\s"
    r"(?=[^?]*(?:언제|얼마|몇|누구|어디|무엇|며칠))"
)


#: A question ending in a clause of its own after a subordinating word: the sentence's date was that clause's.
_EN_DATED_SUBCLAUSE = re.compile(
    r"\b(?:before|after|until|once)\s+(?:he|she|they|it|we|i|the \w+)\s+\w+(?:ed)?\?$", re.I
)
#: A question word inside brackets: "장기 입원(며칠 이상)이면", "(how many days or more)".
_BRACKETED_ASK = re.compile(
    r"[(（][^()（）]*(?:며칠|몇|얼마|언제|누구|무엇|어디|\bhow (?:many|much|long)\b|\bwhen\b|\bwhat\b)[^()（）]*[)）]",
    re.I,
)


#: Words no English clause ends with: an answer ending in one was cut mid-clause ("… in what used.").
_DANGLING_EN = frozenset(
    "what which who whom whose that to used of the a an in on at by for with and or as than".split()
)


def answer_problem(answer: str, template: str) -> str | None:
    """Why an answer made from a sentence reads cut off, or None."""
    words = answer.rstrip(" .!?").split()
    if template.startswith("en.sentence") and words and words[-1].lower() in _DANGLING_EN:
        return f"the answer stops mid-clause ('… {' '.join(words[-3:])}.')"
    return None


def question_problem(question: str, template: str) -> str | None:
    """Why a question made from a sentence reads wrong, or None."""
    opened = question.count("(") + question.count("（")
    if opened != question.count(")") + question.count("）"):
        return "an unclosed bracket in the question"
    if template.endswith(".sentence") and re.search(r"→|->|\((?:추가|수정|삭제|변경)\)", question):
        return "a note's arrow or edit mark pasted into the question ('→ (추가) …')"
    if template == "ko.sentence" and re.search(r"[가-힣]인\s+(?:언제|몇)", question):
        return "the question word follows a modifier ('봉명동 시절인 언제'): the clause was cut around the value"
    if template.endswith(".sentence") and _BRACKETED_ASK.search(question):
        # "장기 입원(며칠 이상)이면 …": the value was a note in brackets, so the question asks inside one
        return "the question word sits in a bracketed note"
    if template.endswith(".sentence") and _CJK_LEFTOVER.search(question):
        return "the question word sits beside a leftover of the value"
    opening = _ZH_OPENING_WHEN.search(question)
    if template == "zh.sentence" and opening and not _ZH_VERB_START.match(question[opening.end() :]):
        # "什么时候福布斯富豪榜排名第51", "什么时候香港警方拘捕…": the year was a modifier or the clause's topic
        return "the question word stands before the clause's subject"
    if template.endswith(".sentence") and len(re.sub(r"^关于[^，,]+[，,]|[\W_]", "", question)) < 8:
        return "nothing is asked beyond the question word"
    if template.endswith(".sentence") and re.search(r"(?:\.\.|…)\s*[?？]$", question):
        return "the sentence was cut off in the source"
    if template == "ko.sentence" and _KO_RELATIVE_TIME.search(question):
        return "a time told relative to the page's own ('올해도', '지난달'): not stand-alone"
    if template == "ko.sentence" and _KO_TWO_TOPICS.match(question):
        return "two topics before the question word ('사무국 사람들 & 연락처는 강다온 활동가는 언제 …')"
    core = re.sub(r"^.*?에 따르면\s+", "", question)  # "…규정에 따르면 1경기면 얼마인가요?": what follows is asked
    if template == "ko.sentence" and len(core.split()) < 3:
        return "too little of the sentence is left to ask anything ('1경기면 얼마인가요')"
    if template == "ko.sentence" and re.match(r"(?:언제|몇|며칠|얼마)", core):
        return "the question word opens the clause: what it asks about is left out ('언제 이용분부터 변경되었나요')"
    if template.startswith("en.sentence") and _EN_DATED_SUBCLAUSE.search(question):
        return "the date belonged to a clause after 'before'/'after' ('… before she retired?'), not to the question's"
    if template in ("zh.sentence", "ja.sentence") and re.search(r"[：:]", re.sub(r"^关于[^，,]+[，,]", "", question)):
        return "a clause ending in a colon pasted into the question"
    if template == "zh.sentence" and _ZH_UNMARKED_DATE.search(question):
        return "the date asked is not a time adverbial (no 于/在/从 before it, nor a clause start)"
    if template == "zh.sentence" and _ZH_NO_OBJECT.search(question):
        return "the verb's object is missing ('华硕表示计划在什么时候推出？': launch what?)"
    if template == "zh.sentence" and _ZH_TWO_PREDICATES.search(re.sub(r"^关于[^，,]+[，,]", "", question)):
        return "a statement and the question in one clause ('阿贝歇是乍得最热的城市一年中有多少天…')"
    modifying = _MODIFYING_DATE.get(template.split(".")[0])
    if template.endswith(".sentence") and modifying is not None and modifying.search(question):
        return "the date asked only describes a noun in the sentence"
    if not template.startswith("en.sentence"):
        return None
    if _EN_BACK_REFERENCE.search(question):
        return "a back-reference ('the virus', 'the game') to something named earlier"
    if re.search(r"\b(?:that|this|it|them|these|those)\?$", question):
        return "the question ends on a pronoun"
    if _EN_FIRST_PERSON.search(question):
        return "the writer speaking ('moved into our current office'): whose office, only the page says"
    if len(question.split()) > 20:
        return "too long to ask as one question"
    match = re.match(r"^(?:When|Since when)\s+(is|are|was|were|did|do|does|has|have)\s+(\S+)", question)
    if match is None:
        return None
    verb, first = match.groups()
    if verb in ("is", "are"):
        return "a present-tense description asked as 'when'"
    dangling = _EN_DANGLING.search(question)
    if dangling and dangling.group(1).lower() not in _LINKING_VERBS:
        return "the verb's object is missing ('… shown to induce protective?')"
    if verb in ("was", "were") and _EN_COMPARISON.search(question):
        return "a comparison, not an event ('When was X lower than Y?')"
    if _EN_SECOND_PREDICATE.search(question):
        return "two predicates in one question ('… coaching for 11 years and has been with the Forge since …')"
    if verb in ("was", "were") and _EN_PREDICATE_NOUN.match(question):
        return "a predicate noun before the verb ('When was 1.2.33 a small bugfix patch released?')"
    if first.lower() in _ADVERB_LEAD or first.endswith("ly"):
        return "the subject starts with an adverb"
    if ":" in question or "," in question:
        return "a clause or label inside the question"
    if re.search(r"\b(?:of|in|on|at|by|to|from|until|the|middle|end|beginning|start|early|late|mid)\?$", question):
        return "the question ends where the value was cut out"
    if verb == "did" and re.search(r"\b[a-z]{3,}ed\b", question):
        return "a past-tense verb left in a 'did' question"
    if verb == "did" and re.search(r"\b\w+(?:ed|en)\s+by\b", question) is None and re.search(r"\sby\s", question):
        return "an active question on a passive clause"
    return None
