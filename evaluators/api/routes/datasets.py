"""Test sets: ``POST /evaluation/datasets`` (JSON questions, a server-side source, or a tests.jsonl upload),
``GET /evaluation/datasets`` and ``GET /evaluation/datasets/{dataset_id}``."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path, PurePath

from fastapi import APIRouter, HTTPException, Request
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile

from evaluators.api.bodies import (
    ERRORS,
    NOT_FOUND,
    DatasetQuestions,
    DatasetSource,
    ErrorBody,
    invalid_body,
    is_json,
    json_body,
    media_type,
    schema_ref,
    validate,
    validate_name,
)
from evaluators.api.deps import Store
from evaluators.errors import StoreNotFound
from evaluators.store import RunStore
from schemas import DatasetInfo, TestQuestion
from testgen.errors import UserInputError

router = APIRouter()

DATASET_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {"schema": {"anyOf": [schema_ref(DatasetQuestions), schema_ref(DatasetSource)]}},
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "properties": {
                        "file": {"type": "string", "format": "binary", "description": "A tests.jsonl file."},
                        "name": {"type": "string", "description": "Default: the file name."},
                    },
                    "required": ["file"],
                }
            },
        },
    }
}


def dataset_or_404(store: RunStore, dataset_id: int) -> DatasetInfo:
    """Test set `dataset_id` of `store`, or a 404 naming the id."""
    try:
        return store.get_dataset(dataset_id)
    except StoreNotFound:
        raise HTTPException(404, f"no dataset with id {dataset_id}") from None


def parse_upload(data: bytes, filename: str) -> list[TestQuestion]:
    """Questions from an uploaded tests.jsonl, errors naming the uploaded file's name and line."""
    from testgen.export.jsonl import read_jsonl

    with tempfile.TemporaryDirectory(prefix="testgen-upload-") as folder:
        path = Path(folder) / "upload.jsonl"  # never the client's name: it could be "..", or hold a separator
        path.write_bytes(data)
        try:
            return read_jsonl(path)
        except UserInputError as exc:
            raise UserInputError(str(exc).replace(str(path), filename)) from None


def load_source(ref: str) -> list[TestQuestion]:
    """Questions from a path on the server or an ``hf://`` reference."""
    from testgen.hub import load_dataset_ref

    try:
        return load_dataset_ref(ref)
    except OSError as exc:
        raise UserInputError(f"{ref}: cannot read: {exc.strerror or exc}") from exc


def ref_name(ref: str) -> str:
    """The name a test set loaded from `ref` gets when the request names none."""
    from testgen.hub import dataset_ref_name

    return dataset_ref_name(ref) or ref


def check_not_empty(questions: Sequence[TestQuestion]) -> None:
    """A 400 for a test set with no questions."""
    if not questions:
        raise UserInputError("the dataset holds no test questions (give at least one)")


async def from_upload(request: Request) -> tuple[str, list[TestQuestion], str]:
    """(name, questions, source) of a multipart upload of a tests.jsonl."""
    async with request.form() as form:
        upload = form.get("file")
        if not isinstance(upload, UploadFile):
            raise invalid_body("upload the tests.jsonl as form field file", "file")
        filename = PurePath(upload.filename or "").name or "upload.jsonl"
        given = form.get("name")
        name = validate_name(given if isinstance(given, str) and given.strip() else filename)
        data = await upload.read()
    questions = await run_in_threadpool(parse_upload, data, filename)
    return name, questions, "upload"


async def from_json(request: Request) -> tuple[str, list[TestQuestion], str]:
    """(name, questions, source) of a JSON body that holds the questions or names a source the server loads."""
    raw = await json_body(request)
    if isinstance(raw, dict) and "questions" in raw:
        sent: DatasetQuestions = validate(DatasetQuestions, raw)
        return sent.name, sent.questions, "upload"
    if isinstance(raw, dict) and "source" in raw:
        ref: DatasetSource = validate(DatasetSource, raw)
        questions = await run_in_threadpool(load_source, ref.source)
        return ref.name or ref_name(ref.source), questions, ref.source
    raise invalid_body(
        "give a JSON object with questions (a list of test questions) or source "
        "(a tests.jsonl path on the server, or hf://org/name)"
    )


@router.post(
    "/evaluation/datasets",
    status_code=201,
    response_model=DatasetInfo,
    responses={**ERRORS, 415: {"model": ErrorBody, "description": "Neither JSON nor multipart"}},
    openapi_extra=DATASET_BODY,
    summary="Register a test set",
)
async def add_dataset(request: Request, store: Store) -> DatasetInfo:
    """Send the questions (JSON), name a source the server loads (JSON), or upload a tests.jsonl (multipart)."""
    content_type = media_type(request)
    if content_type == "multipart/form-data":
        name, questions, source = await from_upload(request)
    elif is_json(content_type):
        name, questions, source = await from_json(request)
    else:
        raise HTTPException(415, "send JSON (questions or source) or a multipart upload (form field file)")
    check_not_empty(questions)
    info: DatasetInfo = await run_in_threadpool(lambda: store.add_dataset(questions, name=name, source=source))
    return info


@router.get("/evaluation/datasets", response_model=list[DatasetInfo], summary="List test sets")
def list_datasets(store: Store) -> list[DatasetInfo]:
    """Every registered test set."""
    return store.list_datasets()


@router.get(
    "/evaluation/datasets/{dataset_id}", response_model=DatasetInfo, responses=NOT_FOUND, summary="One test set"
)
def get_dataset(dataset_id: int, store: Store) -> DatasetInfo:
    """One test set (question count by category)."""
    return dataset_or_404(store, dataset_id)
