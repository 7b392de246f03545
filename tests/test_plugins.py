"""Category plug-ins from the `testgen.categories` entry-point group: generated, ordered, and guarded."""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from schemas import CATEGORIES
from testgen.categories import _registry
from testgen.categories._registry import category_names, get_category
from testgen.errors import OptionError
from testgen.generate import generate, parse_mix, quotas
from testgen.kg.build import build_graph, load_corpus
from testgen.synth.context import GenContext
from testgen.synth.draft import Draft

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


class Restated:
    """A plug-in category: direct facts, filed under another name."""

    name = "restated"
    description = "A direct fact under a plug-in's name."

    def candidates(self, ctx: GenContext, rng: random.Random) -> Iterator[Draft]:
        for draft in get_category("direct_fact").candidates(ctx, rng):
            draft.category = self.name
            yield draft

    def check(self, draft: Draft, ctx: GenContext, source_docs: list[str]) -> str | None:
        return get_category("direct_fact").check(draft, ctx, source_docs)


class Zeta(Restated):
    name = "zeta"


class FakeEntryPoint:
    """What `importlib.metadata.entry_points` yields, without an installed distribution."""

    def __init__(self, name: str, target: Any) -> None:
        self.name = name
        self.value = f"fake_plugin:{name}"
        self.group = _registry.ENTRY_POINT_GROUP
        self._target = target

    def load(self) -> Any:
        if isinstance(self._target, BaseException):
            raise self._target
        return self._target


@pytest.fixture
def install(monkeypatch: pytest.MonkeyPatch):
    """Install fake entry points for one test; the registry is restored afterwards."""

    def _install(*eps: FakeEntryPoint) -> None:
        monkeypatch.setattr(_registry, "_REGISTRY", dict(_registry._REGISTRY))
        monkeypatch.setattr(_registry, "_plugins_loaded", False)
        monkeypatch.setattr(
            _registry, "entry_points", lambda group: list(eps) if group == _registry.ENTRY_POINT_GROUP else []
        )

    return _install


@pytest.fixture(scope="module")
def aurora():
    return build_graph(load_corpus(EXAMPLES / "aurora_bikes"))


def test_a_plugin_category_named_in_the_mix_is_generated(install, aurora) -> None:
    install(FakeEntryPoint("restated", Restated))
    result = generate(aurora, num=4, mix=parse_mix("restated=1"), seed=3)
    assert [item.category for item in result.items] == ["restated"] * 4
    assert result.requested["restated"] == 4
    assert all(item.metadata["validation"]["grounded"] for item in result.items)


def test_plugins_come_after_the_built_in_seven_in_registration_order(install) -> None:
    install(FakeEntryPoint("zeta", Zeta), FakeEntryPoint("restated", Restated()))  # a class or an instance
    assert category_names() == (*CATEGORIES, "zeta", "restated")
    assert quotas(10, parse_mix("zeta=1,restated=1,direct_fact=2")) == {
        "direct_fact": 5, "temporal": 0, "numerical": 0, "comparative": 0, "spanning": 0, "holistic": 0,
        "relationship": 0, "zeta": 3, "restated": 2,
    }  # fmt: skip  # 2.5 each: the remainder goes to the first in order


def test_a_plugin_gets_no_share_by_default_so_default_output_is_unchanged(install, aurora) -> None:
    before = generate(aurora, num=20, seed=5)
    install(FakeEntryPoint("restated", Restated))
    after = generate(aurora, num=20, seed=5)
    assert after.requested["restated"] == 0
    assert "restated" not in {item.category for item in after.items}
    assert [i.model_dump() for i in after.items] == [i.model_dump() for i in before.items]


def test_a_plugin_that_fails_to_load_is_skipped_with_one_warning(install, caplog: pytest.LogCaptureFixture) -> None:
    install(
        FakeEntryPoint("broken", ModuleNotFoundError("No module named 'nowhere'")),
        FakeEntryPoint("restated", Restated),
    )
    with caplog.at_level(logging.WARNING, logger="testgen.categories"):
        names = category_names()
    assert names == (*CATEGORIES, "restated")
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert warnings == [
        "category plug-in broken = fake_plugin:broken not loaded: ModuleNotFoundError: No module named 'nowhere'"
    ]


def test_a_plugin_whose_class_cannot_be_made_is_skipped_too(install, caplog: pytest.LogCaptureFixture) -> None:
    class NeedsArgs(Restated):
        def __init__(self, required: str) -> None:
            self.required = required

    install(FakeEntryPoint("needs_args", NeedsArgs))
    with caplog.at_level(logging.WARNING, logger="testgen.categories"):
        assert category_names() == CATEGORIES
    assert len(caplog.records) == 1 and "needs_args" in caplog.records[0].getMessage()
    assert "TypeError" in caplog.records[0].getMessage()


def test_the_mix_error_lists_plugin_names(install) -> None:
    install(FakeEntryPoint("restated", Restated))
    with pytest.raises(OptionError, match=r"names from direct_fact, .*relationship, restated$"):
        parse_mix("nonsense=1")
