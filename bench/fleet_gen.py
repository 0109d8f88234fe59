#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A synthetic fleet for bench/fleet.sh: one real exporter's /metrics text
(50 domains of a generated recording) made into HOSTS hosts, each a copy
with its own instance label and its own load (counters scaled by a factor
per host and domain), as series of SAMPLES points STEP seconds apart
ending FUTURE seconds from now (so that the hosts stay live while a bench
runs), in VictoriaMetrics' JSON-line import format on stdout.

Counters grow linearly at their snapshot value / 1000 per second, times
the factor; gauges stay; the host's sample clocks follow the time. The
per-vCPU and per-socket series are left out: the Prometheus source does
not read them yet, and they would triple the import."""
import json
import re
import sys
import time

snap, hosts, samples, step = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
future = int(sys.argv[5]) if len(sys.argv) > 5 else 0
line_re = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)')
label_re = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')
series = []
for line in open(snap):
    m = line_re.match(line)
    if not m or m.group(1).startswith(("xgtop_vcpu", "xgtop_socket")):
        continue
    labels = {k: bytes(v, "utf-8").decode("unicode_escape") for k, v in label_re.findall(m.group(3) or "")}
    try:
        v = float(m.group(4))
    except ValueError:
        continue
    series.append((m.group(1), labels, v))

end = (int(time.time()) + future) * 1000
ts = [end - int((samples - 1 - i) * step * 1000) for i in range(samples)]
secs = [(t - ts[0]) / 1000 for t in ts]
out = sys.stdout
for h in range(hosts):
    inst = f"fleet{h:03d}:9717"
    for name, labels, v in series:
        lab = dict(labels, __name__=name, instance=inst, job="xgtop")
        dom = labels.get("domain", "")
        factor = 1 + ((h * 7919 + sum(map(ord, dom)) * 104729) % 97) / 24
        if name == "xgtop_sample_monotonic_seconds":
            vals = [1000 + s for s in secs]
        elif name == "xgtop_sample_time_seconds":
            vals = [t / 1000 for t in ts]
        elif name == "xgtop_collector_refreshes_total":
            vals = [1 + s / step for s in secs]
        elif name.endswith("_total"):
            vals = [v + v / 1000 * factor * s for s in secs]
        else:
            vals = [v] * samples
        out.write(json.dumps({"metric": lab, "values": vals, "timestamps": ts}, separators=(",", ":")))
        out.write("\n")
