"""The toolkit's exception tree (the classes of this module, and where the others live).

    TestgenError                     base of every error the toolkit raises on purpose
    ├── UserInputError               something the user can fix: printed as one line, exit code 2
    │   ├── CorpusError              the KB folder cannot be read (missing, not a folder, nothing loadable)
    │   ├── DatasetFormatError       a malformed line in a test-set file (carries file and line)
    │   ├── GraphFormatError         a knowledge-graph file that cannot be loaded
    │   ├── OptionError              a bad option value (``--mix``, ``--num``, ...)
    │   ├── EngineError              ``--engine ray`` cannot run: Ray is not installed, or its cluster cannot be reached
    │   └── HubError                 (testgen.hub) a Hub reference, token or repository the Hub refuses
    └── LLMError                     (testgen.llm) the language-model layer
        ├── LLMConfigError           bad model string, missing API key or package (also a UserInputError: exit 2)
        │   └── LLMAuthFailed        the provider rejected the API key
        ├── LLMBudgetExceeded        --max-cost reached: the run stops cleanly, finished work is kept
        └── LLMCallError             one call failed after its retries (recorded per item, never a crash)
            ├── LLMTimeout
            ├── LLMRateLimited
            ├── LLMConnectionFailed
            └── LLMBadResponse       unparseable or schema-invalid reply after the repair re-ask

The evaluator adds its own under these (``TargetError``, the ``StoreError`` branch): see :mod:`evaluators.errors`.
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
