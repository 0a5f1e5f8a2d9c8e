"""Exit codes and the errors a user can cause.

The library raises these; the command line turns them into one line of
output and the exit code, in one place (``cli.py``).
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """Exit codes of ``qwixx``; documented in the README."""

    ok = 0
    #: ``score``: the sheet breaks a rule; ``scan``: some sheet needs review or is invalid.
    rule_problem = 1
    #: Wrong command-line usage (click's own code).
    usage = 2
    #: An input the program cannot use: bad layout, marks file, photo.
    bad_input = 3
    #: An output that cannot be written.
    output = 4
    #: A bug: something the program did not expect.
    internal = 10


class QwixxError(Exception):
    """An error the user can cause and fix; ``message`` says how."""

    exit_code: ExitCode = ExitCode.bad_input

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class LayoutError(QwixxError):
    """A layout file that cannot be used (syntax, unknown keys, bad boxes)."""


class UnknownLayoutError(QwixxError):
    """A layout name that is neither built in nor an existing file."""


class UnknownLetterError(QwixxError):
    """A sheet letter the layout does not have."""


class MarksError(QwixxError):
    """A marks file (``qwixx score``) that cannot be used."""


class OutputError(QwixxError):
    """An output file that cannot be written."""

    exit_code = ExitCode.output


class PhotoError(QwixxError):
    """A photo that cannot be read: not an image, no sheet, cut off."""


class SheetNotFoundError(PhotoError):
    """No sheet printed by qwixx was found in a photo."""
