#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Scrapes an xgtop exporter back to back until a stop file appears
(bench/soak.sh), alternating the Prometheus text and OpenMetrics formats.
Every answer must be a 200 whose every sample value parses, is finite
(but a domain's maximum memory, +Inf for no limit) and not negative
(xgtop exports counters and gauges only), and the refresh
counter and sample time must never go back. Prints one summary line;
exit 1 on any bad answer.
Usage: soak_scrape.py URL STOPFILE"""
import math
import os
import sys
import urllib.request

OPENMETRICS = "application/openmetrics-text;version=1.0.0"


def value_of(line):
    # "name{labels} value" or "name value"; label values may hold spaces
    # and escaped quotes, the value is the last field after them.
    rest = line[line.rindex("}") + 1:] if "}" in line else line.split(" ", 1)[1]
    return float(rest.split()[0])


def scrape(url, accept):
    req = urllib.request.Request(url, headers={"Accept": accept})
    with urllib.request.urlopen(req, timeout=10) as r:
        return r.status, r.read().decode("utf-8", "strict")


def check(body, om, last):
    """Returns (problem or None, refreshes, sample time, series)."""
    if om and not body.endswith("# EOF\n"):
        return "OpenMetrics answer without its # EOF line", last[0], last[1], 0
    refreshes, stamp, series = last[0], last[1], 0
    for line in body.splitlines():
        if not line or line.startswith("#"):
            continue
        series += 1
        try:
            v = value_of(line)
        except (ValueError, IndexError):
            return "unparsable line: " + line[:200], refreshes, stamp, series
        no_limit = math.isinf(v) and line.startswith("xgtop_domain_memory_max_bytes{")
        if math.isnan(v) or (math.isinf(v) and not no_limit) or v < 0:
            return "bad value: " + line[:200], refreshes, stamp, series
        if line.startswith("xgtop_collector_refreshes_total "):
            if v < last[0]:
                return "refresh counter went back: %g -> %g" % (last[0], v), v, stamp, series
            refreshes = v
        elif line.startswith("xgtop_sample_monotonic_seconds "):
            if v < last[1]:
                return "sample time went back: %g -> %g" % (last[1], v), refreshes, v, series
            stamp = v
    return None, refreshes, stamp, series


def main():
    url, stop = sys.argv[1], sys.argv[2]
    n = bad = 0
    last = (0.0, 0.0)
    first_problem = None
    max_series = 0
    while not os.path.exists(stop):
        om = n % 2 == 1
        try:
            status, body = scrape(url, OPENMETRICS if om else "text/plain")
        except Exception as e:  # a refused or cut connection is a bad answer
            status, body = None, str(e)
        n += 1
        if status != 200:
            problem = "HTTP %s: %s" % (status, body[:200])
        else:
            problem, r, t, series = check(body, om, last)
            last = (r, t)
            max_series = max(max_series, series)
        if problem:
            bad += 1
            first_problem = first_problem or problem
    print("scrapes %d bad %d refreshes_seen %d max_series %d%s" %
          (n, bad, last[0], max_series, "" if not first_problem else " first: " + first_problem))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
