"""Progress of a run: a tqdm bar on a terminal, otherwise a plain line now and then."""

import time
from collections import Counter

from solver.result import SOLVED, UNKNOWN, UNSOLVABLE

# Without a terminal, a progress line every this many deals or seconds.
LINE_EVERY_DEALS = 1000
LINE_EVERY_SECONDS = 30.0


class Progress:
    """A tqdm bar on a terminal; otherwise a line every LINE_EVERY_DEALS deals or
    LINE_EVERY_SECONDS seconds; nothing when disabled."""

    def __init__(self, total: int, label: str, enabled: bool, stream):
        self.total, self.label, self.stream = total, label, stream
        self.counts = Counter({SOLVED: 0, UNSOLVABLE: 0, UNKNOWN: 0})
        self.done = 0
        self.started = self.last_line = time.monotonic()
        self.lines_done = 0
        self.bar = None
        self.lines = False
        if not enabled:
            return
        if is_terminal(stream):
            from tqdm import tqdm

            self.bar = tqdm(
                total=total, desc=label, unit="deal", file=stream, dynamic_ncols=True, smoothing=0.05
            )
        else:
            self.lines = True

    def update(self, record) -> None:
        """Count one more record."""
        self.done += 1
        self.counts[record.status] += 1
        if self.bar is not None:
            self.bar.set_postfix(self.counts, refresh=False)
            self.bar.update(1)
        elif self.lines:
            now = time.monotonic()
            if self.done - self.lines_done >= LINE_EVERY_DEALS or now - self.last_line >= LINE_EVERY_SECONDS:
                self.write_line(now)

    def message(self, text: str) -> None:
        """A line the user must see, whether or not progress is shown (above a bar)."""
        if self.bar is not None:
            self.bar.write(text, file=self.stream)
        else:
            print(text, file=self.stream, flush=True)

    def write_line(self, now: float) -> None:
        elapsed = now - self.started
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = self.total - self.done
        eta = format_duration(left / rate) if rate > 0 else "?"
        percent = 100.0 * self.done / self.total if self.total else 100.0
        print(
            f"{self.label}: {self.done}/{self.total} deals ({percent:.1f}%), {rate:.2f} deals/s, "
            f"ETA {eta}; {counts_text(self.counts)}",
            file=self.stream,
            flush=True,
        )
        self.last_line, self.lines_done = now, self.done

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.lines and self.done != self.lines_done:
            self.write_line(time.monotonic())


def is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def counts_text(counts) -> str:
    return ", ".join(f"{counts[status]} {status}" for status in (SOLVED, UNSOLVABLE, UNKNOWN))


def format_duration(seconds: float) -> str:
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}h{minutes:02d}m"
    return f"{minutes}m{seconds:02d}s" if minutes else f"{seconds}s"
