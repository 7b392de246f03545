"""Passage seeds: what an LLM question is written from when no mined fact fits — one chunk with its heading
path, or chunks of two or three documents that share a specific topic.

Sampling is even over documents (the document with the fewest seeds so far goes first; a twenty-document KB
is not asked about one essay seven times) and favours passages that carry content — sentences that claim,
explain, instruct or define — over navigation, link lists, code and boilerplate. Each question type prefers the
passages that can answer it (steps for *how*, reasons for *why*, conditions, lists, contrasts); a temporal or
numerical seed must hold a date or a number, since its answer must.

A multi-document seed is joined by the knowledge graph: the chunks a ``similar`` edge or a shared ``mentions``
entity links, kept only when they share a *specific* word or entity (found in a few documents, not in most)
and are not the same text (a KB that restates a page twice gives two documents, not two passages). Every
choice comes from the run seed, so the same KB and seed give the same seeds, and the same prompts (the LLM
cache then makes a re-run free).
"""

from __future__ import annotations

import hashlib
import random
import re
from collections import Counter
from dataclasses import dataclass, field, replace

from schemas import ChunkNode
from testgen.kg.values import find_values
from testgen.lang.scripts import CJK
from testgen.overlap import content_words
from testgen.synth.context import GenContext
from testgen.text import is_cjk, jaccard, tokens

#: A word in more documents than this is no topic: max(3, documents ** 0.6) (6 of 20, 16 of 98, 63 of 1,000).
TOPIC_DOC_EXPONENT = 0.6
#: A chunk needs this many content words (CJK: characters / 2) to carry a question.
MIN_WORDS = 35

_CUES: dict[str, re.Pattern[str]] = {
    "how": re.compile(
        r"^\s*(\d+[.)]|step\b)|\b(to (install|create|set up|configure|enable|use|make|run|add|remove)|click|select|"
        r"open the|run the|you can|you need to|first,|then,|next,|finally,|in order to)\b",
        re.I | re.M,
    ),
    "why": re.compile(
        r"\b(because|since|due to|so that|therefore|thus|as a result|in order to|reason|leads? to|caus\w+|"
        r"owing to|which means|hence|why)\b",
        re.I,
    ),
    "conditional": re.compile(r"\b(if|unless|in case|otherwise|provided that|as long as|whenever|only when)\b", re.I),
    "list": re.compile(r"(^\s*([-*+•]|\d+[.)])\s+.+\n){3,}|\w+, \w+(, \w+)*,? (and|or) \w+", re.M),
    "contrast": re.compile(
        r"\b(than|unlike|whereas|while|however|compared|differ\w*|both|instead|on the other hand|rather than|versus)\b",
        re.I,
    ),
}
_LINK = re.compile(r"\]\(|https?://")
_STOP = frozenset(
    """about above after again against also among because been before being below between both cannot could does
    doing down during each either every from further have having here itself just more most much must neither
    other ought over same shall should some such than that their theirs them themselves then there these they
    this those through under until very what when where which while whom whose will with within without would
    your yours into only onto upon using used uses make made many like well even still however the and for are but
    not you all any can had her was one our out get has him his how new now see two way who did its let put say
    she too use may per via yet got off own set""".split()
)


@dataclass(frozen=True)
class PassageSeed:
    """What one passage question is written from."""

    category: str
    question_type: str
    chunks: tuple[ChunkNode, ...]
    topic: str | None
    language: str

    @property
    def key(self) -> str:
        """Stable id of the seed (category, type, chunks): what a persona, style or cache entry is tied to."""
        raw = "\x00".join([self.category, self.question_type, *(c.chunk_id for c in self.chunks)])
        return hashlib.sha256(raw.encode()).hexdigest()[:16]

    @property
    def doc_ids(self) -> list[str]:
        """The documents of the passages, in passage order."""
        return [c.doc_id for c in self.chunks]


@dataclass
class _Profile:
    """What the sampler knows of one chunk."""

    chunk: ChunkNode
    score: float
    cues: frozenset[str]
    has_date: bool
    has_number: bool
    terms: frozenset[str]


@dataclass
class PassageSampler:
    """Draws passage seeds for one run, evenly over documents, never the same chunk (or text) twice."""

    ctx: GenContext
    seed: int = 42
    used_chunks: set[str] = field(default_factory=set)
    used_texts: set[str] = field(default_factory=set)
    usage: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self._reserved: dict[str, list[PassageSeed]] = {}
        self._rng = random.Random(f"{self.seed}:passages")
        self._profiles: dict[str, _Profile] = {}
        self._by_doc: dict[str, list[str]] = {}
        self._doc_order: dict[str, int] = {}
        # a page published twice is one page: usage is counted per distinct document text
        self._page = {d: hashlib.sha256(self.ctx.doc_text.get(d, "").encode()).hexdigest()[:16] for d in self.ctx.docs}
        docs = sorted(self.ctx.docs)
        self._rng.shuffle(docs)
        self._doc_order = {d: i for i, d in enumerate(docs)}
        self._term_docs: dict[str, set[str]] = {}
        for doc_id in sorted(self.ctx.chunks_by_doc):
            kept = []
            for chunk in self.ctx.chunks_by_doc[doc_id]:
                profile = self._profile(chunk)
                if profile is not None:
                    self._profiles[chunk.chunk_id] = profile
                    kept.append(chunk.chunk_id)
                    for term in profile.terms:
                        self._term_docs.setdefault(term, set()).add(doc_id)
            if kept:
                self._by_doc[doc_id] = kept
        self._topic_limit = max(3, int(len(set(self._page.values())) ** TOPIC_DOC_EXPONENT))
        self._jitter = {cid: self._rng.random() for cid in sorted(self._profiles)}
        self._topic_terms = sorted(t for t, d in self._term_docs.items() if 3 <= self._pages(d) <= self._topic_limit)
        # how many other documents a chunk shares a topic with: a single seed leaves such chunks to the
        # multi-document seeds, which have fewer to choose from
        self._links: dict[str, int] = {}
        for cid, profile in self._profiles.items():
            others: set[str] = set()
            for term in profile.terms:
                sharing = self._term_docs.get(term, set())
                if 2 <= self._pages(sharing) <= self._topic_limit:
                    others |= {self._page[d] for d in sharing}
            others.discard(self._page[profile.chunk.doc_id])
            self._links[cid] = len(others)

    def _pages(self, docs: set[str]) -> int:
        """Distinct pages among `docs` (a page published twice is one)."""
        return len({self._page[d] for d in docs})

    def uses(self, doc_id: str) -> int:
        """Seeds drawn so far from this document's text (a page published twice counts as one page)."""
        return self.usage[self._page[doc_id]]

    # -- what a chunk offers -----------------------------------------------------------------------------------

    def _profile(self, chunk: ChunkNode) -> _Profile | None:
        text = chunk.text
        lines = [line for line in text.splitlines() if line.strip()]
        if not lines:
            return None
        cjk = is_cjk(text)
        words = len(re.findall(f"[{CJK}]", text)) // 2 if cjk else len(content_words(text))
        if words < MIN_WORDS:
            return None
        code = sum(1 for line in lines if line.startswith(("    ", "\t", "```", ">>>", "$ ")))
        table = sum(1 for line in lines if line.lstrip().startswith("|"))
        links = len(_LINK.findall(text))
        short = sum(1 for line in lines if len(line.split()) < 4 and not line.lstrip().startswith("#"))
        if (code + table) / len(lines) > 0.5 or links > max(3, words // 12) or short / len(lines) > 0.6:
            return None  # code, a table, a link list or navigation: no prose to ask about
        sentences = [s for s in re.split(r"(?<=[.!?。！？])\s+", text) if len(s.split()) >= 6 or (cjk and len(s) >= 15)]
        if len(sentences) < 2 and not _CUES["list"].search(text):
            return None
        cues = frozenset(name for name, pattern in _CUES.items() if pattern.search(text))
        values = find_values(text)
        score = min(len(sentences), 10) + 0.5 * len(cues) - 0.5 * links
        terms = key_terms(text, chunk.heading_path)
        return _Profile(
            chunk,
            score,
            cues,
            any(v.value_type == "date" for v in values),
            any(v.number is not None for v in values),
            terms,
        )

    def _fits(self, profile: _Profile, category: str, question_type: str, single: bool = True) -> tuple[bool, bool]:
        """(may be used at all, carries what the type prefers); a comparative seed of one passage must contrast
        two things itself."""
        if category == "temporal" and not profile.has_date:
            return False, False
        if category == "numerical" and not profile.has_number:
            return False, False
        if single and category == "comparative" and "contrast" not in profile.cues:
            return False, False
        return True, question_type in profile.cues

    def _free(self, chunk_id: str) -> bool:
        return chunk_id not in self.used_chunks and self._text_key(chunk_id) not in self.used_texts

    def _text_key(self, chunk_id: str) -> str:
        return hashlib.sha256(self.ctx.chunk_norm[chunk_id].encode()).hexdigest()[:16]

    def _take(self, chunk_ids: list[str]) -> None:
        for chunk_id in chunk_ids:
            self.used_chunks.add(chunk_id)
            self.used_texts.add(self._text_key(chunk_id))
            self.usage[self._page[self.ctx.chunks[chunk_id].doc_id]] += 1

    def _rank(self, chunk_id: str, prefer: bool) -> tuple[float, ...]:
        return (-(3.0 if prefer else 0.0) - self._profiles[chunk_id].score, self._jitter[chunk_id])

    # -- seeds -------------------------------------------------------------------------------------------------

    def reserve(self, plan: dict[str, list[str]], sizes: dict[str, int]) -> None:
        """Draw the multi-document seeds of a run's plan first (three documents, then two): they have fewer
        passages to choose from, and single-passage seeds drawn before them could use those up."""
        for category in sorted(plan, key=lambda c: (-sizes.get(c, 1), c)):
            size = sizes.get(category, 1)
            if size < 2 or category == "comparative":  # a comparative seed is one contrasting passage first
                continue
            for question_type in plan[category]:
                seed = self._group(category, question_type, size)
                if seed is None:
                    break
                self._reserved.setdefault(category, []).append(seed)

    def draw(self, category: str, question_type: str, size: int) -> PassageSeed | None:
        """The next seed for one slot (None when the KB has no passage left that fits); a reserved seed of the
        category first, asked in the slot's type."""
        reserved = self._reserved.get(category)
        if reserved:
            match = next((i for i, s in enumerate(reserved) if s.question_type == question_type), 0)
            return replace(reserved.pop(match), question_type=question_type)
        if size >= 3:
            return self._group(category, question_type, 3)
        if category == "comparative":  # one passage contrasting two things, else two passages on one topic
            return self._single(category, question_type) or self._group(category, question_type, 2)
        if size == 2:
            return self._group(category, question_type, 2)
        return self._single(category, question_type)

    def _single(self, category: str, question_type: str) -> PassageSeed | None:
        best: tuple[tuple[float, ...], str] | None = None
        floor = min((self.usage[self._page[d]] for d in self._by_doc), default=0)
        for doc_id, chunk_ids in self._by_doc.items():
            if self.usage[self._page[doc_id]] > floor + 1:
                continue
            for chunk_id in chunk_ids:
                if not self._free(chunk_id):
                    continue
                usable, prefer = self._fits(self._profiles[chunk_id], category, question_type)
                if not usable:
                    continue
                # evenness first (a document one seed ahead only wins with the preferred cue), then chunks that
                # no other document shares a topic with, then fit
                rank = (
                    float(self.usage[self._page[doc_id]] - (1 if prefer else 0)),
                    float(min(self._links[chunk_id], 3)),
                    *self._rank(chunk_id, prefer),
                )
                if best is None or rank < best[0]:
                    best = (rank, chunk_id)
        if best is None:
            return self._single_any(category, question_type)
        self._take([best[1]])
        return self._seed(category, question_type, [best[1]], None)

    def _single_any(self, category: str, question_type: str) -> PassageSeed | None:
        """Any free chunk that fits, whatever its document's usage (the even pass found none)."""
        ranked = sorted(
            (self.usage[self._page[c.doc_id]], *self._rank(cid, prefer), cid)
            for cid, p in self._profiles.items()
            if self._free(cid)
            for c in (p.chunk,)
            for usable, prefer in (self._fits(p, category, question_type),)
            if usable
        )
        if not ranked:
            return None
        chunk_id = str(ranked[0][-1])
        self._take([chunk_id])
        return self._seed(category, question_type, [chunk_id], None)

    def _group(self, category: str, question_type: str, size: int) -> PassageSeed | None:
        """Chunks of `size` different documents that share a specific topic (a word or an entity)."""
        if size == 2:
            pair = self._similar_pair(category, question_type)
            if pair is not None:
                return pair
        for topic, docs in self._topics(size):
            picked: list[str] = []
            for doc_id in sorted(docs, key=lambda d: (self.usage[self._page[d]], self._doc_order.get(d, 0))):
                options = [
                    cid
                    for cid in self._by_doc.get(doc_id, [])
                    if self._free(cid)
                    and topic in self._profiles[cid].terms | self._mentioned(cid)
                    and self._fits(self._profiles[cid], category, question_type, False)[0]
                    and all(not _same_text(self.ctx, cid, other) for other in picked)
                ]
                if not options or self._page[doc_id] in {self._page[self.ctx.chunks[c].doc_id] for c in picked}:
                    continue
                prefer = {c: self._fits(self._profiles[c], category, question_type)[1] for c in options}
                picked.append(min(options, key=lambda c: self._rank(c, prefer[c])))
                if len(picked) == size:
                    break
            if len(picked) == size:
                self._take(picked)
                return self._seed(category, question_type, picked, self._topic_name(topic))
        return None

    def _similar_pair(self, category: str, question_type: str) -> PassageSeed | None:
        """A free chunk of a least-used document and its best ``similar`` neighbour in another document, when
        the two share a specific word or entity (the topic named in the prompt)."""
        firsts = sorted(
            (self.usage[self._page[p.chunk.doc_id]], *self._rank(cid, self._fits(p, category, question_type)[1]), cid)
            for cid, p in self._profiles.items()
            if self._free(cid) and self._fits(p, category, question_type, False)[0]
        )
        for entry in firsts[:60]:
            first = str(entry[-1])
            doc = self.ctx.chunks[first].doc_id
            node = f"chunk:{first}"
            partners = self.ctx.kg.neighbours(node, "similar") + self.ctx.kg.neighbours(node, "similar", reverse=True)
            options = []
            for other in sorted({p.removeprefix("chunk:") for p in partners}):
                profile = self._profiles.get(other)
                if (
                    profile is None
                    or self._page[profile.chunk.doc_id] == self._page[doc]
                    or not self._free(other)
                    or not self._fits(profile, category, question_type, False)[0]
                    or _same_text(self.ctx, first, other)
                ):
                    continue
                topic = self._shared_topic(first, other)
                if topic is not None:
                    options.append((self.usage[self._page[profile.chunk.doc_id]], self._jitter[other], other, topic))
            if options:
                _, _, second, topic = min(options)
                self._take([first, second])
                return self._seed(category, question_type, [first, second], self._topic_name(topic))
        return None

    def _shared_topic(self, a: str, b: str) -> str | None:
        """The most specific entity or word two chunks share (fewest documents, then longest), or None."""
        entities = sorted(
            (e for e in self._mentioned(a) & self._mentioned(b) if self._specific_entity(e)),
            key=lambda e: (len(self.ctx.entity_chunks.get(e, ())), e),
        )
        if entities:
            return entities[0]
        shared = [
            t
            for t in self._profiles[a].terms & self._profiles[b].terms
            if 2 <= self._pages(self._term_docs.get(t, set())) <= self._topic_limit
        ]
        if not shared:
            return None
        return min(shared, key=lambda t: (self._pages(self._term_docs[t]), -len(t), t))

    def _specific_entity(self, entity_id: str) -> bool:
        docs = {self.ctx.chunks[c].doc_id for c in self.ctx.entity_chunks.get(entity_id, ())}
        return 2 <= self._pages(docs) <= max(self._topic_limit, 0.6 * len(set(self._page.values())))

    def _topics(self, size: int) -> list[tuple[str, set[str]]]:
        """Topics shared by at least `size` documents with free chunks, least-used documents first."""
        free_docs = {d for d, ids in self._by_doc.items() if any(self._free(c) for c in ids)}
        found: list[tuple[tuple[float, ...], str, set[str]]] = []
        for term in self._topic_terms:
            docs = self._term_docs[term]
            live = docs & free_docs
            if self._pages(live) < size:
                continue
            lowest = sorted(self.usage[self._page[d]] for d in live)[:size]
            found.append(((sum(lowest), -len(term), self._term_jitter(term)), term, live))
        for entity_id in sorted(self.ctx.entity_chunks):
            if not self._specific_entity(entity_id):
                continue
            live = {self.ctx.chunks[c].doc_id for c in self.ctx.entity_chunks[entity_id]} & free_docs
            if self._pages(live) < size:
                continue
            lowest = sorted(self.usage[self._page[d]] for d in live)[:size]
            found.append(((sum(lowest) - 0.5, 0.0, self._term_jitter(entity_id)), entity_id, live))
        found.sort(key=lambda x: x[0])
        return [(term, docs) for _, term, docs in found[:40]]

    def _term_jitter(self, term: str) -> float:
        return random.Random(f"{self.seed}:topic:{term}").random()

    def _mentioned(self, chunk_id: str) -> set[str]:
        return set(self.ctx.chunk_mentions.get(chunk_id, set()))

    def _topic_name(self, topic: str) -> str:
        entity = self.ctx.entities.get(topic)
        return entity.name if entity is not None else topic

    def _seed(self, category: str, question_type: str, chunk_ids: list[str], topic: str | None) -> PassageSeed:
        chunks = tuple(self.ctx.chunks[c] for c in chunk_ids)
        language = self.ctx.language or self.ctx.docs[chunks[0].doc_id].language
        return PassageSeed(category, question_type, chunks, topic, language)


def key_terms(text: str, heading_path: list[str] | tuple[str, ...] = ()) -> frozenset[str]:
    """The words a chunk is about: a topic-like word it repeats, writes as a name (capitalised inside a
    sentence, or an acronym) or has in its headings — "GPU", "Python", "vaccine" said three times; not "happy"
    said once."""
    counts = Counter(t for t in tokens(text) if _term_like(t))
    named = {m.group(1).casefold() for m in re.finditer(r"(?<=[a-z,;:] )([A-Z][a-zA-Z]{3,}|[A-Z]{2,}[a-z]?s?)\b", text)}
    headed = {t for h in heading_path for t in tokens(h)}
    cjk = is_cjk(text)
    return frozenset(t for t, n in counts.items() if n >= (3 if cjk else 2) or t in named or t in headed)


def _term_like(token: str) -> bool:
    """A word that can name a topic: a Latin word of 5+ letters that is no function word, or a CJK bigram."""
    if is_cjk(token):
        return len(token) >= 2
    return len(token) >= 3 and token.isalpha() and token not in _STOP and not token.endswith("ly")


def _same_text(ctx: GenContext, a: str, b: str) -> bool:
    """Two chunks that say the same thing (a restated page): not two passages."""
    if ctx.chunk_norm[a] == ctx.chunk_norm[b]:
        return True
    return jaccard(set(tokens(ctx.chunk_norm[a])), set(tokens(ctx.chunk_norm[b]))) >= 0.6
