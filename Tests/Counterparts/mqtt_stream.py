#!/usr/bin/env python3
"""Publishes a stream of MQTT messages with QoS 1, in order, as the OwnTracks app does, and
keeps going through broker restarts: paho reconnects and sends again whatever the broker has
not acknowledged. Exits 0 once the broker acknowledged every message, printing
`published N`; 1 when that takes longer than --timeout seconds.

    mqtt_stream.py --port 1883 --messages stream.tsv [--pace 0.002] [--one-at-a-time] [--timeout 120]

--one-at-a-time waits for each message's PUBACK before the next, as the OwnTracks app sends
its queue: across a reconnection paho may otherwise send a new message before it resends the
unacknowledged ones (a device's fixes would then reach the broker out of order).

stream.tsv holds one message a line: TOPIC, a tab, then the payload (one line of JSON).
"""
import argparse
import sys
import threading
import time

import paho.mqtt.client as mqtt


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--messages", required=True)
    parser.add_argument("--pace", type=float, default=0.0, help="seconds between messages")
    parser.add_argument("--one-at-a-time", action="store_true")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--client-id", default="owntracks-stream")
    args = parser.parse_args()

    with open(args.messages, encoding="utf-8") as file:
        messages = [line.rstrip("\n").split("\t", 1) for line in file if line.strip()]

    acknowledged = set()
    lock = threading.Lock()

    def on_publish(client, userdata, mid, reason_code, properties):
        with lock:
            acknowledged.add(mid)

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=args.client_id, clean_session=False)
    client.on_publish = on_publish
    client.max_inflight_messages_set(100)
    client.max_queued_messages_set(0)
    client.reconnect_delay_set(min_delay=1, max_delay=1)
    client.connect_async(args.host, args.port, keepalive=10)
    client.loop_start()
    deadline = time.monotonic() + args.timeout
    while not client.is_connected():
        if time.monotonic() > deadline:
            print("not connected", file=sys.stderr)
            return 1
        time.sleep(0.01)

    mids = []
    for topic, payload in messages:
        info = client.publish(topic, payload, qos=1)
        if info.rc not in (mqtt.MQTT_ERR_SUCCESS, mqtt.MQTT_ERR_NO_CONN):
            print(f"publish failed: {mqtt.error_string(info.rc)}", file=sys.stderr)
            return 1
        mids.append(info.mid)
        while args.one_at_a_time:
            with lock:
                if info.mid in acknowledged:
                    break
            if time.monotonic() > deadline:
                print("a message was not acknowledged in time", file=sys.stderr)
                return 1
            time.sleep(0.0005)
        if args.pace:
            time.sleep(args.pace)

    while True:
        with lock:
            missing = [mid for mid in mids if mid not in acknowledged]
        if not missing:
            break
        if time.monotonic() > deadline:
            print(f"{len(missing)} messages not acknowledged", file=sys.stderr)
            return 1
        time.sleep(0.02)
    client.disconnect()
    client.loop_stop()
    print(f"published {len(mids)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
