#!/usr/bin/env python3
"""A third-party NATS JetStream client for the `publish --nats` / `serve --nats` tests (nats-py):
another producer than `landmark-near publish`, and a reader of what a stream holds.

    nats_counterpart.py publish-raw URLS SUBJECT TEXT
        publishes TEXT as is (e.g. `not json`) to SUBJECT with JetStream publish; prints
        `published STREAM SEQ` once the stream acknowledged it.
    nats_counterpart.py publish-fixes URLS STREAM N FILE [--replicas R]
        an independent producer: reads NDJSON fix lines from FILE, puts each on subject
        STREAM.<p>, p = FNV-1a 32-bit of the device's UTF-8 bytes (`default` when the line has
        no "device") modulo N, as SPEC 18 documents it, and publishes them in order with
        JetStream publish, each acknowledged before the next; the stream (subjects STREAM.*,
        file storage, R replicas, default 1) is created when missing. Prints `published K`.
    nats_counterpart.py dump URLS STREAM
        prints every message the stream holds, oldest first, as JSON lines
        {"seq": S, "subject": "...", "data": "..."} (data decoded as UTF-8, bad bytes replaced).
    nats_counterpart.py info URLS STREAM
        prints the stream's info as one JSON line: {"name", "subjects", "replicas", "storage",
        "messages", "first_seq", "last_seq", "leader", "cluster_replicas": [names]}.
    nats_counterpart.py delete URLS STREAM
        deletes the stream (an operator starting again); prints `deleted STREAM`.
    nats_counterpart.py hash N DEVICE...
        prints the partition of each DEVICE, one a line (the hash alone, no server).

URLS is a comma-separated list (nats://127.0.0.1:4222,nats://127.0.0.1:4223). Exit status: 0 done,
1 a NATS error (its message on stderr), 2 usage.
"""
import argparse
import asyncio
import json
import sys

import hashlib

import nats
from nats.js.api import StorageType, StreamConfig
from nats.js.errors import APIError, NoStreamResponseError, NotFoundError, ServiceUnavailableError

FNV_OFFSET_BASIS = 2166136261
FNV_PRIME = 16777619


def fnv1a32(data: bytes) -> int:
    value = FNV_OFFSET_BASIS
    for byte in data:
        value ^= byte
        value = (value * FNV_PRIME) & 0xFFFFFFFF
    return value


def partition(device: str, partitions: int) -> int:
    return fnv1a32(device.encode("utf-8")) % partitions


async def quiet(error):
    """nats-py prints a traceback for every failed (re)connection attempt by default."""
    print(f"nats_counterpart.py: {type(error).__name__}: {error}", file=sys.stderr)


async def connect(urls: str):
    return await nats.connect(
        servers=[url for url in urls.split(",") if url],
        connect_timeout=5,
        max_reconnect_attempts=120,
        reconnect_time_wait=0.5,
        allow_reconnect=True,
        error_cb=quiet,
    )


def transient(error: Exception) -> bool:
    """A JetStream answer that a retry can outlast: no leader yet (a server was killed), a timeout."""
    if isinstance(error, (nats.errors.TimeoutError, nats.errors.NoRespondersError, NoStreamResponseError, ServiceUnavailableError)):
        return True
    if isinstance(error, APIError) and not isinstance(error, NotFoundError):
        return error.code in (503, 504) or error.err_code in (10008, 10077)
    return False


async def retrying(make, seconds: float = 40.0):
    """Awaits make() again while it fails transiently, for at most `seconds`."""
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        try:
            return await make()
        except Exception as error:
            if not transient(error) or asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(0.25)


async def publish_raw(args) -> int:
    connection = await connect(args.urls)
    try:
        js = connection.jetstream(timeout=5)
        ack = await retrying(lambda: js.publish(args.subject, args.text.encode("utf-8")))
        print(f"published {ack.stream} {ack.seq}", flush=True)
    finally:
        await connection.close()
    return 0


async def ensure_stream(js, name: str, replicas: int):
    try:
        await retrying(lambda: js.stream_info(name))
    except NotFoundError:
        config = StreamConfig(name=name, subjects=[f"{name}.*"], storage=StorageType.FILE, num_replicas=replicas)
        await retrying(lambda: js.add_stream(config))


async def publish_fixes(args) -> int:
    with open(args.file, encoding="utf-8") as file:
        lines = [line.rstrip("\n") for line in file if line.strip()]
    # Message ids make a retried publish (its acknowledgement lost) no second copy.
    run = hashlib.sha256(open(args.file, "rb").read()).hexdigest()[:16]
    connection = await connect(args.urls)
    try:
        js = connection.jetstream(timeout=5)
        await ensure_stream(js, args.stream, args.replicas)
        for index, line in enumerate(lines):
            device = json.loads(line).get("device", "default")
            subject = f"{args.stream}.{partition(device, args.partitions)}"
            data = line.encode("utf-8")
            headers = {"Nats-Msg-Id": f"{run}-{index}"}
            # One at a time, each acknowledged before the next: a device's order survives a
            # retry only that way.
            await retrying(lambda: js.publish(subject, data, stream=args.stream, headers=headers))
        print(f"published {len(lines)}", flush=True)
    finally:
        await connection.close()
    return 0


async def dump(args) -> int:
    connection = await connect(args.urls)
    try:
        js = connection.jetstream(timeout=5)
        info = await retrying(lambda: js.stream_info(args.stream))
        if info.state.messages:
            for seq in range(info.state.first_seq, info.state.last_seq + 1):
                try:
                    message = await retrying(lambda: js.get_msg(args.stream, seq))
                except NotFoundError:
                    continue  # deleted
                text = (message.data or b"").decode("utf-8", errors="replace")
                print(json.dumps({"seq": seq, "subject": message.subject, "data": text}, ensure_ascii=False))
        sys.stdout.flush()
    finally:
        await connection.close()
    return 0


async def delete(args) -> int:
    connection = await connect(args.urls)
    try:
        js = connection.jetstream(timeout=5)
        await retrying(lambda: js.delete_stream(args.stream))
        print(f"deleted {args.stream}", flush=True)
    finally:
        await connection.close()
    return 0


async def info(args) -> int:
    connection = await connect(args.urls)
    try:
        js = connection.jetstream(timeout=5)
        stream = await retrying(lambda: js.stream_info(args.stream))
        cluster = stream.cluster
        print(
            json.dumps(
                {
                    "name": stream.config.name,
                    "subjects": stream.config.subjects,
                    "replicas": stream.config.num_replicas,
                    "storage": getattr(stream.config.storage, "value", stream.config.storage),
                    "messages": stream.state.messages,
                    "first_seq": stream.state.first_seq,
                    "last_seq": stream.state.last_seq,
                    "leader": cluster.leader if cluster else None,
                    "cluster_replicas": [peer.name for peer in (cluster.replicas or [])] if cluster else [],
                }
            ),
            flush=True,
        )
    finally:
        await connection.close()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    raw = commands.add_parser("publish-raw")
    raw.add_argument("urls")
    raw.add_argument("subject")
    raw.add_argument("text")
    fixes = commands.add_parser("publish-fixes")
    fixes.add_argument("urls")
    fixes.add_argument("stream")
    fixes.add_argument("partitions", type=int)
    fixes.add_argument("file")
    fixes.add_argument("--replicas", type=int, default=1)
    for name in ("dump", "info", "delete"):
        command = commands.add_parser(name)
        command.add_argument("urls")
        command.add_argument("stream")
    hashing = commands.add_parser("hash")
    hashing.add_argument("partitions", type=int)
    hashing.add_argument("devices", nargs="+")
    args = parser.parse_args()

    if args.command == "hash":
        for device in args.devices:
            print(partition(device, args.partitions))
        return 0
    run = {"publish-raw": publish_raw, "publish-fixes": publish_fixes, "dump": dump, "info": info, "delete": delete}[args.command]
    try:
        return asyncio.run(run(args))
    except Exception as error:  # a NATS error, a bad file: one line, status 1
        print(f"nats_counterpart.py {args.command}: {type(error).__name__}: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
