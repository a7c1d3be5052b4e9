"""The one exception base for errors a user can cause, the input text they may give, and the
parts of a one-line message.

The hierarchy (every one a ``YukonError``, raised on bad input only):

- ``YukonError``: bad input (a board, a deal number, a file, a catalogue, ...); the message
  is one line naming what is wrong and where.
- ``ArgumentError``: a value given to a library call that it does not take (a wrong type, a
  number out of range); ``argument`` names the parameter and the message starts with it
  (``time_limit -1.0 must be ...``).
- ``reference.IllegalMove``: a move breaks a rule; the message names the rule.
- ``record.Contradiction``: two verdicts on one deal disagree.

The one other error of the library's own, ``solve.ReplayMismatch``, is a RuntimeError: a
solver bug, never bad input.
"""


class YukonError(Exception):
    """Bad input: the message is one line naming what is wrong and where.

    The command line turns it into that line on stderr and exit status 2
    (``command_line_message``). Every error the
    library raises on bad input is one: ``reference.IllegalMove`` (a move breaks a rule) and
    ``record.Contradiction`` (two verdicts on one deal disagree) derive from it. The one other
    error of the library's own, ``lines.ReplayMismatch``, is a RuntimeError: a solver bug.
    """


class ArgumentError(YukonError):
    """A value a library call does not take: ``argument`` is the parameter's name, and the
    message is that name followed by ``problem`` (``time_limit -1.0 must be a positive
    number of seconds``). The command line names its option instead (``--time-limit``)."""

    def __init__(self, argument: str, problem: str) -> None:
        super().__init__(argument + problem)
        self.argument = argument
        self.problem = problem


# How the command line names the arguments of library calls (an argument not listed is
# spelled ``--`` and its name with dashes).
COMMAND_LINE_OPTIONS = {"memory_bytes": "--memory", "day": "--date", "variant": "--variant"}


def command_line_message(error: YukonError) -> str:
    """The message the command line prints for ``error``: an ArgumentError names the option."""
    if not isinstance(error, ArgumentError):
        return str(error)
    option = COMMAND_LINE_OPTIONS.get(error.argument, "--" + error.argument.replace("_", "-"))
    return option + error.problem


def type_name(value: object) -> str:
    """How a message names the type of a value given: ``str``, ``NoneType``."""
    return type(value).__name__


def counted(number: int, noun: str) -> str:
    """``1 deal``, ``3 deals``: a count and its noun, for a message."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


def first_line(text: str) -> str:
    """The first line of a message ('' for an empty one)."""
    lines = text.splitlines()
    return lines[0] if lines else ""


def error_line(error: BaseException) -> str:
    """An exception's message cut to its first line, or its type's name when it has none."""
    return first_line(str(error)) or type(error).__name__


# The longest error message shown; a longer one (a huge bad token) is cut in the middle.
MESSAGE_CHARS = 300


def clipped(text: str, limit: int = MESSAGE_CHARS) -> str:
    """``text`` cut to about ``limit`` characters, keeping its start and end."""
    if len(text) <= limit:
        return text
    return f"{text[: limit * 2 // 3]} ... [{len(text) - limit} characters] ... {text[-limit // 3 :]}"


def decoded_text(data: bytes, where: str) -> str:
    """Input bytes as UTF-8 text (a byte-order mark dropped); anything else is a YukonError
    naming ``where`` and the first byte that is not UTF-8."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise YukonError(f"{where} is UTF-16 text; save it as UTF-8")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise YukonError(
            f"{where} is not UTF-8 text (byte 0x{data[error.start]:02x} on line {line})"
        ) from None
