#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A byte-counting TCP relay (bench/fleet.sh, tests/tui/test_promsrc_screen.sh):
listens on 127.0.0.1:PORT, relays every connection to 127.0.0.1:TARGET, and
keeps in FILE (rewritten every 0.1 s) the requests seen ("GET " / "POST " at
a request's start), the bytes sent to the server and the bytes it answered,
since start. PORT and TARGET may be comma-separated lists of as many ports
(one relay per pair, one FILE for all: the pool view's exporters). With LOG,
every chunk relayed is also appended there as "TIME up|down BYTES" (TIME in
seconds of the monotonic clock), so that a bench can tell one refresh's
transfers from the next and time them. With RELAY_GREP=TEXT[|TEXT...] in the
environment, FILE.grep holds one line per TEXT: how many times it was seen in
what was sent to the server (a query's terms, as its URL encodes them)."""
import os
import socket
import sys
import threading
import time

ports = [int(p) for p in sys.argv[1].split(",")]
targets = [int(p) for p in sys.argv[2].split(",")]
path = sys.argv[3]
log = open(sys.argv[4], "a", buffering=1) if len(sys.argv) > 4 else None
if len(ports) != len(targets):
    sys.exit("relay: as many PORTs as TARGETs")
count = {"req": 0, "up": 0, "down": 0}
needles = [n.encode() for n in os.environ.get("RELAY_GREP", "").split("|") if n]
seen = [0] * len(needles)
lock = threading.Lock()


def pump(src, dst, key):
    tail = b""   # the end of the last chunk, so that a TEXT cut in two is seen
    keep = max((len(n) for n in needles), default=1) - 1
    try:
        while True:
            b = src.recv(65536)
            if not b:
                break
            with lock:
                count[key] += len(b)
                if key == "up":
                    count["req"] += b.count(b"GET /") + b.count(b"POST /")
                    for i, n in enumerate(needles):
                        seen[i] += (tail + b).count(n) - tail.count(n)
                    tail = (tail + b)[-keep:] if keep else b""
                if log:
                    log.write(f"{time.monotonic():.6f} {key} {len(b)}\n")
            dst.sendall(b)
    except OSError:
        pass
    for s in (src, dst):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def serve(c, target):
    u = socket.create_connection(("127.0.0.1", target))
    for s in (c, u):
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    threading.Thread(target=pump, args=(c, u, "up"), daemon=True).start()
    threading.Thread(target=pump, args=(u, c, "down"), daemon=True).start()


def report():
    while True:
        with lock:
            text = f'{count["req"]} {count["up"]} {count["down"]}\n'
        with open(path + ".tmp", "w") as f:
            f.write(text)
        os.replace(path + ".tmp", path)
        if needles:
            with lock:
                text = "".join(f"{n}\n" for n in seen)
            with open(path + ".grep.tmp", "w") as f:
                f.write(text)
            os.replace(path + ".grep.tmp", path + ".grep")
        time.sleep(0.1)


def listen(port, target):
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", port))
    ls.listen(64)
    while True:
        c, _ = ls.accept()
        serve(c, target)


for p, t in zip(ports[1:], targets[1:]):
    threading.Thread(target=listen, args=(p, t), daemon=True).start()
threading.Thread(target=report, daemon=True).start()
listen(ports[0], targets[0])
