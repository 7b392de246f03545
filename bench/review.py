"""Review bench: a person reads a stratified sample of a test set next to its sources, and rates each item.

What it does
    Sampling mode (``--dataset``): draws ``-n`` items stratified by category — each category's items are
    shuffled with a seed derived from ``--seed`` and the category name, then taken round-robin over the
    categories (in the schema's category order) until ``n`` are drawn or every category is used up, so every
    category present in the set appears when ``n`` allows. Prints, per item: category, question, reference
    answer, keywords, source_docs and the passages to check them against — the item's reference_contexts,
    then for each source document its title and up to ~600 characters around the first occurrence of any of
    the item's keywords (found by the normalised match of ``testgen.text.contains_keyword``; the first
    occurrence is marked «like this»). ``--dump FILE`` writes the same sheet to a text file for the reviewer.
    Writes ``<out>/<corpus>.csv`` with one row per item and six empty rating columns (``fluent``,
    ``answerable``, ``answer_correct``, ``category_fits``, ``keywords_ok``, ``source_docs_complete``) to be
    filled with 1 or 0, plus ``notes``. A CSV whose ratings are already (partly) filled is never overwritten
    without ``--force``.

    Scoring mode (``--score DIR``): reads every ``*.csv`` in DIR and prints per corpus the rated items (rows
    with all six ratings), the share passing all six, and the share passing each check. Rows with any empty
    rating are counted as unrated and left out of every share.

The six checks
    fluent               the question reads as something a person would ask
    answerable           the question can be answered from the source passages alone
    answer_correct       the reference answer is right according to the sources
    category_fits        the item is what its category says (a comparison compares, a temporal asks a date)
    keywords_ok          the keywords are the answer's key terms and appear in the sources
    source_docs_complete source_docs lists every document needed, and no other

Target
    None fixed: a measured quality figure per corpus, to compare generators and versions.

Run
    python bench/review.py --dataset tests.jsonl --kb examples/aurora_bikes --corpus aurora -n 40 --dump sheet.txt
    python bench/review.py --score bench/reviews
"""

from __future__ import annotations

import argparse
import csv
import random
import re
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from schemas import CATEGORIES, Document, TestQuestion
from testgen.corpus import load_kb
from testgen.errors import UserInputError
from testgen.export.jsonl import read_jsonl
from testgen.text import contains_keyword, normalize

RATINGS = ("fluent", "answerable", "answer_correct", "category_fits", "keywords_ok", "source_docs_complete")
COLUMNS = ("id", "category", "question", "reference_answer", "keywords", "source_docs", *RATINGS, "notes")
JOIN = " | "
PASSAGE_CHARS = 600


def sample_items(items: list[TestQuestion], n: int, seed: int) -> list[TestQuestion]:
    """Up to `n` items, round-robin over the categories (schema order, unknown ones after, by name).

    Each category's items are shuffled with ``Random(f"{seed}:{category}")``, so adding items of one
    category never reshuffles another's draw."""
    by_category: dict[str, list[TestQuestion]] = defaultdict(list)
    for item in items:
        by_category[item.category].append(item)
    order = [c for c in CATEGORIES if c in by_category] + sorted(c for c in by_category if c not in CATEGORIES)
    queues = []
    for category in order:
        group = list(by_category[category])
        random.Random(f"{seed}:{category}").shuffle(group)
        queues.append(group)
    chosen: list[TestQuestion] = []
    depth = 0
    while len(chosen) < n and any(depth < len(q) for q in queues):
        for queue in queues:
            if depth < len(queue) and len(chosen) < n:
                chosen.append(queue[depth])
        depth += 1
    return chosen


def _raw_pattern(keyword: str) -> re.Pattern[str] | None:
    """The keyword as it may appear in the raw text: any case, any whitespace, markdown emphasis between, and the
    word boundaries the metric's match keeps (``5%`` is not marked inside ``15%``, nor ``50`` inside ``500``)."""
    words = keyword.split()
    if not words:
        return None
    latin = r"0-9A-Za-z\u00c0-\u024f"
    left = rf"(?<![{latin}])" if re.match(rf"[{latin}]", keyword) else ""
    right = rf"(?![{latin}])" if re.search(rf"[{latin}]$", keyword) else ""
    return re.compile(left + r"[\s*_`~]+".join(re.escape(w) for w in words) + right, re.IGNORECASE)


def keyword_passage(
    text: str, keywords: list[str], width: int = PASSAGE_CHARS, near: tuple[str, ...] = ()
) -> str | None:
    """Up to `width` characters of `text` around the first occurrence of any keyword, the match marked «…». A
    keyword inside one of the `near` spans (the item's reference contexts) is marked there first: a table with
    the value in several rows is shown at the row the item is about.

    Whether a keyword occurs is decided by the normalised match (``contains_keyword``); its position is then
    looked up in the raw text, or, when the raw text spells it differently (NFKC forms), in the normalised
    text, which is shown instead. None when no keyword occurs."""
    norm = normalize(text)
    present = [k for k in keywords if k.strip() and contains_keyword(norm, k)]
    if not present:
        return None
    best: tuple[int, int, str] | None = None
    spans = [(at, at + len(span.strip())) for span in near if span.strip() and (at := text.find(span.strip())) >= 0]
    found: list[tuple[bool, int, int]] = []  # (outside every near span, start, end)
    for keyword in present:
        pattern = _raw_pattern(keyword)
        if pattern is None:
            continue
        found += [(False, m.start(), m.end()) for a, b in spans if (m := pattern.search(text, a, b))]
        if (match := pattern.search(text)) is not None:
            found.append((True, match.start(), match.end()))
    if found:
        _, start, end = min(found)
        best = (start, end, text)
    if best is None:  # spelled differently in the raw text: show the normalised form
        for keyword in present:
            pos = norm.find(normalize(keyword))
            if pos >= 0 and (best is None or pos < best[0]):
                best = (pos, pos + len(normalize(keyword)), norm)
    if best is None:
        return None
    start, end, source = best
    left = max(0, start - (width - (end - start)) // 3)
    right = min(len(source), left + width)
    left = max(0, min(left, right - width))
    snippet = source[left:start] + "«" + source[start:end] + "»" + source[end:right]
    snippet = re.sub(r"\n\s*\n+", "\n", snippet).strip()  # keep table rows and list items on their lines
    return ("… " if left > 0 else "") + snippet + (" …" if right < len(source) else "")


def render_item(number: int, item: TestQuestion, docs: dict[str, Document]) -> str:
    """One item of the review sheet: its fields, its reference contexts and a passage per source document."""
    lines = [
        f"=== [{number}] {item.id or '(no id)'} — {item.category}",
        f"question:         {item.question}",
        f"reference_answer: {item.reference_answer}",
        f"keywords:         {JOIN.join(item.keywords)}",
        f"source_docs:      {JOIN.join(item.source_docs)}",
    ]
    if item.reference_contexts:
        lines.append("reference_contexts:")
        lines.extend("  - " + re.sub(r"\s+", " ", c).strip() for c in item.reference_contexts)
    for doc_id in item.source_docs:
        doc = docs.get(doc_id)
        if doc is None:
            lines.append(f"[{doc_id}] (not in the KB folder)")
            continue
        lines.append(f"[{doc_id}] title: {doc.title}")
        passage = keyword_passage(doc.text, item.keywords, near=tuple(item.reference_contexts or ()))
        if passage is None:
            opening = re.sub(r"\s+", " ", doc.text[:300]).strip()
            lines.append(f"    (no keyword found in this document) opening: {opening} …")
        else:
            lines.extend("    " + line for line in passage.splitlines())
    return "\n".join(lines)


def review_sheet(items: list[TestQuestion], docs: dict[str, Document], corpus: str) -> str:
    """The whole sheet: a header with the checks, then every sampled item."""
    head = f"Review sheet: {corpus}, {len(items)} items\nRate each item 1 or 0 in the CSV on: {', '.join(RATINGS)}.\n\n"
    return head + "\n\n".join(render_item(i, item, docs) for i, item in enumerate(items, 1)) + "\n"


def has_ratings(path: Path) -> bool:
    """Whether any row of an existing review CSV has a rating filled in."""
    with path.open(encoding="utf-8", newline="") as handle:
        return any((row.get(r) or "").strip() for row in csv.DictReader(handle) for r in RATINGS)


def write_csv(path: Path, items: list[TestQuestion], force: bool = False) -> Path:
    """The review CSV with empty rating columns; refuses to replace a CSV with ratings unless `force`."""
    if path.exists() and not force and has_ratings(path):
        raise UserInputError(f"{path} already holds ratings; pass --force to replace it (the ratings are lost)")
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS)
        writer.writeheader()
        for item in items:
            writer.writerow(
                {
                    "id": item.id or "",
                    "category": item.category,
                    "question": item.question,
                    "reference_answer": item.reference_answer,
                    "keywords": JOIN.join(item.keywords),
                    "source_docs": JOIN.join(item.source_docs),
                    **dict.fromkeys(RATINGS, ""),
                    "notes": "",
                }
            )
    return path


@dataclass
class Score:
    """The ratings of one review CSV."""

    rated: int  # rows with all six ratings
    unrated: int  # rows with any rating empty: left out of every share
    all_pass: float | None  # share of rated rows passing all six checks (None: nothing rated)
    per_check: dict[str, float | None]  # share of rated rows passing each check


def score_rows(rows: list[dict[str, str]], where: str = "") -> Score:
    """Rated rows (all six ratings 1 or 0), unrated rows, the share passing all six and each check.

    A rating other than 1/0 raises UserInputError naming the CSV line."""
    rated: list[dict[str, int]] = []
    unrated = 0
    for line, row in enumerate(rows, start=2):  # line 1 is the header
        values = {r: (row.get(r) or "").strip() for r in RATINGS}
        if any(not v for v in values.values()):
            unrated += 1
            continue
        bad = {r: v for r, v in values.items() if v not in ("0", "1")}
        if bad:
            raise UserInputError(f"{where}:{line}: ratings must be 1 or 0, got {bad}")
        rated.append({r: int(v) for r, v in values.items()})
    n = len(rated)
    return Score(
        rated=n,
        unrated=unrated,
        all_pass=sum(all(r.values()) for r in rated) / n if n else None,
        per_check={c: (sum(r[c] for r in rated) / n if n else None) for c in RATINGS},
    )


def score_folder(folder: Path) -> dict[str, Score]:
    """`score_rows` for every ``*.csv`` in `folder`, keyed by corpus (the file stem)."""
    scores = {}
    for path in sorted(folder.glob("*.csv")):
        with path.open(encoding="utf-8", newline="") as handle:
            scores[path.stem] = score_rows(list(csv.DictReader(handle)), where=str(path))
    return scores


def _share(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def format_scores(scores: dict[str, Score]) -> str:
    """A table: one row per corpus, the rated count, the all-six share and each check's share."""
    names = ("corpus", "rated", "unrated", "all six", *RATINGS)
    rows = [
        [corpus, str(s.rated), str(s.unrated), _share(s.all_pass), *(_share(s.per_check[c]) for c in RATINGS)]
        for corpus, s in scores.items()
    ]
    widths = [max(len(x) for x in column) for column in zip(names, *rows, strict=True)]
    return "\n".join(
        " ".join(
            cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        )
        for row in [list(names), *rows]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, help="the test set to sample (tests.jsonl)")
    parser.add_argument("--kb", type=Path, help="the KB folder the set was built from")
    parser.add_argument("--corpus", help="name of the corpus: the CSV is <out>/<corpus>.csv")
    parser.add_argument("-n", type=int, default=40, help="items to sample (default 40)")
    parser.add_argument("--seed", type=int, default=1, help="sampling seed (default 1)")
    parser.add_argument("--out", type=Path, default=Path("bench/reviews"), help="CSV folder (default bench/reviews)")
    parser.add_argument("--dump", type=Path, help="also write the review sheet to this text file")
    parser.add_argument("--force", action="store_true", help="replace a CSV that already holds ratings")
    parser.add_argument("--score", type=Path, metavar="DIR", help="score every rated CSV in DIR instead")
    args = parser.parse_args(argv)
    try:
        if args.score is not None:
            if not args.score.is_dir():
                raise UserInputError(f"--score: {args.score} is not a folder")
            scores = score_folder(args.score)
            print(format_scores(scores) if scores else f"no review CSV in {args.score}")
            return 0
        if args.dataset is None or args.kb is None or not args.corpus:
            parser.error("sampling needs --dataset, --kb and --corpus (or use --score DIR)")
        if args.n < 1:
            parser.error("-n must be at least 1")
        items = sample_items(read_jsonl(args.dataset), args.n, args.seed)
        docs = {d.doc_id: d for d in load_kb(args.kb).documents}
        sheet = review_sheet(items, docs, args.corpus)
        target = args.out / f"{args.corpus}.csv"
        write_csv(target, items, force=args.force)  # refuse before printing anything else
        print(sheet, end="")
        if args.dump is not None:
            args.dump.parent.mkdir(parents=True, exist_ok=True)
            args.dump.write_text(sheet, encoding="utf-8")
        counts = {c: sum(i.category == c for i in items) for c in dict.fromkeys(i.category for i in items)}
        drawn = ", ".join(f"{c} {k}" for c, k in counts.items())
        print(f"sampled {len(items)} items ({drawn}); wrote {target}", file=sys.stderr)
        return 0
    except UserInputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
