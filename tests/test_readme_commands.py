"""Every shell command the README (and docs/) shows and every example of ``yukon --help`` and each
command's ``--help`` runs as written: one after another in one temporary folder (a later one
uses the files an earlier one made, as a reader following the README does), with ``yukon`` on
PATH. A command may answer with a verdict (0 solved or won, 1 unsolvable or not won, 3 unknown);
none may refuse its input (2), fail otherwise or print a traceback. A command still running
after STOP_AFTER seconds (a range of 100,000 deals) is stopped with Ctrl-C and must stop as its
help says (130, its finished results saved, or its verdict if it had one); the next commands
read what it saved."""

import os
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import click
import pytest

from solver.cli import main

ROOT = Path(__file__).parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md"))]
FENCE = re.compile(r"^```(?:sh|bash|console|shell)\n(.*?)^```", re.MULTILINE | re.DOTALL)
# The set-up commands (CI runs them: .ci/run) and the venv's activation, which the test stands in
# for by putting ``yukon`` on PATH; and a Dask cluster's, which need other machines.
NOT_RUN_HERE = ("python3 -m venv", ". .venv/bin/activate", "dask ")
NEEDS_A_CLUSTER = "--dask tcp://"
VERDICTS = (0, 1, 3)
STOP_AFTER = 8
STOPPED = 128 + signal.SIGINT
YUKON_FOLDER = Path(sys.executable).parent
# Every kernel group made ready first (compiled once into this session's cache, however long that
# takes), so that STOP_AFTER stops only the commands that are long by themselves.
EVERY_GROUP = (
    "from solver.search import readiness\n"
    "from solver.engine import groups\n"
    "for group in groups.ALL:\n"
    "    readiness.kernels_ready(group)\n"
)


def readme_commands() -> list[str]:
    """The command lines of the documents' shell blocks, in order, comments left out."""
    lines = []
    for document in DOCUMENTS:
        for block in FENCE.findall(document.read_text(encoding="utf-8")):
            lines += [line.strip() for line in block.splitlines() if shlex.split(line, comments=True)]
    return [line for line in lines if not line.startswith(NOT_RUN_HERE) and NEEDS_A_CLUSTER not in line]


def help_examples(command: click.Command = main, parent: click.Context | None = None) -> list[str]:
    """The example lines of every ``--help`` (a line that starts with ``yukon ``, up to the two
    spaces before its description); not the forms that name a placeholder (DEAL, FILE, ...).
    Each help is made in the context the command line gives it (below its parent's, with ``-h``):
    click keeps a command's help option from its first context, so a bare one would leave later
    ``yukon COMMAND -h`` calls in this process without ``-h``."""
    name = command.name if parent is not None else "yukon"
    context = click.Context(command, info_name=name, parent=parent, **command.context_settings)
    text = command.get_help(context)
    examples = [re.split(r"\s{2,}", line.strip())[0] for line in text.splitlines()]
    examples = [line for line in examples if line.startswith("yukon ") and not is_a_form(line)]
    for subcommand in getattr(command, "commands", {}).values():
        examples += help_examples(subcommand, context)
    return examples


def is_a_form(line: str) -> bool:
    """Is ``line`` a command's form (a placeholder word, ``...``) or prose, not an example?"""
    try:
        words = shlex.split(line, comments=True)
    except ValueError:  # an apostrophe of a sentence that starts with "yukon "
        return True
    return "..." in line or any(word.isalpha() and word.isupper() for word in words)


def run(line: str, folder: Path) -> subprocess.CompletedProcess:
    """``line`` through bash (its ``#`` comment left out) in ``folder``, stopped with Ctrl-C
    after STOP_AFTER seconds."""
    environment = os.environ | {"PATH": f"{YUKON_FOLDER}{os.pathsep}{os.environ.get('PATH', '')}"}
    process = subprocess.Popen(
        ["bash", "-c", line],
        cwd=folder,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        stdout, stderr = process.communicate(timeout=STOP_AFTER)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGINT)  # it stops (130), or ends with what it had found
        stdout, stderr = process.communicate(timeout=120)
    return subprocess.CompletedProcess(line, process.returncode, stdout, stderr)


def test_the_documents_show_commands_and_the_help_examples():
    commands, examples = readme_commands(), help_examples()
    assert any(line.startswith("yukon solve 12") for line in commands)
    assert "yukon solve 12" in examples and all(not is_a_form(line) for line in commands + examples)


@pytest.mark.slow
def test_every_readme_and_help_command_runs_as_written(tmp_path):
    subprocess.run([sys.executable, "-c", EVERY_GROUP], check=True)
    failed = []
    for line in readme_commands() + help_examples():
        completed = run(line, tmp_path)
        refused = completed.returncode not in (*VERDICTS, STOPPED) or "Traceback" in completed.stderr
        if refused:
            failed.append(f"{line}\n  exit {completed.returncode}: {completed.stderr.strip()[-500:]}")
        print(f"exit {completed.returncode}: {line}", flush=True)
    assert failed == [], "\n".join(failed)
