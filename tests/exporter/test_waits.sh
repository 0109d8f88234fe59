#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The wait attribution's exporter families, through a real scrape of an
# xgtop replaying a recording whose waits xgtop-gen --waits made: each
# domain has at most 4 xgtop_domain_wait_behind_seconds series (3 culprits
# and other) whose sum equals its WAIT counter (runstate "runnable"), the
# series never go backwards from one scrape to the next, and
# xgtop_domain_wait_latency_seconds is a histogram the Python client's
# strict OpenMetrics parser accepts, with cumulative buckets, +Inf = _count.
. "$(dirname "$0")/common.sh"
/usr/bin/python3 -c 'import prometheus_client' 2>/dev/null || { echo "SKIP: python3-prometheus-client is needed to parse the scrape"; exit 77; }

build/tools/xgtop-gen --domains 12 --samples 40 --interval 0.25 --waits "$tmp/w.xgrec" >/dev/null || fail "xgtop-gen --waits"
start_exporter x --replay "$tmp/w.xgrec"
wait_until 30 refreshed 3 || fail "no third refresh in 30 s"
scrape "$OM" >"$tmp/a.om" || fail "first scrape"
wait_until 30 refreshed 8 || fail "no eighth refresh in 30 s"
scrape "$OM" >"$tmp/b.om" || fail "second scrape"
/usr/bin/python3 - "$tmp/a.om" "$tmp/b.om" <<'PY' || exit 1
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families

def load(path):
    behind, wait, hist = {}, {}, {}
    with open(path) as f:
        for fam in text_string_to_metric_families(f.read()):
            for s in fam.samples:
                dom = tuple(sorted((k, v) for k, v in s.labels.items() if k not in ("behind", "le", "state")))
                if fam.name == "xgtop_domain_wait_behind_seconds":
                    behind.setdefault(dom, {})[s.labels["behind"]] = s.value
                elif fam.name == "xgtop_domain_runstate_seconds" and s.labels.get("state") == "runnable":
                    wait[dom] = s.value
                elif fam.name == "xgtop_domain_wait_latency_seconds":
                    assert fam.type == "histogram", fam.type
                    hist.setdefault(dom, {})[(s.name, s.labels.get("le"))] = s.value
    return behind, wait, hist

a, b = load(sys.argv[1]), load(sys.argv[2])
for behind, wait, hist in (a, b):
    assert len(behind) == len(wait) >= 10, "domains with behind series: %d of %d" % (len(behind), len(wait))
    for dom, parts in behind.items():
        assert len(parts) <= 4 and "other" in parts, (dom, parts)
        total = sum(parts.values())
        assert abs(total - wait[dom]) <= 1e-9 * (len(parts) + 1), (dom, total, wait[dom])
    for dom, h in hist.items():
        les = sorted((float(le), v) for (n, le), v in h.items() if n.endswith("_bucket"))
        assert all(les[i][1] <= les[i + 1][1] for i in range(len(les) - 1)), (dom, les)
        count = h[("xgtop_domain_wait_latency_seconds_count", None)]
        assert les[-1][0] == float("inf") and les[-1][1] == count, (dom, les[-1], count)
        s = h[("xgtop_domain_wait_latency_seconds_sum", None)]
        # xgtop-gen's waits are 0.5 ms and 4 ms, as many of each
        assert abs(s - count * 0.00225) < 1e-6, (dom, s, count)
        below = dict(les)
        assert below[0.000524288] == count / 2 and below[0.004194304] == count, (dom, les)
grew = 0
for dom, parts in b[0].items():
    for who, v in parts.items():
        was = a[0][dom].get(who)
        assert was is None or v >= was, ("went back", dom, who, was, v)
        grew += was is not None and v > was
assert grew > 0, "no series grew between the scrapes"
print("behind series per domain <= 4, their sum = the WAIT counter for %d domains in 2 scrapes; " % len(b[0]) +
      "%d series grew, none went back; latency histograms cumulative, +Inf = _count" % grew)
PY
