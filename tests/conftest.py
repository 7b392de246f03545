"""Shared test settings: keep RAGAS and LiteLLM offline (no telemetry, no model-price download)."""

import os

os.environ.setdefault("RAGAS_DO_NOT_TRACK", "true")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
