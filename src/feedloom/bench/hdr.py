"""Latency recording: an HDR histogram (hdrhistogram) in microseconds.

HDR keeps every value to 3 significant digits over a wide range in fixed memory, so
p99 and max are exact to that precision however many requests a run makes, unlike
averaging or fixed buckets.
"""

from __future__ import annotations

from hdrh.histogram import HdrHistogram

LOWEST_US = 1
HIGHEST_US = 600_000_000  # 10 minutes: anything slower is recorded as 10 minutes
SIGNIFICANT_DIGITS = 3
PERCENTILES = (50.0, 95.0, 99.0)


class LatencyHistogram:
    def __init__(self) -> None:
        self._histogram = HdrHistogram(LOWEST_US, HIGHEST_US, SIGNIFICANT_DIGITS)

    def record(self, seconds: float) -> None:
        micros = min(max(round(seconds * 1_000_000), LOWEST_US), HIGHEST_US)
        self._histogram.record_value(micros)

    @property
    def count(self) -> int:
        total: int = self._histogram.get_total_count()
        return total

    def percentile_ms(self, percentile: float) -> float | None:
        if not self.count:
            return None
        return float(self._histogram.get_value_at_percentile(percentile)) / 1000

    def max_ms(self) -> float | None:
        return float(self._histogram.get_max_value()) / 1000 if self.count else None

    def summary(self) -> dict[str, float | int | None]:
        """count, p50_ms, p95_ms, p99_ms and max_ms (None when nothing was recorded)."""
        figures: dict[str, float | int | None] = {"count": self.count}
        for percentile in PERCENTILES:
            figures[f"p{percentile:g}_ms"] = self.percentile_ms(percentile)
        figures["max_ms"] = self.max_ms()
        return figures

    def distribution(self) -> list[tuple[float, float]]:
        """(percentile, latency in ms) points, denser towards the tail, for plotting."""
        if not self.count:
            return []
        points = [
            (float(item.percentile), float(item.value_iterated_to) / 1000)
            for item in self._histogram.get_percentile_iterator(5)
        ]
        return [(percentile, ms) for percentile, ms in points if percentile < 100.0]
