"""litellm, imported on first use: offline (no price-map download), quiet, no telemetry.

Every module of the LLM layer that needs litellm (the client, prices, error mapping) imports it through
:func:`import_litellm`, which lives here, below them all, so none of them imports another to get it.
"""

from __future__ import annotations

import logging
import os
import warnings
from typing import Any

from testgen.llm._types import LLMConfigError

__all__ = ["import_litellm"]

_LITELLM_LOGGERS = ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy")


def import_litellm() -> Any:
    """litellm, imported offline and quiet (no price-map download, no debug banners, no telemetry)."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    try:
        import litellm
    except ImportError as exc:  # pragma: no cover - litellm is a dependency
        raise LLMConfigError("litellm is not installed; install it with: pip install litellm") from exc
    if not getattr(litellm, "_testgen_configured", False):
        litellm.telemetry = False
        litellm.suppress_debug_info = True
        litellm.turn_off_message_logging = True
        litellm.disable_hf_tokenizer_download = True
        if "LITELLM_LOG" not in os.environ:  # the user asked for litellm's own logs: leave them on
            for name in _LITELLM_LOGGERS:
                logging.getLogger(name).setLevel(logging.ERROR)
        # litellm creates its provider coroutine before checking the credentials and drops it when they are
        # missing: the RuntimeWarning would bury our one-line "no API key" error.
        warnings.filterwarnings("ignore", r"coroutine '\w+\.acompletion' was never awaited", RuntimeWarning)
        litellm._testgen_configured = True
    return litellm
