"""The toolkit's exception tree.

    TestgenError                 base of every error the toolkit raises on purpose
    ├── UserInputError           something the user can fix: printed as one line, exit code 2
    │   ├── CorpusError          the KB folder cannot be read (missing, not a folder, nothing loadable)
    │   ├── DatasetFormatError   a malformed line in a test-set file (carries file and line)
    │   ├── GraphFormatError     a knowledge-graph file that cannot be loaded
    │   ├── OptionError          a bad option value (``--mix``, ``--num``, ...)
    │   └── EngineError          ``--engine ray`` cannot run: Ray is not installed, or its cluster cannot be reached
    └── GenerationError          the generator could not do what was asked (a bug or exhausted material)

Errors of underlying libraries are mapped at the boundary (``raise CorpusError(...) from exc``); a bug keeps
its traceback.
"""

from __future__ import annotations


class TestgenError(Exception):
    """Base of every error the toolkit raises on purpose."""

    __test__ = False


class UserInputError(TestgenError):
    """A problem the user can fix; the CLI prints the message (with the fix) and exits with code 2."""


class CorpusError(UserInputError):
    """The knowledge-base folder cannot be used."""


class DatasetFormatError(UserInputError):
    """A malformed line in a test-set file."""

    def __init__(self, path: str, line: int, problem: str, fix: str = "") -> None:
        self.path = path
        self.line = line
        self.problem = problem
        message = f"{path}:{line}: {problem}"
        if fix:
            message += f" ({fix})"
        super().__init__(message)


class GraphFormatError(UserInputError):
    """A knowledge-graph file that cannot be loaded."""


class OptionError(UserInputError):
    """A bad option value."""


class EngineError(UserInputError):
    """The chosen engine cannot run (Ray missing, or its cluster unreachable); the message says what to do."""


class GenerationError(TestgenError):
    """The generator could not do what was asked."""
