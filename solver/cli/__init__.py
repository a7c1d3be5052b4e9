"""The ``yukon`` command line: parse, call the library, print. Nothing else lives here.

Each family of commands is a module of this package listing its click commands in
``COMMANDS``; registering a module is adding its name to ``COMMAND_MODULES``.
"""

import importlib

import click

from solver import __version__
from solver.errors import YukonError

COMMAND_MODULES = ("deals", "solving", "results", "player")
CONTEXT = {"help_option_names": ["-h", "--help"]}


class YukonGroup(click.Group):
    """Turns a YukonError anywhere below into one line on stderr and exit status 2."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except YukonError as error:
            click.echo(f"error: {error}", err=True)
            ctx.exit(2)


@click.group(cls=YukonGroup, context_settings=CONTEXT)
@click.version_option(__version__, prog_name="yukon")
def main():
    """Exact solver and deal verifier for Yukon, Russian Solitaire and Milligan Yukon.

    \b
    Examples:
      yukon deal 12                      the opening of PySolFC deal 12
      yukon solve 12                     solve it and print a replayable line
      yukon replay 12 "3>7:TS 5>F:AH"    check a line move by move
      yukon verify results.jsonl         replay every record of a results file
    """


for module_name in COMMAND_MODULES:
    for command in importlib.import_module(f"{__name__}.{module_name}").COMMANDS:
        main.add_command(command)
