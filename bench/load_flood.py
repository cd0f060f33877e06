"""A flood of table creations from one address, in a process of its own (``bench/load.py --flood``).

Its own process, so that posting as fast as it can does not slow down the simulated players'
event loop: the players' latency meanwhile then shows what the flood costs the servers.
Prints one JSON object: when it started and ended (``time.time()``), the HTTP statuses
counted, how many tables each server accepted, and its own CPU seconds.

    .venv/bin/python bench/load_flood.py --count 1000 http://127.0.0.1:8000 http://127.0.0.1:8001
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections import Counter
from typing import Any

import httpx

FLOOD_ADDRESS = "127.0.0.1"  # no simulated player uses it


async def flood(bases: list[str], count: int, local: str | None, concurrency: int) -> dict[str, Any]:
    """``count`` creations, ``concurrency`` at a time, round robin over the servers."""
    statuses: Counter[str] = Counter()
    accepted: Counter[int] = Counter()
    limits = httpx.Limits(max_connections=concurrency)
    transport = httpx.AsyncHTTPTransport(local_address=local, limits=limits, verify=False)
    gate = asyncio.Semaphore(concurrency)
    async with httpx.AsyncClient(timeout=60, transport=transport) as client:
        async def one(k: int) -> None:
            async with gate:
                try:
                    r = await client.post(bases[k % len(bases)] + "/api/tables",
                                          json={"name": f"f{k}", "private": True})
                except httpx.HTTPError as exc:
                    statuses[exc.__class__.__name__] += 1
                    return
                statuses[str(r.status_code)] += 1
                if r.status_code == 201:
                    accepted[k % len(bases)] += 1

        start = time.time()
        await asyncio.gather(*(one(k) for k in range(count)))
        end = time.time()
    return {"start": start, "end": end, "statuses": dict(statuses), "accepted": dict(accepted),
            "cpu": time.process_time()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bases", nargs="+", help="server base URLs")
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--concurrency", type=int, default=32, help="requests in flight (default 32)")
    ap.add_argument("--local", default=FLOOD_ADDRESS, help=f"local address to post from (default {FLOOD_ADDRESS}; "
                    "'' for the system's choice)")
    args = ap.parse_args()
    print(json.dumps(asyncio.run(flood(args.bases, args.count, args.local or None, args.concurrency))))


if __name__ == "__main__":
    main()
