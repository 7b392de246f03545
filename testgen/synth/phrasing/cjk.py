"""Chinese and Japanese: question words in place (什么时候 / いつ), basic attribute templates.

These rules are simpler than the English and Korean ones; items made with them are flagged
``phrasing: basic`` in their metadata so a user knows to review them.
"""

from __future__ import annotations

import re

from schemas import FactNode
from testgen.lang.cjk import leading_date_rest
from testgen.lang.scripts import HAN
from testgen.text import plain_sentence


class _Cjk:
    code = ""
    wh_date = ""
    wh_money = ""
    wh_what = ""
    wh_who = ""
    wh_number = ""
    wh_percent = ""
    endings: list[tuple[re.Pattern[str], str]] = []  # noqa: RUF012

    def __init__(self, vocabulary: frozenset[str] = frozenset()) -> None:
        self.vocabulary = vocabulary

    def subject(self, name: str) -> str:
        return re.split(r"\s[:\-–|]\s|:\s", name.strip())[0].strip()

    def type_word(self, doc_type: str) -> str:
        return doc_type

    counter_wh = ""

    def wh(self, fact: FactNode) -> str:
        if fact.value_type == "number" and fact.unit and self.counter_wh:
            counter = self.counter_wh
            number = fact.number or 0
            if self.code == "zh" and (number >= 10 or not float(number).is_integer()):
                counter = "多少"  # 几 asks for a small whole number: "联络线长多少km", not "几km" for 2.4 km
            return counter + fact.unit  # 6回 → 何回, 3个 → 几个
        return {"date": self.wh_date, "money": self.wh_money, "percent": self.wh_percent, "number": self.wh_number}.get(
            fact.value_type, self.wh_what
        )

    def about(self, subject: str, question: str) -> str:
        raise NotImplementedError

    def _attr_q(self, subject: str, attribute: str, wh: str) -> str:
        raise NotImplementedError

    def _attr_a(self, subject: str, attribute: str, value: str) -> str:
        raise NotImplementedError

    def fact(self, fact: FactNode, subject: str) -> tuple[str, str, str] | None:
        if fact.source == "sentence":
            phrased = self._from_sentence(fact)
            if phrased is not None and subject and subject not in phrased[0]:
                # the sentence leans on its page ("截至目前总计有几个系列？"): say what it is about
                return self.about(subject, phrased[0]), phrased[1], phrased[2]
            return phrased
        if fact.source == "timeline" and fact.value_type == "date":
            return None
        attr = f"{fact.qualifier} {fact.attribute}" if fact.qualifier else fact.attribute
        return (
            self._attr_q(subject, attr, self.wh(fact)),
            self._attr_a(subject, attr, fact.value),
            f"{self.code}.{fact.value_type}",
        )

    def _from_sentence(self, fact: FactNode) -> tuple[str, str, str] | None:
        sentence = plain_sentence(fact.evidence)
        if fact.value_type == "date" and (rest := leading_date_rest(sentence, fact.value, self.code)) is not None:
            return self._dated_clause(rest, sentence)
        pos = sentence.find(fact.value)
        if pos < 0 or len(sentence) > 90 or sentence.count("。") > 1 or sentence.count("，") > 2:
            return None  # one short sentence, or the question buries what it asks
        opened = sum(sentence[:pos].count(o) - sentence[:pos].count(c) for o, c in ("《》", "「」", "『』", "“”"))
        if opened > 0:
            return None  # the value is part of a title ("《13点》"), not a quantity
        return self._ask(self._tidy(sentence[:pos] + self.wh(fact) + sentence[pos + len(fact.value) :]), sentence)

    def _ask(self, question: str, sentence: str) -> tuple[str, str, str] | None:
        """The statement with its question word turned into a question by the language's endings."""
        for pattern, repl in self.endings:
            if pattern.search(question):
                return pattern.sub(repl, question, count=1), sentence, f"{self.code}.sentence"
        return None

    def _dated_clause(self, rest: str, sentence: str) -> tuple[str, str, str] | None:
        """A question about the clause after the date that opens `sentence` (none by default)."""
        return None

    def _tidy(self, question: str) -> str:
        """The sentence's leftovers around the question word that a person would not say (none by default)."""
        return question

    def compare(
        self, subjects: list[str], attribute: str, values: list[str], winner: int, higher: bool, kind: str
    ) -> tuple[str, str, str] | None:
        return None

    def arithmetic(
        self, op: str, subjects: list[str], attribute: str, values: list[str], result: str, qualifiers: list[str | None]
    ) -> tuple[str, str, str] | None:
        return None

    def two_hop(self, first: FactNode, second: FactNode, subject: str) -> tuple[str, str, str] | None:
        return None

    def two_hop_mention(self, subject: str, type_word: str, name: str, second: FactNode) -> tuple[str, str, str] | None:
        return None

    def relation(self, fact: FactNode, subject: str, inverse: bool, type_word: str = "") -> tuple[str, str, str] | None:
        return None if inverse else self.fact(fact, subject)

    def mention(self, subject: str, type_word: str, name: str, sentence: str) -> tuple[str, str, str] | None:
        return None

    def count(self, type_word: str, attribute: str, value: str, names: list[str]) -> tuple[str, str, str] | None:
        return None

    def extreme(
        self, type_word: str, attribute: str, winner: str, value: str, highest: bool, n: int
    ) -> tuple[str, str, str] | None:
        return None


class Chinese(_Cjk):
    """Rules for Chinese."""

    code = "zh"
    wh_date = "什么时候"
    wh_money = "多少钱"
    wh_what = "什么"
    wh_who = "谁"
    wh_number = "多少"
    wh_percent = "百分之多少"
    counter_wh = "几"
    endings = [(re.compile(r"[。.]?$"), "？")]  # noqa: RUF012

    def about(self, subject: str, question: str) -> str:
        return f"关于{subject}，{question}"

    def _tidy(self, question: str) -> str:
        # "不丹还在什么时候加入" / "解仇遂于什么时候暗杀" / "露丝则于什么时候": the adverb tied the sentence to the one
        # before it
        question = re.sub(r"(?:还|遂|已|即|便|就|又|也|才|亦|均|皆|都|则)(?=[在于]?(?:什么时候|多少|几))", "", question)
        question = re.sub(f"(?<=[{HAN}])\\s+(?=[{HAN}])", "", question)  # "什么时候 获…"
        # "悬红多少钱人民币": the currency names the unit already
        return re.sub(r"多少钱(?=(?:人民币|港元|港币|美元|欧元|日元|新台币|台币|英镑))", "多少", question)

    def _attr_q(self, subject: str, attribute: str, wh: str) -> str:
        return f"{subject}的{attribute}是{wh}？"

    def _attr_a(self, subject: str, attribute: str, value: str) -> str:
        return f"{subject}的{attribute}是{value}。"

    def _dated_clause(self, rest: str, sentence: str) -> tuple[str, str, str] | None:
        """ "1921年，国际法院在海牙成立。" → "国际法院在海牙成立是在什么时候？": the clause after the date, asked
        whole."""
        clause = rest.rstrip("。.").strip()
        if not clause or re.search(r"[，,、；;：:]", clause):
            return None  # a second clause would stay in the question unasked
        clause = _ZH_PERFECTIVE.sub(r"\1", clause, count=1)  # "发表了…的描述" → "发表…的描述是在什么时候"
        return f"{clause}是在什么时候？", sentence, f"{self.code}.sentence"


# 了 right after an event verb: it marks the completed event in the statement, not in its cleft question.
_ZH_PERFECTIVE = re.compile(r"(发表|获得|取得|发现|建立|成立|加入|离开|完成|推出|发布|发射|赢得|夺得|签署|举行)了")


class Japanese(_Cjk):
    """Rules for Japanese."""

    code = "ja"
    wh_date = "いつ"
    wh_money = "いくら"
    wh_what = "何"
    wh_who = "誰"
    wh_number = "どのくらい"
    wh_percent = "何パーセント"
    counter_wh = "何"
    endings = [  # noqa: RUF012
        (re.compile(r"(さ|ら)?れた。?$"), r"\1れましたか？"),
        (re.compile(r"した。?$"), "しましたか？"),
        (re.compile(r"ました。?$"), "ましたか？"),
        (re.compile(r"(である|(?<![んい])だ)。?$"), "ですか？"),
        (re.compile(r"です。?$"), "ですか？"),
        (re.compile(r"ます。?$"), "ますか？"),
    ]

    def about(self, subject: str, question: str) -> str:
        return f"{subject}について、{question}"

    def _attr_q(self, subject: str, attribute: str, wh: str) -> str:
        return f"{subject}の{attribute}は{wh}ですか？"

    def _attr_a(self, subject: str, attribute: str, value: str) -> str:
        return f"{subject}の{attribute}は{value}です。"

    def _from_sentence(self, fact: FactNode) -> tuple[str, str, str] | None:
        sentence = plain_sentence(fact.evidence)
        if fact.value_type == "date" and leading_date_rest(sentence, fact.value, self.code) is None:
            pos = sentence.find(fact.value)
            if pos >= 0 and sentence[pos + len(fact.value) : pos + len(fact.value) + 1] == "に":
                fact = fact.model_copy(
                    update={"evidence": sentence[: pos + len(fact.value)] + sentence[pos + len(fact.value) + 1 :]}
                )
                phrased = super()._from_sentence(fact)
                if phrased:
                    return phrased[0], sentence.replace("**", "").strip(), phrased[2]
                return None
        return super()._from_sentence(fact)

    def _dated_clause(self, rest: str, sentence: str) -> tuple[str, str, str] | None:
        """ "1839年、オランダはベルギーの独立を承認した。" → "オランダはいつベルギーの独立を承認しましたか？": the
        question word after the topic (else first), the clause after the date asked as it stands."""
        if "、" in rest or "，" in rest:
            return None  # a second clause would stay in the question unasked
        topic = _JA_TOPIC.match(rest)
        return self._ask(f"{topic.group(1)}はいつ{rest[topic.end() :]}" if topic else f"いつ{rest}", sentence)


#: The topic a Japanese clause opens with: a noun of up to 20 characters and は ("オランダは", "Googleは").
_JA_TOPIC = re.compile(r"^([^、。はがをにでと]{1,20}?[\u4e00-\u9fff\u30a0-\u30ffA-Za-z0-9）」』])は(?!じめ)")
