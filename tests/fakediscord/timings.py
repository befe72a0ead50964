"""Latency figures over interactions sent through the fake (for tests and bench/load.py)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tests.fakediscord.drivers import InteractionHandle


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) by the nearest-rank method; NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass(frozen=True)
class LatencySummary:
    """p50/p95/p99 in milliseconds from INTERACTION_CREATE to the first response and upload."""

    count: int
    answered: int
    response_ms: tuple[float, float, float]
    file_ms: tuple[float, float, float]
    failures: int

    def describe(self) -> str:
        """One line for a bench report."""
        r50, r95, r99 = self.response_ms
        f50, f95, f99 = self.file_ms
        return (
            f"{self.count} interactions, {self.answered} answered, "
            f"{self.failures} failed requests; "
            f"first response p50/p95/p99 {r50:.1f}/{r95:.1f}/{r99:.1f} ms; "
            f"first upload p50/p95/p99 {f50:.1f}/{f95:.1f}/{f99:.1f} ms"
        )


def summarise(handles: Iterable[InteractionHandle]) -> LatencySummary:
    """Summarise the timings recorded on ``handles`` (unanswered ones count as not answered)."""
    handles = list(handles)
    responses = [h.response_latency * 1000 for h in handles if h.response_latency is not None]
    files = [h.file_latency * 1000 for h in handles if h.file_latency is not None]

    def three(values: list[float]) -> tuple[float, float, float]:
        return (percentile(values, 50), percentile(values, 95), percentile(values, 99))

    return LatencySummary(
        count=len(handles),
        answered=len(responses),
        response_ms=three(responses),
        file_ms=three(files),
        failures=sum(len(h.failures) for h in handles),
    )
