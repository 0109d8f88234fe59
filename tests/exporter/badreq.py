#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Bad requests against an xgtop exporter on 127.0.0.1:PORT: other methods,
other paths (.. included), huge headers and URLs, garbage, a flood of idle
connections from another client address (127.0.0.2), and clients that send
half a request and stop. Each must be refused or timed out; meanwhile
scrapes from 127.0.0.1 keep working and the exporter keeps refreshing on
time (REFRESH_HZ refreshes per second of wall time, within 10 %).

Usage: badreq.py PORT REFRESH_HZ IDLE_S
"""
import re
import socket
import sys
import threading
import time

PORT, HZ, IDLE = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
PER_CLIENT = 16


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def exchange(raw, src='127.0.0.1', timeout=5):
    """Sends raw bytes, returns everything the server sends until it closes
    or stops sending for a second."""
    s = socket.create_connection(('127.0.0.1', PORT), timeout=timeout, source_address=(src, 0))
    try:
        s.sendall(raw)
        s.settimeout(1)
        out = b''
        while True:
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                break
            if not chunk:
                break
            out += chunk
        return out
    finally:
        s.close()


def status(resp):
    m = re.match(rb'HTTP/1\.[01] (\d{3})', resp)
    return int(m.group(1)) if m else None


def scrape_ok():
    r = exchange(b'GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    return status(r) == 200 and b'xgtop_collector_refreshes_total' in r


def refreshes():
    r = exchange(b'GET /metrics HTTP/1.0\r\n\r\n')
    m = re.search(rb'\nxgtop_collector_refreshes_total (\d+)\n', r)
    if not m:
        fail('no refresh count in a scrape')
    return int(m.group(1))


def methods_and_paths():
    for method in (b'POST', b'PUT', b'DELETE', b'OPTIONS', b'TRACE', b'PATCH', b'BREW'):
        r = exchange(method + b' /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc')
        if status(r) != 405 or not re.search(rb'(?i)\r\nallow: GET, HEAD\r\n', r):
            fail('%s /metrics: %r' % (method.decode(), r[:200]))
    for path in (b'/metrics/', b'/../metrics', b'/metrics/..', b'/%2e%2e/etc/passwd', b'/..%2fmetrics',
                 b'/index.html', b'/metrics?x=../../etc/passwd#', b'//metrics'):
        r = exchange(b'GET ' + path + b' HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
        want = 200 if path.startswith(b'/metrics?') else 404
        if status(r) != want:
            fail('GET %s: %r' % (path.decode(), r[:200]))
    r = exchange(b'GET ../metrics HTTP/1.1\r\nHost: x\r\n\r\n')
    if status(r) not in (400, 404):
        fail('GET ../metrics: %r' % r[:200])
    print('other methods: 405 with Allow; other paths and .. : 404 (query strings ignored)')


def oversized():
    big = b'GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: ' + b'a' * 20000 + b'\r\n\r\n'
    many = b'GET /metrics HTTP/1.1\r\nHost: x\r\n' + b''.join(b'X-H%d: %s\r\n' % (i, b'b' * 100) for i in range(300)) + b'\r\n'
    url = b'GET /metrics?' + b'q' * 20000 + b' HTTP/1.1\r\nHost: x\r\n\r\n'
    for name, raw in (('a 20 KB header', big), ('300 headers', many), ('a 20 KB URL', url)):
        try:
            r = exchange(raw)
        except (ConnectionResetError, BrokenPipeError):
            r = b''
        if status(r) not in (None, 400, 413, 414, 431) or b'xgtop_' in r:
            fail('%s was answered: %r' % (name, r[:200]))
    for raw in (b'\x00\x01\x02garbage\r\n\r\n', b'GET\r\n\r\n', b'GET /metrics HTTP/9.9\r\n\r\n'):
        r = exchange(raw)
        if b'xgtop_' in r:
            fail('%r was answered with metrics' % raw)
    print('oversized headers and URLs, garbage: refused')


def hold(src, n):
    """Opens n connections from src and sends nothing; returns them."""
    socks = []
    for _ in range(n):
        s = socket.socket()
        s.bind((src, 0))
        s.settimeout(5)
        s.connect(('127.0.0.1', PORT))
        socks.append(s)
    return socks


def closed_within(socks, seconds):
    """How many of socks the server closed within seconds (by now)."""
    end, closed = time.monotonic() + seconds, set()
    while len(closed) < len(socks) and time.monotonic() < end:
        for i, s in enumerate(socks):
            if i in closed:
                continue
            s.settimeout(0.01)
            try:
                if s.recv(1) == b'':
                    closed.add(i)
            except socket.timeout:
                pass
            except OSError:
                closed.add(i)
        time.sleep(0.05)
    return len(closed)


def slow_clients(result):
    """Half a request, then silence: closed after the idle time, not before
    half of it."""
    socks = hold('127.0.0.1', 4)
    for s in socks:
        s.sendall(b'GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: ')
    early = closed_within(socks, IDLE / 2)
    late = closed_within(socks, IDLE + 3)
    result['slow'] = (early, late)
    for s in socks:
        s.close()


def idle_flood():
    t0, n0 = time.monotonic(), refreshes()
    slow = {}
    t = threading.Thread(target=slow_clients, args=(slow,))
    t.start()
    flood = hold('127.0.0.2', 100)
    refused = closed_within(flood, 1)
    if refused < 100 - PER_CLIENT:
        fail('%d of 100 idle connections from one client were accepted and held' % (100 - refused))
    # (five scrapes spread over the flood; the refresh rate below is taken
    # over whatever time really passed)
    for _ in range(5):
        if not scrape_ok():
            fail('a scrape from another client failed during the flood')
        time.sleep(0.5)
    left = closed_within(flood, IDLE + 3)
    if left != 100:
        fail('%d idle connections still open after %g s' % (100 - left, IDLE + 3))
    t.join()
    early, late = slow['slow']
    if early or late != 4:
        fail('half requests: %d closed before %g s, %d of 4 after %g s' % (early, IDLE / 2, late, IDLE + 3))
    dt, dn = time.monotonic() - t0, refreshes() - n0
    if abs(dn - HZ * dt) > 0.1 * HZ * dt:
        fail('%d refreshes in %.1f s during the flood, expected %.0f' % (dn, dt, HZ * dt))
    print('100 idle connections from one client: %d held, the rest refused, all closed after the idle time;'
          % (100 - refused))
    print('4 half requests closed after the idle time; scrapes from another client worked meanwhile;')
    print('%d refreshes in %.1f s (%.2f/s, expected %g/s)' % (dn, dt, dn / dt, HZ))


methods_and_paths()
oversized()
idle_flood()
if not scrape_ok():
    fail('the exporter does not serve after all this')
print('still serving')
