"""Hugging Face Hub: push a test set as a dataset repository (Parquet + dataset card) and load it back.

A dataset reference (what `load_dataset_ref` and ``evaluate --dataset`` accept) is one of::

    hf://org/name                  every split under data/ on the default branch, in split-name order
    hf://org/name@v1.0             at a branch, tag or commit
    hf://org/name@v1.0#test        one split only (also hf://org/name#test)
    tests.hf/                      a folder written by ``save_to_disk`` (all its splits)
    tests.jsonl | tests.parquet    a local file

The Hub address is ``HF_ENDPOINT`` (read at each call) or https://huggingface.co. The token comes from the
environment (``HF_TOKEN`` or a variable the caller names) or huggingface_hub's login cache; it is never
printed, logged, or written to the card or any file.
"""

from __future__ import annotations

import io
import json
import os
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from schemas import TestQuestion
from testgen.errors import DatasetFormatError, UserInputError
from testgen.export.card import dataset_card
from testgen.export.hf import from_hf_dataset, to_hf_dataset
from testgen.export.jsonl import read_jsonl
from testgen.redact import redact

DEFAULT_ENDPOINT = "https://huggingface.co"
_LOGIN = "set HF_TOKEN or run `hf auth login`"
_REF = re.compile(r"hf://(?:datasets/)?(?P<repo>[^/@#\s]+/[^/@#\s]+)(?:@(?P<rev>[^#\s]+))?(?:#(?P<split>\S+))?")
_SPLIT = re.compile(r"\w+(\.\w+)*", re.ASCII)  # the split names `datasets` accepts
_DATA_FILE = re.compile(r"data/(?P<split>\w+(?:\.\w+)*?)(?:-\d+-of-\d+)?\.parquet", re.ASCII)


class HubError(UserInputError):
    """A Hub operation failed for a reason the user can fix (token, permissions, name, network)."""


@dataclass(frozen=True)
class HubRef:
    """A parsed ``hf://org/name[@revision][#split]`` reference."""

    repo_id: str
    revision: str | None = None
    split: str | None = None

    @classmethod
    def parse(cls, ref: str) -> HubRef:
        """Parse `ref`; raise `HubError` giving the syntax when it does not match."""
        m = _REF.fullmatch(ref.strip())
        if not m or (m["split"] and not _SPLIT.fullmatch(m["split"])):
            raise HubError(f"{ref!r} is not a Hub dataset reference (use hf://org/name[@revision][#split])")
        return cls(_check_repo_id(m["repo"]), m["rev"], m["split"])


@dataclass(frozen=True)
class PushResult:
    """What `push_dataset` committed: the repo page, the commit id and the files written."""

    url: str
    commit: str
    files: tuple[str, ...]
    rows: int


def hub_endpoint() -> str:
    """The Hub base URL: ``HF_ENDPOINT`` at call time, else https://huggingface.co."""
    return (os.environ.get("HF_ENDPOINT") or DEFAULT_ENDPOINT).rstrip("/")


def is_hub_ref(ref: str | os.PathLike[str]) -> bool:
    """True for ``hf://`` references (anything else is a local path)."""
    return str(ref).startswith("hf://")


def dataset_ref_name(ref: str | os.PathLike[str]) -> str:
    """A short name for reports: the ``hf://`` reference itself, else the file or folder name."""
    return str(ref) if is_hub_ref(ref) else Path(ref).name


def resolve_token(token_env: str | None = None) -> str:
    """The Hub token from the variable `token_env` when given, else ``HF_TOKEN`` or the login cache; never echoed."""
    from huggingface_hub import get_token

    token = os.environ.get(token_env, "").strip() if token_env else get_token()  # get_token reads HF_TOKEN first
    if not token:
        fix = f"${token_env} is empty (set it, or drop --token-env: {_LOGIN})" if token_env else _LOGIN
        raise HubError(f"no Hugging Face token: {fix}")
    return token


def read_summary(dataset: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The ``<stem>.summary.json`` that ``testgen build`` writes next to `dataset`; None when there is none."""
    path = Path(dataset)
    path = Path(f"{path.with_suffix('') if path.suffix else path}.summary.json")
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UserInputError(f"{path}: cannot read the build summary ({exc}); fix or delete it") from exc
    return data if isinstance(data, dict) else None


def push_dataset(
    items: list[TestQuestion],
    repo_id: str,
    *,
    split: str = "test",
    private: bool = False,
    license: str | None = None,
    revision: str = "main",
    token: str | None = None,
    summary: dict[str, Any] | None = None,
    endpoint: str | None = None,
) -> PushResult:
    """Create (or reuse) dataset repo `repo_id`; commit ``data/{split}-00000-of-00001.parquet`` and README.md.

    The card is regenerated on every push; its ``configs`` list every split under ``data/`` so
    ``datasets.load_dataset(repo_id)`` finds them all. `token` None means `resolve_token()`. A branch
    `revision` is created from ``main`` when missing. Hub failures become `HubError` with a fix.
    """
    from huggingface_hub import CommitOperationAdd, HfApi

    if not items:
        raise HubError("nothing to push: the test set holds no questions")
    if not _SPLIT.fullmatch(split):
        raise HubError(f"invalid split name {split!r}: use letters, digits and '_' (e.g. test, validation)")
    endpoint = endpoint or hub_endpoint()
    api = HfApi(endpoint=endpoint, token=token or resolve_token())
    data_path = f"data/{split}-00000-of-00001.parquet"
    with _hub_errors(_check_repo_id(repo_id), endpoint, write=True, revision=revision):
        api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
        if revision != "main":
            api.create_branch(repo_id, branch=revision, repo_type="dataset", exist_ok=True)
        info = api.dataset_info(repo_id, revision=revision)
        if private and not info.private:
            raise HubError(f"{repo_id} exists and is public: make it private in its settings, or drop --private")
        splits = sorted({*_splits_of(s.rfilename for s in info.siblings or []), split})
        card = dataset_card(items, repo_id, split=split, splits=splits, license=license, summary=summary)
        ops = [CommitOperationAdd(data_path, _parquet_bytes(items)), CommitOperationAdd("README.md", card.encode())]
        message = f"testgen push: {len(items)} questions to split {split}"
        commit = api.create_commit(repo_id, ops, commit_message=message, repo_type="dataset", revision=revision)
    return PushResult(f"{endpoint}/datasets/{repo_id}", commit.oid, (data_path, "README.md"), len(items))


def load_dataset_ref(
    ref: str | os.PathLike[str], *, token: str | None = None, endpoint: str | None = None, cache_dir: str | None = None
) -> list[TestQuestion]:
    """Test questions from a reference (see the module docstring); `token` None lets huggingface_hub find one."""
    if is_hub_ref(ref):
        return _load_hub(HubRef.parse(str(ref)), token, endpoint or hub_endpoint(), cache_dir)
    path = Path(ref)
    if path.is_dir():
        from datasets import DatasetDict, load_from_disk

        try:
            ds = load_from_disk(str(path))
        except FileNotFoundError as exc:
            raise UserInputError(
                f"{path}: not a folder written by save_to_disk (give tests.jsonl, tests.hf/ or hf://org/name)"
            ) from exc
        parts = [ds[name] for name in sorted(ds)] if isinstance(ds, DatasetDict) else [ds]
        return [item for part in parts for item in _rows_to_items(part, str(path))]
    if path.suffix == ".parquet" and path.is_file():
        return _read_parquet(path, str(path))
    return read_jsonl(path)


def _load_hub(ref: HubRef, token: str | None, endpoint: str, cache_dir: str | None) -> list[TestQuestion]:
    from huggingface_hub import HfApi, hf_hub_download

    items: list[TestQuestion] = []
    with _hub_errors(ref.repo_id, endpoint, write=False, revision=ref.revision):
        info = HfApi(endpoint=endpoint, token=token).dataset_info(ref.repo_id, revision=ref.revision)
        files = {f: s for f in sorted(x.rfilename for x in info.siblings or []) if (s := _split_of(f))}
        wanted = sorted((s, f) for f, s in files.items() if ref.split in (None, s))
        if not wanted:
            found = ", ".join(sorted(set(files.values()))) or "none"
            raise HubError(f"{ref.repo_id}: no Parquet file for that split under data/ (splits found: {found})")
        for _, name in wanted:  # pinned to the commit just resolved: every file from one snapshot
            local = hf_hub_download(
                ref.repo_id,
                name,
                repo_type="dataset",
                revision=info.sha,
                endpoint=endpoint,
                token=token,
                cache_dir=cache_dir,
            )
            items += _read_parquet(Path(local), f"hf://{ref.repo_id}/{name}")
    return items


def _read_parquet(path: Path, source: str) -> list[TestQuestion]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        rows = pq.read_table(path).to_pylist()
    except (OSError, pa.ArrowException) as exc:
        raise UserInputError(f"{source}: not a readable Parquet file ({exc})") from exc
    return _rows_to_items(rows, source)


def _rows_to_items(rows: Iterable[dict[str, Any]], source: str) -> list[TestQuestion]:
    items: list[TestQuestion] = []
    for number, row in enumerate(rows, start=1):
        try:
            items += from_hf_dataset([row])
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "row"
            problem = f"row {number}, field {where!r}: {first['msg'].lower()}"
            raise DatasetFormatError(source, number, problem, "rows need the tests.jsonl contract fields") from exc
        except ValueError as exc:  # metadata that is not JSON text
            raise DatasetFormatError(source, number, f"row {number}: metadata is not JSON ({exc})") from exc
    if not items:
        raise DatasetFormatError(source, 1, "the dataset holds no test questions")
    return items


def _split_of(filename: str) -> str | None:
    m = _DATA_FILE.fullmatch(filename)
    return m["split"] if m else None


def _splits_of(filenames: Iterable[str]) -> set[str]:
    return {s for f in filenames if (s := _split_of(f))}


def _parquet_bytes(items: list[TestQuestion]) -> bytes:
    from datasets.utils.logging import disable_progress_bar, enable_progress_bar, is_progress_bar_enabled

    buffer, was_enabled = io.BytesIO(), is_progress_bar_enabled()
    disable_progress_bar()  # the CLI prints its own lines; datasets' bar would interleave with them
    try:
        to_hf_dataset(items).to_parquet(buffer)
    finally:
        if was_enabled:
            enable_progress_bar()
    return buffer.getvalue()


def _check_repo_id(repo_id: str) -> str:
    from huggingface_hub.errors import HFValidationError
    from huggingface_hub.utils import validate_repo_id

    try:
        validate_repo_id(repo_id)
    except HFValidationError:
        pass
    else:
        if repo_id.count("/") == 1:
            return repo_id
    raise HubError(
        f"invalid repo name {repo_id!r}: use namespace/name (letters, digits, '-', '_', '.'; no '--' or "
        "'..'; at most 96 characters)"
    )


def _transport_errors() -> tuple[type[Exception], ...]:
    """The connection errors of the HTTP clients huggingface_hub may use: httpx, and httpx2 (its successor, which
    newer huggingface_hub releases call instead)."""
    import httpx

    errors: tuple[type[Exception], ...] = (httpx.TransportError,)
    try:
        import httpx2  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return errors
    return (*errors, httpx2.TransportError)


@contextmanager
def _hub_errors(repo_id: str, endpoint: str, *, write: bool, revision: str | None) -> Iterator[None]:
    """Map huggingface_hub and httpx errors to one-line `HubError`s; messages never hold the token."""
    from huggingface_hub import errors as hf

    unreachable: tuple[type[Exception], ...] = (
        *_transport_errors(),
        hf.OfflineModeIsEnabled,
        hf.LocalEntryNotFoundError,
    )
    try:
        yield
    except unreachable as exc:
        reason = " ".join(redact(str(exc)).split())[:200] or type(exc).__name__
        raise HubError(
            f"cannot reach the Hub at {endpoint} ({reason}): check the network, proxy and HF_ENDPOINT"
        ) from exc
    except hf.RevisionNotFoundError as exc:
        raise HubError(f"{repo_id} has no revision {revision or 'main'!r} (check the branch, tag or commit)") from exc
    except hf.HfHubHTTPError as exc:
        status = exc.response.status_code if exc.response is not None else 0
        if status == 401 and "credentials" in (exc.server_message or "").lower():
            raise HubError(f"the Hub rejected the token (401): it is invalid or expired; {_LOGIN}") from exc
        if write and status in (401, 403):
            raise HubError(
                f"cannot write to {repo_id}: the token lacks write access (use a token with write access "
                f"to '{repo_id.split('/')[0]}', then {_LOGIN})"
            ) from exc
        if isinstance(exc, hf.RepositoryNotFoundError) or status in (401, 403):
            raise HubError(
                f"dataset {repo_id} not found at {endpoint}, or private (check the name; for a private "
                f"dataset {_LOGIN})"
            ) from exc
        detail = " ".join(redact(exc.server_message or "no details").split())[:200]
        raise HubError(f"the Hub at {endpoint} answered {status} for {repo_id}: {detail}") from exc
