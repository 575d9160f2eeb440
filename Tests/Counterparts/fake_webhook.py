#!/usr/bin/env python3
"""A webhook receiver for the tests: HTTP/1.1 on 127.0.0.1, answering as scripted.

    fake_webhook.py --log FILE [--script 503,429,200] [--delay SECONDS]

Prints "port N" on stdout once listening. Each request takes the next status of --script (the
last one repeats; default 200) and is logged as one JSON line: method, path, headers, body,
status.
"""

import argparse
import json
import os
import signal
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def main():
    # A test runner spawning many children at once lets each inherit the others' pipe ends; a
    # server that lives on would then keep another test's output pipe open. Close them all.
    os.closerange(3, os.sysconf("SC_OPEN_MAX"))
    # A parent that blocks signals (a test runner's thread) passes its mask on: take SIGTERM again.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, signal.valid_signals())
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--log", required=True)
    parser.add_argument("--script", default="200")
    parser.add_argument("--delay", type=float, default=0)
    args = parser.parse_args()
    statuses = [int(s) for s in args.script.split(",") if s]
    lock = threading.Lock()
    log = open(args.log, "a", buffering=1)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_):
            pass

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            with lock:
                status = statuses.pop(0) if len(statuses) > 1 else statuses[0]
            if args.delay:
                time.sleep(args.delay)
            with lock:
                log.write(json.dumps({"time": time.time(), "method": "POST", "path": self.path,
                                      "headers": {k.lower(): v for k, v in self.headers.items()},
                                      "body": body.decode("utf-8", "replace"), "status": status},
                                     ensure_ascii=False) + "\n")
            answer = b"{}"
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(f"port {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
