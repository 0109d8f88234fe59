#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# -o json on this host: one valid JSON object per iteration, numbers that
# are numbers (never NaN/Inf), the same keys for every domain.
. "$(dirname "$0")/common.sh"
./xgtop -b -n 3 -d 0.2 -o json >"$tmp/out" 2>"$tmp/err" || fail "exit $?: $(cat "$tmp/err")"
python3 - "$tmp/out" <<'PY' || exit 1
import json, re, sys
def no_const(name):
    raise ValueError("non-finite number " + name)
lines = open(sys.argv[1], "rb").read().decode("utf-8").split("\n")
assert lines[-1] == "", "output must end with a newline"
lines = lines[:-1]
assert len(lines) == 3, "want 3 lines, got %d" % len(lines)
keys = None
for n, l in enumerate(lines):
    o = json.loads(l, parse_constant=no_const)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", o["time"]), o["time"]
    assert isinstance(o["interval_s"], float) and 0.1 < o["interval_s"] < 2, o["interval_s"]
    h = o["host"]
    for k in ("source", "hypervisor", "hostname", "pcpus", "cpu_khz",
              "mem_total_bytes", "mem_free_bytes", "self_cpu_ms"):
        assert k in h, "host lacks " + k
    assert h["pcpus"] is None or h["pcpus"] >= 1
    assert o["domains"], "no domains on line %d" % n
    for d in o["domains"]:
        for k in ("id", "name", "state", "cpu_pct", "why"):
            assert k in d, "domain lacks " + k
        assert isinstance(d["name"], str) and re.fullmatch(r"[-dsbcpr]{6}", d["state"]), d
        for k, v in d.items():
            if k == "behind":   # the top culprit's name (as root on Linux)
                assert v is None or (isinstance(v, str) and v), (k, v)
            elif k not in ("name", "state", "why", "vcpu_rows"):
                assert v is None or isinstance(v, (int, float)), (k, v)
        for k, why in d["why"].items():
            assert d[k] is None and isinstance(why, str) and why, (k, why)
        ks = sorted(d.keys())
        if keys is None:
            keys = ks
        assert ks == keys, "keys differ: %s vs %s" % (ks, keys)
print("ok: 3 lines, %d keys per domain" % len(keys))
PY

# With vCPU rows: a "vcpu_rows" list on every domain, the same keys in
# every vCPU object.
./xgtop -b -n 2 -d 0.2 -o json -v --group process >"$tmp/vcpu" 2>"$tmp/err" || fail "-v: exit $?: $(cat "$tmp/err")"
python3 - "$tmp/vcpu" <<'PY' || exit 1
import json, sys
def no_const(name):
    raise ValueError("non-finite number " + name)
keys, n = None, 0
for l in open(sys.argv[1], encoding="utf-8"):
    for d in json.loads(l, parse_constant=no_const)["domains"]:
        assert isinstance(d["vcpu_rows"], list), d
        for v in d["vcpu_rows"]:
            assert isinstance(v["vcpu"], int) and v["state"] in ("online", "off"), v
            ks = sorted(v)
            keys = keys or ks
            assert ks == keys, "vCPU keys differ: %s vs %s" % (ks, keys)
            n += 1
assert n, "no vCPU rows"
print("ok: -v: %d vCPU objects" % n)
PY
