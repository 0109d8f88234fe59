#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Writes the series an xgtop exporter publishes, as a server would have
# scraped them every 10 s from END - 2 h to END (Unix seconds), for the
# Prometheus source's tests of past times: host 10.9.9.1:9717, domains
# web-01 (CPU 25 % and 1 GiB before END - 1 h, 75 % and 2 GiB after) and
# db-02 (CPU 50 %, 512 MiB throughout). FORMAT: openmetrics (promtool tsdb
# create-blocks-from openmetrics; seconds) or prometheus (VictoriaMetrics'
# /api/v1/import/prometheus; milliseconds). LAST (default END): the series
# go on at the second hour's rates up to LAST (now: so that live has data).
import sys

fmt, end = sys.argv[1], int(sys.argv[2])
last = int(sys.argv[3]) if len(sys.argv) > 3 else end
start, mid, step = end - 7200, end - 3600, 10
times = range(start, last + 1, step)
base = 'instance="10.9.9.1:9717",job="xgtop"'
doms = {"web-01": (1, lambda t: 0.25 if t <= mid else 0.75, lambda t: 2**30 if t <= mid else 2**31),
        "db-02": (2, lambda t: 0.5, lambda t: 2**29)}


def cpu_totals(rate):  # the integral of the rate from start, + 100 s, at each time
    out, total = {}, 100.0
    for t in times:
        out[t] = total
        total += rate(t + step) * step
    return out


series = [("xgtop_collector_refreshes_total", base, lambda t: (t - start) // step),
          ("xgtop_sample_monotonic_seconds", base, lambda t: 5000.0 + (t - start)),
          ("xgtop_host_pcpus", base, lambda t: 8),
          ("xgtop_host_memory_bytes", base, lambda t: 2**35),
          ("xgtop_host_memory_free_bytes", base, lambda t: 2**34)]
for name, (domid, rate, mem) in doms.items():
    lab = f'{base},domain="{name}"'
    series.append(("xgtop_domain_info", f'{lab},domid="{domid}",source="xen"', lambda t: 1))
    series.append(("xgtop_domain_state", f'{lab},state="running"', lambda t: 1))
    series.append(("xgtop_domain_cpu_seconds_total", lab, lambda t, c=cpu_totals(rate): c[t]))
    series.append(("xgtop_domain_memory_bytes", lab, lambda t, m=mem: m(t)))
out = sys.stdout
for name, lab, f in series:
    for t in times:
        stamp = t if fmt == "openmetrics" else t * 1000
        out.write(f"{name}{{{lab}}} {f(t)} {stamp}\n")
if fmt == "openmetrics":
    out.write("# EOF\n")
