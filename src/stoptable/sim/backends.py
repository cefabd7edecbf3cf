"""Where tournament games run: local processes or a Ray cluster.

A backend has one method, ``run(fn, jobs, progress) -> results``: ``fn`` is a picklable
module-level function of one job. Results may arrive in any order; the caller puts them
back in order (every job carries its index), so the same jobs give the same results on
every backend and with any number of workers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, Protocol, TypeVar

J = TypeVar("J")
R = TypeVar("R")
Progress = Callable[[int, int], None] | None


class Backend(Protocol):
    """Runs a function over jobs."""

    def run(self, fn: Callable[[Any], R], jobs: Sequence[Any], progress: Progress) -> list[R]:
        """``fn(job)`` for every job, in any order; ``progress(done, total)`` per result."""
        ...


class LocalBackend:
    """This process (``workers`` 1) or a pool of ``workers`` local processes."""

    def __init__(self, workers: int = 1) -> None:
        if workers < 1:
            raise ValueError(f"workers must be >= 1, not {workers}")
        self.workers = workers

    def run(self, fn: Callable[[Any], R], jobs: Sequence[Any], progress: Progress) -> list[R]:
        total = len(jobs)
        results: list[R] = []
        if self.workers == 1:
            for job in jobs:
                results.append(fn(job))
                if progress is not None:
                    progress(len(results), total)
            return results
        with ProcessPoolExecutor(self.workers) as pool:
            futures = [pool.submit(fn, job) for job in jobs]
            for future in as_completed(futures):
                results.append(future.result())
                if progress is not None:
                    progress(len(results), total)
        return results


class RayBackend:
    """A Ray cluster: ``address`` of an existing one, or None for a local one
    (``num_cpus`` CPUs). Needs the ``ray`` extra (``pip install 'stoptable[ray]'``)."""

    def __init__(self, address: str | None = None, num_cpus: int | None = None) -> None:
        try:
            import ray  # type: ignore[import-not-found, unused-ignore]
        except ImportError:
            raise RuntimeError("the Ray backend needs ray: pip install 'stoptable[ray]'") from None
        self.ray = ray
        if not ray.is_initialized():
            if address is not None:
                ray.init(address=address, ignore_reinit_error=True)
            else:
                ray.init(num_cpus=num_cpus, ignore_reinit_error=True, include_dashboard=False)

    def run(self, fn: Callable[[Any], R], jobs: Sequence[Any], progress: Progress) -> list[R]:
        ray = self.ray
        remote = ray.remote(fn)
        pending = [remote.remote(job) for job in jobs]
        results: list[R] = []
        total = len(pending)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            results.extend(ray.get(done))
            if progress is not None:
                progress(len(results), total)
        return results
