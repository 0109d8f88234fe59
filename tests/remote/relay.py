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
transfers from the next and time them."""
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
lock = threading.Lock()


def pump(src, dst, key):
    try:
        while True:
            b = src.recv(65536)
            if not b:
                break
            with lock:
                count[key] += len(b)
                if key == "up":
                    count["req"] += b.count(b"GET /") + b.count(b"POST /")
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
