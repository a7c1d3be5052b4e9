"""Writing a file whole or not at all: every file the project writes goes through
``replace_file`` (``yukon export``'s own writer aside: it streams records and follows the
umask for special targets)."""

from pathlib import Path


def replace_file(path: Path, data: bytes | str) -> None:
    """Write ``data`` (text is UTF-8) to ``path`` whole or not at all: into a hidden file
    beside it, then renamed over it, so a reader never sees half a file."""
    path = Path(path)
    partial = path.with_name(f".{path.name}.partial")
    partial.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    partial.replace(path)
