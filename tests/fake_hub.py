"""A fake Hugging Face Hub on 127.0.0.1: just the endpoints `huggingface_hub` uses to push and read a dataset.

Shapes follow huggingface_hub 1.x (``hf_api.py``, ``_commit_api.py``, ``file_download.py``):

    POST /api/repos/create                                 {"name", "organization", "type", "visibility"}
    POST /api/validate-yaml                                {"content", "repoType"}  → {"errors": [], "warnings": []}
    GET  /api/datasets/{repo}[/revision/{rev}]             repo info with ``sha`` and ``siblings``
    GET  /api/datasets/{repo}/tree/{rev}                   [{"type": "file", "path", "size", "oid"}]
    GET  /api/datasets/{repo}/refs                         {"branches", "converts", "tags"}
    POST /api/datasets/{repo}/branch/{branch}              {"startingPoint"?}
    POST /api/datasets/{repo}/preupload/{rev}              every file answered ``uploadMode: regular``
    POST /api/datasets/{repo}/commit/{rev}                 NDJSON: header line, then base64 ``file`` lines
    GET|HEAD /datasets/{repo}/resolve/{rev}/{path}         ETag, X-Repo-Commit, Content-Length

Because every file is "regular", contents arrive inline in the commit payload: tests read what was uploaded
from `FakeHub.requests`. `deny_write` makes the write endpoints answer 403; `stop` closes the port.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote, urlsplit

import yaml

_REPO = r"(?P<repo>[^/]+/[^/]+)"


def git_blob_sha(data: bytes) -> str:
    """The git object id of a blob (what the Hub reports as a regular file's oid and ETag)."""
    return hashlib.sha1(b"blob %d\x00" % len(data) + data).hexdigest()


@dataclass
class Recorded:
    """One request as the server received it."""

    method: str
    path: str
    headers: dict[str, str]  # names lower-cased
    body: bytes


@dataclass
class _Repo:
    private: bool
    commits: dict[str, dict[str, bytes]] = field(default_factory=dict)  # oid → snapshot
    branches: dict[str, str] = field(default_factory=dict)  # name → oid

    def snapshot(self, rev: str) -> tuple[str, dict[str, bytes]] | None:
        oid = self.branches.get(rev, rev)
        return (oid, self.commits[oid]) if oid in self.commits else None


class FakeHub:
    """A threaded HTTP server that behaves like the Hub for dataset repos; records every request."""

    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self.repos: dict[str, _Repo] = {}
        self.denied: set[str] = set()
        self._lock = threading.Lock()
        self._counter = 0
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                hub._handle(self, "GET")

            def do_HEAD(self) -> None:
                hub._handle(self, "HEAD")

            def do_POST(self) -> None:
                hub._handle(self, "POST")

            def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)
        self._stopped = False

    @property
    def endpoint(self) -> str:
        """The base URL to give as ``HF_ENDPOINT``."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> FakeHub:
        """Start serving in a background thread."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the port: later requests get "connection refused". Idempotent."""
        if not self._stopped:
            self._stopped = True
            self._server.shutdown()
            self._server.server_close()

    def add_repo(self, repo_id: str, files: dict[str, bytes] | None = None, *, private: bool = False) -> str:
        """Create a dataset repo holding `files` on ``main``; return the commit id."""
        repo = self.repos.setdefault(repo_id, _Repo(private=private))
        return self._commit(repo, "main", dict(files or {}))

    def deny_write(self, repo_id: str) -> None:
        """Answer 403 to every write on `repo_id` (create, branch, preupload, commit), as for a read-only token."""
        self.denied.add(repo_id)

    def files(self, repo_id: str, rev: str = "main") -> dict[str, bytes]:
        """The files of `repo_id` at `rev` (branch or commit)."""
        found = self.repos[repo_id].snapshot(rev)
        assert found is not None, f"{repo_id} has no revision {rev}"
        return found[1]

    def uploaded(self) -> dict[str, bytes]:
        """Every file sent inline in a commit payload, by path (later commits win)."""
        out: dict[str, bytes] = {}
        for req in self.requests:
            if req.method == "POST" and "/commit/" in req.path:
                for line in req.body.splitlines():
                    entry = json.loads(line)
                    if entry["key"] == "file":
                        out[entry["value"]["path"]] = base64.b64decode(entry["value"]["content"])
        return out

    # ------------------------------------------------------------------------------------------ internals

    def _commit(self, repo: _Repo, branch: str, changes: dict[str, bytes | None]) -> str:
        with self._lock:
            self._counter += 1
            parent = repo.commits.get(repo.branches.get(branch, ""), {})
            files = {**parent, **{p: c for p, c in changes.items() if c is not None}}
            for path in [p for p, c in changes.items() if c is None]:
                files.pop(path, None)
            oid = hashlib.sha1(f"commit {self._counter} {sorted(files)}".encode()).hexdigest()
            repo.commits[oid] = files
            repo.branches[branch] = oid
            return oid

    def _handle(self, req: BaseHTTPRequestHandler, method: str) -> None:
        length = int(req.headers.get("Content-Length") or 0)
        body = req.rfile.read(length) if length else b""
        self.requests.append(Recorded(method, req.path, {k.lower(): v for k, v in req.headers.items()}, body))
        path = unquote(urlsplit(req.path).path)
        status, headers, payload = self._route(method, path, body)
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        req.send_response(status)
        if not isinstance(payload, bytes):
            req.send_header("Content-Type", "application/json")
        for key, value in headers.items():
            req.send_header(key, value)
        req.send_header("Content-Length", str(len(data)))
        req.end_headers()
        if method != "HEAD":
            req.wfile.write(data)

    def _route(self, method: str, path: str, body: bytes) -> tuple[int, dict[str, str], Any]:
        if method == "POST" and path == "/api/repos/create":
            return self._create(json.loads(body))
        if method == "POST" and path == "/api/validate-yaml":
            return self._validate_yaml(json.loads(body)["content"])
        m = re.fullmatch(rf"/datasets/{_REPO}/resolve/(?P<rev>[^/]+)/(?P<file>.+)", path)
        if m and method in ("GET", "HEAD"):
            return self._resolve(m["repo"], m["rev"], m["file"])
        m = re.fullmatch(
            rf"/api/datasets/{_REPO}(?:/(?P<op>revision|tree|refs|branch|preupload|commit)(?:/(?P<rev>.+))?)?", path
        )
        if not m:
            return 404, {}, {"error": f"fake hub: no route for {method} {path}"}
        repo_id, op, rev = m["repo"], m["op"], m["rev"] or "main"
        repo = self.repos.get(repo_id)
        if repo is None:
            return 404, {"X-Error-Code": "RepoNotFound"}, {"error": "Repository not found"}
        if method == "POST" and repo_id in self.denied:
            return 403, {}, {"error": f"You don't have write access to {repo_id}"}
        if op == "branch" and method == "POST":
            if rev in repo.branches:
                return 409, {}, {"error": "Reference already exists"}
            start = (json.loads(body or b"{}").get("startingPoint")) or "main"
            repo.branches[rev] = repo.branches.get(start, start)
            return 200, {}, {}
        if op == "refs":
            branches = [{"name": b, "ref": f"refs/heads/{b}", "targetCommit": o} for b, o in repo.branches.items()]
            return 200, {}, {"branches": branches, "converts": [], "tags": []}
        found = repo.snapshot(rev)
        if found is None:
            return 404, {"X-Error-Code": "RevisionNotFound"}, {"error": f"Invalid rev id: {rev}"}
        oid, files = found
        if op in (None, "revision"):
            siblings = [{"rfilename": p, "size": len(c)} for p, c in sorted(files.items())]
            return 200, {}, {"id": repo_id, "sha": oid, "private": repo.private, "siblings": siblings}
        if op == "tree":
            entries = [
                {"type": "file", "path": p, "size": len(c), "oid": git_blob_sha(c)} for p, c in sorted(files.items())
            ]
            return 200, {}, entries
        if op == "preupload" and method == "POST":
            wanted = json.loads(body)["files"]
            answer = [
                {
                    "path": f["path"],
                    "uploadMode": "regular",
                    "shouldIgnore": False,
                    "oid": git_blob_sha(files[f["path"]]) if f["path"] in files else None,
                }
                for f in wanted
            ]
            return 200, {}, {"files": answer}
        if op == "commit" and method == "POST":
            return self._apply_commit(repo_id, repo, rev, body)
        return 404, {}, {"error": f"fake hub: no route for {method} {path}"}

    def _create(self, payload: dict[str, Any]) -> tuple[int, dict[str, str], Any]:
        repo_id = f"{payload['organization']}/{payload['name']}" if payload.get("organization") else payload["name"]
        url = f"{self.endpoint}/datasets/{repo_id}"
        if payload.get("type") != "dataset":
            return 400, {}, {"error": "fake hub: only dataset repos"}
        if repo_id in self.denied:
            return 403, {}, {"error": f"You don't have the rights to create a dataset under this namespace ({repo_id})"}
        if repo_id in self.repos:
            return 409, {}, {"error": "You already created this dataset repo", "url": url}
        self.add_repo(
            repo_id,
            {".gitattributes": b"*.parquet filter=lfs diff=lfs merge=lfs -text\n"},
            private=payload.get("visibility") == "private",
        )
        return 200, {}, {"url": url, "name": repo_id}

    def _validate_yaml(self, content: str) -> tuple[int, dict[str, str], Any]:
        m = re.match(r"---\n(.*?)\n---\n", content, re.S)
        try:
            if m:
                yaml.safe_load(m[1])
        except yaml.YAMLError as exc:
            return 400, {}, {"errors": [{"message": str(exc)}], "warnings": []}
        return 200, {}, {"errors": [], "warnings": []}

    def _apply_commit(self, repo_id: str, repo: _Repo, branch: str, body: bytes) -> tuple[int, dict[str, str], Any]:
        if branch not in repo.branches:
            return 404, {"X-Error-Code": "RevisionNotFound"}, {"error": f"Invalid rev id: {branch}"}
        changes: dict[str, bytes | None] = {}
        lines = [json.loads(line) for line in body.splitlines() if line.strip()]
        if not lines or lines[0]["key"] != "header":
            return 400, {}, {"error": "fake hub: the commit payload must start with a header line"}
        for entry in lines[1:]:
            value = entry["value"]
            if entry["key"] == "file" and value.get("encoding") == "base64":
                changes[value["path"]] = base64.b64decode(value["content"])
            elif entry["key"] == "deletedFile":
                changes[value["path"]] = None
            else:
                return 400, {}, {"error": f"fake hub: unsupported commit entry {entry['key']}"}
        oid = self._commit(repo, branch, changes)
        url = f"{self.endpoint}/datasets/{repo_id}/commit/{oid}"
        return 200, {}, {"success": True, "commitOid": oid, "commitUrl": url, "pullRequestUrl": None}

    def _resolve(self, repo_id: str, rev: str, file: str) -> tuple[int, dict[str, str], Any]:
        repo = self.repos.get(repo_id)
        if repo is None:
            return 404, {"X-Error-Code": "RepoNotFound"}, {"error": "Repository not found"}
        found = repo.snapshot(rev)
        if found is None:
            return 404, {"X-Error-Code": "RevisionNotFound"}, {"error": f"Invalid rev id: {rev}"}
        oid, files = found
        if file not in files:
            return 404, {"X-Error-Code": "EntryNotFound", "X-Repo-Commit": oid}, {"error": "Entry not found"}
        content = files[file]
        return 200, {"ETag": f'"{git_blob_sha(content)}"', "X-Repo-Commit": oid}, content
