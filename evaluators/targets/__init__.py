"""Targets: the RAG systems the evaluator runs the test questions through.

Every target turns a list of test questions into one :class:`~schemas.RunRecord` per question, in question
order, so any run can be saved with :func:`evaluators.runfile.write_run` and scored again later. A target
is chosen by a spec string:

=========================  =============================================================================
``baseline``               built-in retrieval over ``kb=`` (``baseline:dense``, ``baseline:hybrid``)
``runfile:PATH``           a run file the user's own system produced
``callable:pkg.mod:fn``    a Python function: question → contexts (or ``{"contexts", "answer"}``)
``http://...``             an endpoint taking ``POST {"question", "k"}`` (also ``https://``)
``langchain:pkg.mod:obj``  a LangChain retriever, vector store or chain (:mod:`.langchain_target`)
``llamaindex:pkg.mod:obj`` a LlamaIndex retriever, query engine or index (needs the ``llamaindex`` extra)
=========================  =============================================================================

The set is open: :func:`register_target` adds a scheme, and packages can add one through the
``testgen_rag.targets`` entry-point group (the entry point names the scheme and loads a factory).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

from evaluators.errors import TargetError
from evaluators.targets.base import MAX_K, Progress, Target, check_k
from evaluators.targets.baseline import RETRIEVERS, BaselineRAG, BM25Index
from evaluators.targets.callable_target import CallableTarget, load_callable
from evaluators.targets.doc_ids import DEFAULT_DOC_ID_KEYS, DocIdMapping, check_doc_ids
from evaluators.targets.framework import FrameworkTarget
from evaluators.targets.http_target import HttpTarget
from evaluators.targets.langchain_target import LangChainTarget
from evaluators.targets.llamaindex_target import LlamaIndexTarget
from evaluators.targets.runfile_target import RunFileTarget
from evaluators.targets.tokenize import Tokenizer, tokenize

__all__ = [
    "DEFAULT_DOC_ID_KEYS",
    "ENTRY_POINT_GROUP",
    "MAX_K",
    "RETRIEVERS",
    "TARGETS",
    "BM25Index",
    "BaselineRAG",
    "CallableTarget",
    "DocIdMapping",
    "FrameworkTarget",
    "HttpTarget",
    "LangChainTarget",
    "LlamaIndexTarget",
    "Progress",
    "RunFileTarget",
    "Target",
    "TargetFactory",
    "Tokenizer",
    "check_doc_ids",
    "check_k",
    "load_callable",
    "make_target",
    "register_target",
    "tokenize",
]

#: Entry-point group through which other packages add target schemes.
ENTRY_POINT_GROUP = "testgen_rag.targets"

#: ``factory(argument, **options)``: ``argument`` is what follows ``scheme:`` in the spec (None if nothing).
TargetFactory = Callable[..., Target]

#: Target schemes by name.
TARGETS: dict[str, TargetFactory] = {}

_FORMS = (
    "baseline, runfile:PATH, callable:module:function, langchain:module:object, llamaindex:module:object, "
    "http://... or https://..."
)


def register_target(scheme: str) -> Callable[[TargetFactory], TargetFactory]:
    """Decorator registering ``factory(argument, **options) -> Target`` under ``scheme``."""

    def add(factory: TargetFactory) -> TargetFactory:
        TARGETS[scheme] = factory
        return factory

    return add


def _check_options(cls: type, options: dict[str, Any], scheme: str) -> None:
    accepted = [
        name for name, p in inspect.signature(cls).parameters.items() if p.kind is inspect.Parameter.KEYWORD_ONLY
    ]
    unknown = sorted(set(options) - set(accepted))
    if unknown:
        raise TargetError(
            f"option {unknown[0]!r} does not apply to the {scheme} target (its options: {', '.join(accepted)})"
        )


@register_target("baseline")
def _baseline(argument: str | None, **options: Any) -> Target:
    if argument:
        if options.get("retriever", argument) != argument:
            raise TargetError(f"baseline:{argument} conflicts with retriever={options['retriever']!r}")
        options["retriever"] = argument
    kb = options.pop("kb", None)
    if kb is None:
        raise TargetError("the baseline target needs a knowledge base (pass --kb with the folder of documents)")
    _check_options(BaselineRAG, options, "baseline")
    return BaselineRAG(kb, **options)


@register_target("runfile")
def _runfile(argument: str | None, **options: Any) -> Target:
    if not argument:
        raise TargetError("runfile target needs a path: runfile:PATH (e.g. runfile:results/run.jsonl)")
    _check_options(RunFileTarget, options, "runfile")
    return RunFileTarget(argument)


@register_target("callable")
def _callable(argument: str | None, **options: Any) -> Target:
    if not argument:
        raise TargetError("callable target needs a function: callable:module:function (e.g. callable:my_rag:search)")
    _check_options(CallableTarget, options, "callable")
    return CallableTarget(argument, **options)


@register_target("http")
def _http(argument: str | None, **options: Any) -> Target:
    if not argument:
        raise TargetError("http target needs a URL: http://host:port/path")
    _check_options(HttpTarget, options, "http")
    return HttpTarget(argument, **options)


def _framework_options(cls: type, options: dict[str, Any], scheme: str) -> None:
    accepted = {
        name
        for klass in (cls, FrameworkTarget)
        for name, p in inspect.signature(klass).parameters.items()
        if p.kind is inspect.Parameter.KEYWORD_ONLY
    }
    unknown = sorted(set(options) - accepted)
    if unknown:
        raise TargetError(
            f"option {unknown[0]!r} does not apply to the {scheme} target (its options: {', '.join(sorted(accepted))})"
        )


@register_target("langchain")
def _langchain(argument: str | None, **options: Any) -> Target:
    if not argument:
        raise TargetError("langchain target needs an object: langchain:module:object (e.g. langchain:my_rag:retriever)")
    _framework_options(LangChainTarget, options, "langchain")
    return LangChainTarget(argument, **options)


@register_target("llamaindex")
def _llamaindex(argument: str | None, **options: Any) -> Target:
    if not argument:
        raise TargetError(
            "llamaindex target needs an object: llamaindex:module:object (e.g. llamaindex:my_rag:query_engine)"
        )
    _framework_options(LlamaIndexTarget, options, "llamaindex")
    return LlamaIndexTarget(argument, **options)


def _factory(scheme: str) -> TargetFactory | None:
    if scheme in TARGETS:
        return TARGETS[scheme]
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        if entry.name == scheme:
            factory: TargetFactory = entry.load()
            TARGETS[scheme] = factory
            return factory
    return None


def make_target(spec: str, **options: Any) -> Target:
    """Build the target named by ``spec`` (see the module docstring) with the options that apply to it.

    Options whose value is None count as not given, so a CLI can pass every option it has. Raises
    TargetError for an unknown spec, a missing argument or an option the target does not take, and whatever
    the target's constructor raises (OptionError, TargetError, DatasetFormatError...).
    """
    spec = spec.strip()
    given = {name: value for name, value in options.items() if value is not None}
    argument: str | None
    if spec.lower().startswith(("http://", "https://")):
        scheme, argument = "http", spec
    else:
        scheme, sep, rest = spec.partition(":")
        argument = rest if sep else None
    factory = _factory(scheme)
    if factory is None:
        hint = f"; did you mean runfile:{spec}?" if spec.endswith((".jsonl", ".json")) else ""
        raise TargetError(f"unknown target {spec!r} (use one of: {_FORMS}{hint})")
    return factory(argument, **given)
