"""The one exception base for errors a user can cause, the input text they may give, and the
parts of a one-line message."""


class YukonError(Exception):
    """Bad input: the message is one line naming what is wrong and where.

    The command line turns it into that line on stderr and exit status 2. Every error the
    library raises on bad input is one: ``reference.IllegalMove`` (a move breaks a rule) and
    ``record.Contradiction`` (two verdicts on one deal disagree) derive from it. The one other
    error of the library's own, ``lines.ReplayMismatch``, is a RuntimeError: a solver bug.
    """


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
