"""Import a user's object named ``module:attribute.path`` (a retriever, a chain, a chat model).

The framework targets (``langchain:``, ``llamaindex:``) and the LangChain chat-model adapter name the objects they
wrap this way, as uvicorn names an app: ``my_rag:retriever`` or ``my_pkg.rag:Pipeline.chain``.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from typing import Any

from testgen.errors import UserInputError

__all__ = ["load_object"]


def load_object(
    spec: str,
    *,
    what: str,
    error: type[UserInputError] = UserInputError,
    app_dir: str | os.PathLike[str] | None = ".",
) -> Any:
    """The object ``spec`` (``module:attribute.path``) names.

    ``what`` names the object in messages (e.g. ``"langchain target"``). ``app_dir`` (default: the current folder)
    is put at the front of ``sys.path`` if it is not there yet, so a ``my_rag.py`` beside the user is found;
    ``None`` leaves ``sys.path`` alone. Raises ``error`` (a UserInputError) for a malformed spec, a module that
    cannot be imported or a missing attribute; an exception raised while the module runs is the user's bug and
    keeps its traceback.
    """
    module_name, sep, attr_path = spec.partition(":")
    if not sep or not module_name or not attr_path:
        raise error(f"bad {what} {spec!r} (write it as module:object, e.g. my_rag:retriever)")
    if app_dir is not None:
        folder = str(Path(app_dir).resolve())
        if folder not in sys.path:
            sys.path.insert(0, folder)
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = exc.name or ""
        if missing and missing.split(".")[0] != module_name.split(".")[0]:  # the module is there, a dependency is not
            raise error(
                f"{module_name!r} (for the {what} {spec!r}) imports {missing!r}, which is not installed "
                f"(install it with: pip install {missing.split('.')[0].replace('_', '-')})"
            ) from exc
        raise error(
            f"cannot import module {module_name!r} for the {what} {spec!r} ({exc}); run from the folder holding it "
            "or add that folder to PYTHONPATH"
        ) from exc
    found: Any = module
    for part in attr_path.split("."):
        try:
            found = getattr(found, part)
        except AttributeError:
            raise error(f"{module_name!r} has no attribute {attr_path!r} (the {what} {spec!r})") from None
    return found
