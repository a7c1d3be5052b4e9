"""The one exception type for errors a user can cause."""


class YukonError(Exception):
    """Bad input: the message is one line naming what is wrong and where.

    The command line turns it into that line on stderr and exit status 2.
    """


def first_line(text: str) -> str:
    """The first line of a message ('' for an empty one)."""
    lines = text.splitlines()
    return lines[0] if lines else ""


def error_line(error: BaseException) -> str:
    """An exception's message cut to its first line, or its type's name when it has none."""
    return first_line(str(error)) or type(error).__name__
