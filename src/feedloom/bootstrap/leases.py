"""A Snowflake worker ID for this process, leased from the database all processes share.

Two processes minting with the same worker bits mint the same IDs (a primary-key
collision, a 500). So no process picks its own: each leases one (`FEEDLOOM_WORKER_ID`
names the one it wants, else any free one), renews the lease while it runs and releases
it on exit. A process that was stopped too long to renew (a suspended VM) finds its
lease gone: it leases a new ID before minting again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import uuid
from datetime import timedelta

from feedloom.domain.ids import IdGenerator
from feedloom.ports import Clock, WorkerLeases

log = logging.getLogger(__name__)
LEASE_TTL = timedelta(seconds=60)
RENEW_EVERY_S = 15.0


class WorkerIdLease:
    def __init__(self, leases: WorkerLeases, clock: Clock, wanted: int | None) -> None:
        self._leases, self._clock, self._wanted = leases, clock, wanted
        self.holder = f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.worker_id = -1

    async def acquire(self) -> IdGenerator:
        self.worker_id = await self._leases.acquire(
            self.holder, LEASE_TTL, self._clock(), self._wanted
        )
        return IdGenerator(self.worker_id)

    async def keep(self, ids: IdGenerator) -> None:
        """Renew until cancelled; a lost lease is replaced before the next renewal."""
        while True:
            await asyncio.sleep(RENEW_EVERY_S)
            try:
                await self._renew(ids)
            except Exception:  # the database away for a while: the lease outlives it
                log.warning("worker id lease %d not renewed; retrying", self.worker_id)

    async def release(self) -> None:
        with contextlib.suppress(Exception):  # on the way out: it expires anyway
            await self._leases.release(self.worker_id, self.holder)

    async def _renew(self, ids: IdGenerator) -> None:
        now = self._clock()
        if await self._leases.renew(self.worker_id, self.holder, LEASE_TTL, now):
            return
        lost = self.worker_id
        self.worker_id = await self._leases.acquire(self.holder, LEASE_TTL, now, self._wanted)
        ids.rebind(self.worker_id)
        log.error("worker id lease %d was lost; minting as %d now", lost, self.worker_id)


async def leased_ids(
    leases: WorkerLeases, clock: Clock, wanted: int | None, stack: contextlib.AsyncExitStack
) -> IdGenerator:
    """An IdGenerator on a leased worker ID, renewed until `stack` closes, then released."""
    lease = WorkerIdLease(leases, clock, wanted)
    ids = await lease.acquire()
    stack.push_async_callback(lease.release)
    keeper = asyncio.create_task(lease.keep(ids))
    stack.push_async_callback(_cancelled, keeper)
    return ids


async def _cancelled(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
