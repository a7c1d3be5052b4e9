"""Every command's exit statuses, written once: shown at the end of its ``--help`` and, as one
table, in README.md ("Exit statuses"; ``tests/test_check_and_stream.py`` keeps the two alike)."""

import click

# What every command may end with besides its own statuses.
EVERY_COMMAND = (
    "2 bad input or no memory left (one line on stderr naming what and where), 130 after Ctrl-C, "
    "141 when the reader of its output left (a closed pipe)"
)
# A stopped run's status: 128 + the signal number.
STOPPED = "128 + the signal when stopped (130 Ctrl-C, 129 SIGHUP, 143 SIGTERM)"
# By command (``catalogue build`` for a subcommand): what each of its own statuses means.
EXIT_STATUSES = {
    "deal": "0 printed",
    "replay": "0 the line wins, 1 every move is legal but the game is not won, 2 a move is illegal",
    "solve": (
        "one deal: 0 solved, 1 unsolvable, 3 unknown; a range without --out (one record a line): "
        f"0 every deal has its line; with --out: 0 done, 4 a verdict contradicts a stored one, {STOPPED}"
    ),
    "verify": "0 no record is illegal, 1 some record is illegal, 2 some lines could not be read",
    "export": "0 written",
    "stats": "0 printed",
    "hint": (
        "0 a move suggested, 1 no legal move (lost), 3 every move goes back to a position seen "
        "(or, greedy, none is worth playing), 4 the game looks lost (every sampled deal of the unseen "
        "cards proved lost; with nothing hidden, the position itself; no move suggested), "
        "5 the position is won"
    ),
    "play": f"0 done, 1 some deal failed (stored as such), {STOPPED}",
    "rate": f"0 done, 1 some deal failed (stored as such), {STOPPED}",
    "catalogue build": "0 built (it says when fewer deals than --count were found)",
    "catalogue verify": "0 no problem, 1 some problem (each listed)",
    "daily": "0 printed",
    "check": (
        "0 in a catalogue (solvable), 5 in none (solvability not checked); "
        "with --solve, in none and: 6 solved, 1 unsolvable, 3 unknown"
    ),
}


def add_exit_statuses(group: click.Group, path: tuple[str, ...] = ()) -> None:
    """End the help of every command of ``group`` with its exit statuses."""
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            add_exit_statuses(command, (*path, name))
        else:
            command.epilog = f"Exit status: {EXIT_STATUSES[' '.join((*path, name))]}; {EVERY_COMMAND}."
