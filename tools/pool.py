"""One corpus-wide map for the tools that check every (file, target) case: in a process pool when more than
one job is asked for, in this process otherwise; results in the order of the inputs."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator


def map_jobs(fn: Callable, items: Iterable, jobs: int, chunksize: int = 8) -> Iterator:
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(max_workers=jobs) as ex:
            yield from ex.map(fn, items, chunksize=chunksize)
    else:
        yield from map(fn, items)
