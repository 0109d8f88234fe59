#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A byte-counting TCP relay (bench/fleet.sh, tests/tui/test_promsrc_screen.sh): listens on 127.0.0.1:PORT,
relays every connection to 127.0.0.1:TARGET, and keeps in FILE (rewritten
every 0.1 s) the requests seen ("GET " / "POST " at a request's start),
the bytes sent to the server and the bytes it answered, since start."""
import os
import socket
import sys
import threading
import time

port, target, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
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
            dst.sendall(b)
    except OSError:
        pass
    for s in (src, dst):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def serve(c):
    u = socket.create_connection(("127.0.0.1", target))
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


ls = socket.socket()
ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
ls.bind(("127.0.0.1", port))
ls.listen(64)
threading.Thread(target=report, daemon=True).start()
while True:
    c, _ = ls.accept()
    serve(c)
