"""Progress of a run: a tqdm bar on a terminal, otherwise a plain line now and then; both
count the answers by kind (solving: the verdicts)."""

import time
from collections import Counter

from solver.results.result import SOLVED, UNKNOWN, UNSOLVABLE

VERDICTS = (SOLVED, UNSOLVABLE, UNKNOWN)
# Without a terminal, a progress line every this many deals or seconds.
LINE_EVERY_DEALS = 1000
LINE_EVERY_SECONDS = 30.0


class Progress:
    """A tqdm bar on a terminal; otherwise a line every LINE_EVERY_DEALS deals or
    LINE_EVERY_SECONDS seconds; nothing when disabled. ``kinds`` are the kinds of answer
    counted, in the order shown."""

    def __init__(self, total: int, label: str, enabled: bool, stream, kinds=VERDICTS):
        self.total, self.label, self.stream = total, label, stream
        self.counts = Counter(dict.fromkeys(kinds, 0))
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

    def update(self, kind: str) -> None:
        """Count one more answer, of ``kind``."""
        self.done += 1
        self.counts[kind] += 1
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
    return ", ".join(f"{count} {kind}" for kind, count in counts.items())


def format_duration(seconds: float) -> str:
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}h{minutes:02d}m"
    return f"{minutes}m{seconds:02d}s" if minutes else f"{seconds}s"
