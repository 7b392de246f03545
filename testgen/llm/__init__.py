"""One LLM interface in front of litellm: structured output, concurrency, rate limits, cache, cost, retries.

`LLMClient` (configured by `LLMSettings`) is the real implementation of the `LLM` protocol; `FakeLLM` is the
scripted one for tests. Importing this package does not import litellm.
"""

from testgen.llm._types import (
    LLM,
    Completion,
    LLMAuthFailed,
    LLMBadResponse,
    LLMBudgetExceeded,
    LLMCallError,
    LLMConfigError,
    LLMConnectionFailed,
    LLMError,
    LLMRateLimited,
    LLMTimeout,
    StageUsage,
)
from testgen.llm.client import CostLedger, LLMClient, LLMSettings
from testgen.llm.fake import FakeCall, FakeLLM
from testgen.llm.parsing import ReplyParseError, extract_json, parse_reply

__all__ = [
    "LLM",
    "Completion",
    "CostLedger",
    "FakeCall",
    "FakeLLM",
    "LLMAuthFailed",
    "LLMBadResponse",
    "LLMBudgetExceeded",
    "LLMCallError",
    "LLMClient",
    "LLMConfigError",
    "LLMConnectionFailed",
    "LLMError",
    "LLMRateLimited",
    "LLMSettings",
    "LLMTimeout",
    "ReplyParseError",
    "StageUsage",
    "extract_json",
    "parse_reply",
]
