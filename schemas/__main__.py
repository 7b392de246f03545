"""Write the JSON Schema files of the contracts: ``python -m schemas``."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel

from schemas import Chunk, Document, FactNode, QuestionResult, RunDetail, RunRecord, TestQuestion

MODELS: dict[str, type[BaseModel]] = {
    "test_question": TestQuestion,
    "document": Document,
    "chunk": Chunk,
    "fact": FactNode,
    "run_record": RunRecord,
    "question_result": QuestionResult,
    "run_detail": RunDetail,
}


def render(name: str) -> str:
    """The JSON Schema text of one contract, as stored in the repository."""
    return json.dumps(MODELS[name].model_json_schema(), indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def main() -> None:
    here = Path(__file__).parent
    for name in MODELS:
        (here / f"{name}.schema.json").write_text(render(name), encoding="utf-8")
        print(f"wrote schemas/{name}.schema.json")


if __name__ == "__main__":
    main()
