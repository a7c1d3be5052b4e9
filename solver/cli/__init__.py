"""The ``yukon`` command line: parse, call the library, print. Nothing else lives here.

Each family of commands is a module of this package listing its click commands in
``COMMANDS``; registering a module is adding its name to ``COMMAND_MODULES``.
"""

import errno
import gc
import importlib
import io
import logging
import os
import signal
import sys
from contextlib import suppress

import click

from solver.cli.options import ascii_numbers
from solver.cli.statuses import add_exit_statuses
from solver.common.interrupts import CtrlC, exit_status, kernels_still_compiling
from solver.errors import YukonError, clipped, command_line_message, error_line
from solver.version import __version__

COMMAND_MODULES = ("deals", "solving", "results", "player", "catalogue")
CONTEXT = {"help_option_names": ["-h", "--help"]}


class YukonGroup(click.Group):
    """Runs a command so that what a user can cause never shows a traceback: bad input (a
    YukonError, a click usage error) is one ``error:`` line and exit status 2, output that
    cannot be written (a full disk) and memory the process cannot get likewise, output whose
    reader left (a closed pipe) exit status 141, and Ctrl-C exit status 130."""

    def main(self, *args, **kwargs):
        show_library_messages()
        if sys.stdout is None:  # started with its output closed: writing to it fails
            sys.stdout = ClosedOutput()
        for stream in (sys.stdout, sys.stderr):  # a file name that is not UTF-8: its bytes
            with suppress(AttributeError, ValueError):
                stream.reconfigure(errors="surrogateescape")
        # A search's first Ctrl-C ends it with its verdict, any other exit status 130. Run as the
        # program (reading sys.argv), Ctrl-C stays ignored once the command is done: the process
        # only has to leave, and a late Ctrl-C would kill it by the signal instead.
        the_program = not args and "args" not in kwargs
        try:
            with CtrlC().installed(ignored_after=the_program):
                status = self.run(*args, **kwargs)
        except KeyboardInterrupt:  # a Ctrl-C as the command was done
            status = exit_status()
        status = status if isinstance(status, int) else 0
        if the_program:  # the command is done and its files closed: the process only leaves, so
            gc.freeze()  # no last collection walks the compiled kernels' objects (0.2 s)
            if kernels_still_compiling():  # Ctrl-C cut a first compile short: leave now, not
                leave_at_once(status)  # through an exit that would tear LLVM down under it
        sys.exit(status)

    def run(self, *args, **kwargs) -> int | None:
        """The command's exit status (see the class's docstring)."""
        try:
            try:
                status = super().main(*args, standalone_mode=False, **kwargs)
            finally:
                sys.stdout.flush()  # a full disk shows here, not at exit
        except SystemExit as leaving:
            status = leaving.code
        except click.exceptions.NoArgsIsHelpError as error:  # bare ``yukon``: the help
            click.echo(error.format_message(), err=True)
            status = 2
        except (YukonError, click.UsageError) as error:
            status = fail(
                error.format_message() if isinstance(error, click.UsageError) else command_line_message(error)
            )
        except click.ClickException as error:
            status = fail(error.format_message(), error.exit_code)
        except BrokenPipeError:  # the output's reader left (``| head``) before the last write
            status = closed_pipe()
        except OSError as error:  # a file named in the error, or the output (a full disk)
            where = f"cannot use {error.filename}" if error.filename else "cannot write the output"
            status = fail(f"{where}: {error.strerror or error_line(error)}")
        except MemoryError:  # outside a search, which tells it as its verdict's budget
            status = fail("the process ran out of memory (a limit such as ulimit -v, or a full machine)")
        except (click.Abort, KeyboardInterrupt):
            status = exit_status()
        return status

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except BrokenPipeError:  # click itself would exit 1, a status some commands give a verdict
            raise SystemExit(closed_pipe()) from None


class StderrLines(logging.Handler):
    """Each library message as the line it is, on the stderr of the moment (a test runner
    may swap it); output that cannot be written fails as any other output does."""

    def emit(self, record: logging.LogRecord) -> None:
        click.echo(self.format(record), err=True)


def show_library_messages() -> None:
    """Show the library's log messages (the compile notice, cache warnings) as bare lines on
    stderr, whatever logging the process has set up otherwise."""
    logger = logging.getLogger("solver")
    if not any(isinstance(handler, StderrLines) for handler in logger.handlers):
        logger.addHandler(StderrLines())
    logger.setLevel(logging.INFO)
    logger.propagate = False


class ClosedOutput(io.TextIOBase):
    """Stands for an output the process was started without: writing fails (click would
    otherwise drop the output silently)."""

    def write(self, text):
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))


def leave_at_once(status: int) -> None:
    """End the process with ``status`` after flushing its output, running no exit handlers."""
    for stream in (sys.stdout, sys.stderr):
        with suppress(OSError, ValueError):
            stream.flush()
    os._exit(status)


def fail(message: str, status: int = 2) -> int:
    """Print one ``error:`` line (cut when huge) and return the exit status; output that
    can no longer be written (stdout, and stderr too when it cannot take the line) is
    dropped so that leaving does not fail again."""
    drop_output(sys.stdout)
    try:
        click.echo(f"error: {clipped(on_one_line(message))}", err=True)
    except OSError:
        drop_output(sys.stderr)
    return status


def on_one_line(message: str) -> str:
    """``message`` on one line: a line break it holds (a file name may hold one) shown as ``\\n``."""
    return message.rstrip("\n").replace("\r", "\\r").replace("\n", "\\n")


def closed_pipe() -> int:
    """The exit status of a command whose output pipe was closed by its reader: the broken
    pipe's own (141, as a process killed by SIGPIPE), never one a verdict is told by; the
    rest of the output is dropped."""
    drop_output(sys.stdout)
    return exit_status(getattr(signal, "SIGPIPE", 13))


def drop_output(stream) -> None:
    """Send what is still to be written to ``stream`` to the null device."""
    with suppress(OSError, AttributeError, ValueError):  # no stream, or a closed one
        os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())


@click.group(cls=YukonGroup, context_settings=CONTEXT)
@click.version_option(__version__, prog_name="yukon")
def main():
    """Exact solver and deal verifier for Yukon, Russian Solitaire and Milligan Yukon.

    \b
    Examples:
      yukon deal 12                      the opening of PySolFC deal 12
      yukon solve 12                     solve it and print a replayable line
      yukon replay 12 "2>F:AC 2>1:4H"    check a line move by move
      yukon verify results.jsonl         replay every record of a results file
    """


for module_name in COMMAND_MODULES:
    for command in importlib.import_module(f"{__name__}.{module_name}").COMMANDS:
        main.add_command(command)
add_exit_statuses(main)
ascii_numbers(main)
