"""A slow link without netem: a TCP relay that holds every chunk it forwards for a delay
drawn uniformly from DELAY ± JITTER ms, in each direction, and never lets a chunk overtake
the one before it (a connection's bytes stay in order, as TCP delivers them).

The topology runs it on the data host; iptables DNAT in each application host's namespace
sends that host's connections to the data host's ports through it (`Topology.slow_data_links`),
so the application's configuration is unchanged. A client's connect completes at the relay,
so opening a connection costs one round trip less than on a real slow link; every byte after
that pays the full delay.

    python -m tests.multihost.slowlink --delay-ms 50 --jitter-ms 10 10.41.2.20:15432=10.41.2.20:5432 …
"""

import argparse
import asyncio
import contextlib
import random

CHUNK = 65536


async def forward(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, delay: float, jitter: float) -> None:
    """Copy one direction of a connection, each chunk held its delay; the end of the stream
    (a half-close) is held like a chunk."""
    loop = asyncio.get_running_loop()
    held: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

    async def release() -> None:
        while True:
            due, chunk = await held.get()
            await asyncio.sleep(max(0.0, due - loop.time()))
            if not chunk:
                if writer.can_write_eof():
                    writer.write_eof()
                return
            writer.write(chunk)
            await writer.drain()

    async with asyncio.TaskGroup() as tasks:
        tasks.create_task(release())
        due = 0.0
        while True:
            chunk = await reader.read(CHUNK)
            # Never before the chunk ahead of it: a later, shorter draw waits for it.
            due = max(due, loop.time() + random.uniform(delay - jitter, delay + jitter))
            held.put_nowait((due, chunk))
            if not chunk:
                break


async def relay(target: tuple[str, int], delay: float, jitter: float, reader, writer) -> None:
    try:
        upstream_reader, upstream_writer = await asyncio.open_connection(*target)
    except OSError:
        writer.transport.abort()  # the target refused: so does the relay
        return
    try:
        async with asyncio.TaskGroup() as tasks:
            tasks.create_task(forward(reader, upstream_writer, delay, jitter))
            tasks.create_task(forward(upstream_reader, writer, delay, jitter))
    except* OSError:
        # One side broke (a reset, a killed server): the other side is broken too, as it
        # would be behind a link.
        for side in (writer, upstream_writer):
            side.transport.abort()
    finally:
        for side in (writer, upstream_writer):
            side.close()


def address(text: str) -> tuple[str, int]:
    host, port = text.rsplit(":", 1)
    return host, int(port)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--delay-ms", type=float, required=True)
    parser.add_argument("--jitter-ms", type=float, default=0.0)
    parser.add_argument("routes", nargs="+", metavar="LISTEN=TARGET", help="host:port=host:port")
    options = parser.parse_args()
    delay, jitter = options.delay_ms / 1000, options.jitter_ms / 1000
    servers = []
    for route in options.routes:
        listen, target = map(address, route.split("="))

        async def handle(reader, writer, target=target):
            await relay(target, delay, jitter, reader, writer)

        servers.append(await asyncio.start_server(handle, *listen))
    await asyncio.gather(*(server.serve_forever() for server in servers))


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main())
