"""RAGAS's LLM and embeddings interfaces over ours, so RAGAS metrics run on the toolkit's LLM layer.

`RagasLLMAdapter` sends every RAGAS prompt through an `LLM` (stage ``ragas``): the disk cache, retries,
concurrency limit, cost cap and per-stage accounting of `LLMClient` all apply. `RagasEmbeddingsAdapter`
does the same for an `Embedder`. RAGAS's own retry loop (tenacity, up to 10 attempts with waits of up
to a minute, on any exception) is switched off in both: our layer has already retried, and an
`LLMCallError` or `LLMBudgetExceeded` must reach the caller as it was raised.

This module imports RAGAS (slow); the package imports it only when metrics are scored.
"""

from __future__ import annotations

import asyncio
import dataclasses
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from langchain_core.callbacks import Callbacks
from langchain_core.outputs import Generation, LLMResult
from langchain_core.prompt_values import PromptValue
from ragas.embeddings.base import BaseRagasEmbeddings
from ragas.llms.base import BaseRagasLLM
from ragas.run_config import RunConfig

from evaluators.ragas_metrics.registry import Embedder, offline_ragas
from testgen.llm import LLM

offline_ragas()  # RAGAS reads it at its first usage event, never at import

__all__ = ["RAGAS_STAGE", "RagasEmbeddingsAdapter", "RagasLLMAdapter", "no_retry", "prompt_messages"]

#: The accounting stage of every call RAGAS makes.
RAGAS_STAGE = "ragas"
_ROLES = {"human": "user", "ai": "assistant", "system": "system"}
_UNFINISHED = {"length", "max_tokens", "MAX_TOKENS"}


def no_retry(run_config: RunConfig | None = None) -> RunConfig:
    """A copy of `run_config` (default RunConfig()) whose retry wrapper makes one attempt and retries nothing."""
    base = run_config if run_config is not None else RunConfig()
    return dataclasses.replace(base, max_retries=1, exception_types=())


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    parts = []
    for part in content if isinstance(content, list) else [content]:
        if isinstance(part, str):
            parts.append(part)
        elif isinstance(part, dict) and isinstance(part.get("text"), str):
            parts.append(part["text"])
        else:
            parts.append(str(part))
    return "\n".join(parts)


def prompt_messages(prompt: PromptValue) -> list[dict[str, str]]:
    """A RAGAS prompt as chat messages (RAGAS's prompts are one user message with the whole text)."""
    return [{"role": _ROLES.get(m.type, "user"), "content": _text(m.content)} for m in prompt.to_messages()]


class RagasLLMAdapter(BaseRagasLLM):
    """RAGAS's `BaseRagasLLM` over our `LLM` protocol.

    Each RAGAS generation is one ``llm.acomplete(messages, stage="ragas", temperature=...)`` with the
    temperature RAGAS asks for (0.01 for one completion, 0.3 for several). For n > 1 completions (answer
    relevancy's generated questions) it makes n calls numbered by ``sample``, each its own request and cache
    entry, so the n replies are as independent as RAGAS's n choices (a repeated run is served from the cache,
    sample by sample). ``stop`` sequences are not supported by the protocol and are ignored (RAGAS passes none).
    `LLMCallError` and `LLMBudgetExceeded` propagate unchanged through RAGAS to whoever scores the metric.
    """

    def __init__(self, llm: LLM, *, stage: str = RAGAS_STAGE) -> None:
        super().__init__(run_config=no_retry())
        self.llm = llm
        self.stage = stage

    def set_run_config(self, run_config: RunConfig) -> None:
        """Take RAGAS's timeouts but never its retries (ours already ran)."""
        self.run_config = no_retry(run_config)

    async def agenerate_text(
        self,
        prompt: PromptValue,
        n: int = 1,
        temperature: float | None = 0.01,
        stop: list[str] | None = None,
        callbacks: Callbacks = None,
    ) -> LLMResult:
        messages = prompt_messages(prompt)
        if temperature is None:
            temperature = self.get_temperature(n)
        generations: list[Generation] = []
        for sample in range(max(n, 1)):
            done = await self.llm.acomplete(messages, stage=self.stage, temperature=temperature, sample=sample)
            info = {"finish_reason": done.raw.get("finish_reason")}
            generations.append(Generation(text=done.text, generation_info=info))
        return LLMResult(generations=[generations])

    def generate_text(
        self,
        prompt: PromptValue,
        n: int = 1,
        temperature: float = 0.01,
        stop: list[str] | None = None,
        callbacks: Callbacks = None,
    ) -> LLMResult:
        """Blocking `agenerate_text` (not from inside a running event loop: RAGAS's metrics use the async one)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(self.agenerate_text(prompt, n, temperature, stop, callbacks))
        raise RuntimeError("generate_text() was called inside a running event loop; await agenerate_text()")

    def is_finished(self, response: LLMResult) -> bool:
        """False only when a reply was cut off at the token limit (RAGAS then raises LLMDidNotFinishException)."""
        for row in response.generations:
            for generation in row:
                info = generation.generation_info or {}
                if info.get("finish_reason") in _UNFINISHED:
                    return False
        return True

    def __repr__(self) -> str:
        return f"RagasLLMAdapter(model={getattr(self.llm, 'model', '?')!r}, stage={self.stage!r})"


class RagasEmbeddingsAdapter(BaseRagasEmbeddings):
    """RAGAS's `BaseRagasEmbeddings` over an `Embedder`.

    RAGAS's answer_relevancy embeds synchronously (``embed_query``/``embed_documents``) from inside its
    event loop. The sync methods use the embedder's own blocking ``embed(texts)`` when it has one (both
    bundled embedders do); otherwise they run ``aembed`` on a private loop in a worker thread, and the
    calling loop waits.
    """

    def __init__(self, embedder: Embedder) -> None:
        super().__init__(cache=None)
        self.embedder = embedder
        self.run_config = no_retry()

    def set_run_config(self, run_config: RunConfig) -> None:
        """Take RAGAS's timeouts but never its retries."""
        self.run_config = no_retry(run_config)

    def _embed_blocking(self, texts: list[str]) -> list[list[float]]:
        embed = getattr(self.embedder, "embed", None)
        if callable(embed):
            return list(embed(texts))
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(self.embedder.aembed(texts))
        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(asyncio.run, self.embedder.aembed(texts)).result()

    def embed_query(self, text: str) -> list[float]:
        return self._embed_blocking([text])[0]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self._embed_blocking(list(texts))

    async def aembed_query(self, text: str) -> list[float]:
        return (await self.embedder.aembed([text]))[0]

    async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
        return await self.embedder.aembed(list(texts))
