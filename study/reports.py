"""What the study's report and the benchmarks' reports are written with: Markdown
(percentages, intervals, seconds, the plots' lines), a README's generated block rewritten
between its two marker lines, and a JSON figures file stamped with its format."""

import json
import os
from pathlib import Path

from solver.common.atomic import replace_file
from solver.common.formats import Format, stamped
from solver.errors import YukonError

ALIGNMENT = {"l": "---", "r": "---:"}


def pct(value, digits: int = 2) -> str:
    return "n/a" if value is None else f"{100 * value:.{digits}f}%"


def interval(entry: dict) -> str:
    return f"{pct(entry['low'])} – {pct(entry['high'])}" if entry["rate"] is not None else "n/a"


def seconds(value) -> str:
    return "n/a" if value is None else f"{value:.3g}"


def plot_section(images: list[str]) -> str:
    return "\n".join(f"![{Path(image).stem}]({image})" for image in images)


def join_sections(parts: list[str]) -> str:
    """A report's sections, the empty ones left out, a blank line between each."""
    return "\n\n".join(part for part in parts if part) + "\n"


def readme_images(paths: list[Path], readme: Path | None) -> list[str]:
    """The plots' ``paths`` relative to the folder of ``readme`` (README.md when None)."""
    readme_dir = (readme or Path("README.md")).resolve().parent
    return [Path(os.path.relpath(path, readme_dir)).as_posix() for path in paths]


def rewrite_readme(path: Path, block: str, markers: tuple[str, str]) -> None:
    """Replace the text between the two ``markers`` lines in ``path`` with ``block``."""
    try:
        text = path.read_text()
    except OSError as error:
        raise YukonError(f"cannot read --readme {path}: {error.strerror}") from None
    start, end = markers
    if text.count(start) != 1 or text.count(end) != 1 or text.index(start) > text.index(end):
        raise YukonError(f"--readme {path} needs one line {start} followed by one line {end}")
    before, rest = text.split(start)
    _, after = rest.split(end)
    replace_file(path, f"{before}{start}\n{block}{end}{after}")


def table_start(title: str, header: str, alignment: str, intro: str | None = None) -> list[str]:
    """A section's first lines: its heading, ``intro`` (a paragraph, if any), then its Markdown
    table's header (``header``: the column names between pipes) and alignment line (one
    letter a column in ``alignment``: ``l`` left, ``r`` right)."""
    rule = " | ".join(ALIGNMENT[letter] for letter in alignment)
    return [f"### {title}", "", *([intro, ""] if intro else []), f"| {header} |", f"| {rule} |"]


def write_json(path: str | Path, data: dict, kind: Format) -> None:
    """Write ``data`` as a figures file of format ``kind`` (its keys first), whole or not at all."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    replace_file(path, json.dumps(stamped(data, kind), indent=2) + "\n")
