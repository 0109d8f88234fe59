#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Scrapes exporters replaying recordings faster than recorded, and writes
# what a server scraping them once per recorded sample would hold, as of
# the past: the samples of each host are stamped START + (its sample clock
# - the clock of its first sample kept) (+ 0.5 s for the second host, so
# that the hosts' scrapes do not fall on the same instants), with the
# labels a scrape adds (instance="HOST:PORT", job="xgtop").
# Usage: scrape_past.py FORMAT START COUNT HOST:PORT...
#   FORMAT: openmetrics (promtool tsdb create-blocks-from openmetrics;
#   seconds) or prometheus (VictoriaMetrics' /api/v1/import/prometheus;
#   milliseconds). COUNT: samples of each host (each a distinct sample
#   clock; one the scraper missed is a missed scrape). Fails after 120 s.
import re
import sys
import time
import urllib.request

fmt, start, count, hosts = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
line_re = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)$")
kept = {h: {} for h in hosts}  # host -> {clock: [(name, labels, value)]}
deadline = time.monotonic() + 120
while any(len(k) < count for k in kept.values()):
    if time.monotonic() > deadline:
        sys.exit("scrape_past.py: " + ", ".join(f"{h}: {len(k)} samples" for h, k in kept.items()) +
                 f" after 120 s, want {count}")
    for h in hosts:
        if len(kept[h]) >= count:
            continue
        body = urllib.request.urlopen(f"http://{h}/metrics", timeout=5).read().decode()
        rows, clock = [], None
        for line in body.splitlines():
            if not line or line.startswith("#"):
                continue
            m = line_re.match(line)
            if not m:
                sys.exit(f"scrape_past.py: {h}: a line not understood: {line[:120]}")
            name, labels, value = m.group(1), (m.group(2) or "{}")[1:-1], m.group(3)
            rows.append((name, labels, value))
            if name == "xgtop_sample_monotonic_seconds":
                clock = float(value)
        if clock is None:
            sys.exit(f"scrape_past.py: {h}: no xgtop_sample_monotonic_seconds")
        kept[h].setdefault(clock, rows)
    time.sleep(0.02)

out = sys.stdout
for i, h in enumerate(hosts):
    clocks = sorted(kept[h])
    for c in clocks:
        t = start + (c - clocks[0]) + 0.5 * i
        stamp = f"{t:.3f}" if fmt == "openmetrics" else str(round(t * 1000))
        extra = f'instance="{h}",job="xgtop"'
        for name, labels, value in kept[h][c]:
            out.write(f"{name}{{{extra}{',' if labels else ''}{labels}}} {value} {stamp}\n")
if fmt == "openmetrics":
    out.write("# EOF\n")
