"""The evaluator's exceptions, added under the toolkit's tree (:mod:`testgen.errors`).

    TestgenError                     base of every error the toolkit raises on purpose
    ├── UserInputError               something the user can fix: one line with the fix, exit code 2
    │   ├── DatasetFormatError       a malformed line in a test-set or run file (carries file and line)
    │   ├── OptionError              a bad option value (``k`` out of range, a bad chunk size, ...)
    │   └── TargetError              a target that cannot be used: a bad spec, a callable that cannot be
    │                                imported, a missing optional package (the message says what to install)
    └── StoreError                   the run store could not be opened or written (bad URL, driver missing)
        ├── StoreNotFound            no dataset or run with that id (a UserInputError too: exit 2)
        └── StoreLayoutError         the store's tables were written by a testgen with another layout

A failure of one question (the system under test raised, timed out or sent garbage) is not an exception: it
becomes a :class:`~schemas.RunRecord` with ``error`` set, and the run goes on.
"""

from __future__ import annotations

from testgen.errors import DatasetFormatError, OptionError, TestgenError, UserInputError

__all__ = [
    "DatasetFormatError",
    "OptionError",
    "StoreError",
    "StoreLayoutError",
    "StoreNotFound",
    "TargetError",
    "UserInputError",
]


class TargetError(UserInputError):
    """A target that cannot be used; the message names the fix (a spec form, a module path, a package)."""


class StoreError(TestgenError):
    """The run store could not be opened or written; the message names the URL (password masked) and the fix."""


class StoreNotFound(StoreError, UserInputError):
    """No dataset or run with the given id."""


class StoreLayoutError(StoreError):
    """The store's tables have another layout version (written by another version of testgen)."""
