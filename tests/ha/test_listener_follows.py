"""The live-stream listener follows the primary: when its connection is lost (the server
restarted or failed over) it connects anew, LISTENs again and says so (every hub then re-reads
its tail); when its server falls silent without closing the connection (a machine lost, a
network cut), a probe finds out within ``PROBE_SECONDS`` and it connects anew all the same."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

import pytest
from sqlalchemy import text

from events import EventStore, notify
from events.notify import CHANNEL, Listener
from tests.support.loops import run

pytestmark = pytest.mark.postgres


def _sql(store: EventStore, statement: str, **params: str) -> None:
    with store.engine.connect() as conn:
        conn.execute(text(statement), params)
        conn.commit()


async def _wait_for(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


def test_a_lost_connection_is_replaced_and_the_listener_says_it_listens_again(
    pg_store: EventStore,
) -> None:
    heard: list[str] = []
    began: list[int] = []
    listener = Listener(
        pg_store.engine.url, heard.append, timeout=0.05, on_listening=lambda: began.append(1)
    )

    async def sql(statement: str, **params: str) -> None:
        await asyncio.to_thread(_sql, pg_store, statement, **params)

    async def scenario() -> None:
        await listener.start()
        try:
            await _wait_for(lambda: began == [1])
            await sql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE query = :listen AND pid <> pg_backend_pid()",
                listen=f"LISTEN {CHANNEL}",
            )
            await _wait_for(lambda: began == [1, 1])  # listening again (the hubs re-read)
            await sql("SELECT pg_notify(:channel, 'm:7:elsewhere')", channel=CHANNEL)
            await _wait_for(lambda: heard == ["m:7:elsewhere"])
        finally:
            await listener.stop()

    run(scenario())


class Blackhole:
    """A TCP proxy to the server. :meth:`cut` makes the connections open so far forward
    nothing more and close nothing (as a lost machine's do): only a probe with a deadline can
    tell. Connections opened after it get through."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.opened = 0
        self.swallowed = 0
        self.server: asyncio.Server | None = None
        self.writers: list[asyncio.StreamWriter] = []
        self.tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port: int = self.server.sockets[0].getsockname()[1]
        return port

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(*self.target)
        self.writers += [writer, up_writer]
        self.opened += 1
        for source, sink in ((reader, up_writer), (up_reader, writer)):
            pipe = self._pipe(source, sink, self.opened)
            task = asyncio.get_running_loop().create_task(pipe)
            self.tasks.add(task)

    def cut(self) -> None:
        self.swallowed = self.opened

    async def _pipe(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, number: int
    ) -> None:
        with contextlib.suppress(ConnectionError):
            while data := await reader.read(65536):
                while number <= self.swallowed:
                    await asyncio.sleep(3600)  # swallowed: never forwarded, never closed
                writer.write(data)
                await writer.drain()

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for writer in self.writers:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()


def test_a_server_fallen_silent_is_found_out_by_a_probe(
    pg_store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(notify, "PROBE_SECONDS", 0.5)
    url = pg_store.engine.url
    proxy = Blackhole(url.host or "127.0.0.1", url.port or 5432)
    began: list[float] = []

    async def scenario() -> None:
        port = await proxy.start()
        listener = Listener(
            url.set(port=port), lambda _: None, timeout=0.05,
            on_listening=lambda: began.append(time.monotonic()),
        )  # fmt: skip
        await listener.start()
        try:
            await _wait_for(lambda: len(began) == 1)
            proxy.cut()
            cut = time.monotonic()
            await _wait_for(lambda: len(began) == 2)
            assert began[1] - cut < 5  # the probe's 0.5 s, a connect and the retry's 1 s
        finally:
            await listener.stop()
            await proxy.stop()

    run(scenario())
