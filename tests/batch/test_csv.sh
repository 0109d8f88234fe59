#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# -o csv on this host: one header, the same number of fields on every
# line, numbers or empty in the numeric columns.
. "$(dirname "$0")/common.sh"
./xgtop -b -n 3 -d 0.2 -o csv >"$tmp/out" 2>"$tmp/err" || fail "exit $?: $(cat "$tmp/err")"
python3 - "$tmp/out" <<'PY' || exit 1
import csv, re, sys
rows = list(csv.reader(open(sys.argv[1], encoding="utf-8", newline="")))
head = rows[0]
assert head[:3] == ["time", "interval_s", "id"], head
assert "name" in head and "state" in head and "cpu_pct" in head, head
assert len(set(head)) == len(head), "duplicate keys"
assert all(r != head for r in rows[1:]), "header repeated"
times = set()
for r in rows[1:]:
    assert len(r) == len(head), "%d fields, header has %d: %r" % (len(r), len(head), r)
    d = dict(zip(head, r))
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", d["time"]), d["time"]
    times.add(d["time"])
    for k, v in d.items():
        if k in ("time", "name", "state", "behind"):   # behind: a culprit's name
            continue
        if v != "":
            f = float(v)
            assert f == f and abs(f) != float("inf"), (k, v)
assert len(times) == 3, "want 3 iterations, got %d" % len(times)
print("ok: %d rows of %d fields" % (len(rows) - 1, len(head)))
PY

# With vCPU rows: a `vcpu` field after `id`, empty on domain rows. Process
# groups, whose threads are the vCPU rows: with --group auto a VM running on
# the host (the Xen lab's QEMU) would be the only domain with vCPUs.
./xgtop -b -n 2 -d 0.2 -o csv -v --group process >"$tmp/vcpu" 2>"$tmp/err" || fail "-v: exit $?: $(cat "$tmp/err")"
python3 - "$tmp/vcpu" <<'PY' || exit 1
import csv, re, sys
rows = list(csv.reader(open(sys.argv[1], encoding="utf-8", newline="")))
head = rows[0]
assert head[2:4] == ["id", "vcpu"], head
ndom = nvcpu = 0
for r in rows[1:]:
    assert len(r) == len(head), "%d fields, header has %d: %r" % (len(r), len(head), r)
    d = dict(zip(head, r))
    if d["vcpu"] == "":
        ndom += 1
        assert re.fullmatch(r"[-dsbcpr]{6}", d["state"]), d["state"]
    else:
        nvcpu += 1
        assert int(d["vcpu"]) >= 0 and d["state"] in ("online", "off"), d
assert ndom and nvcpu, "want domain and vCPU rows: %d, %d" % (ndom, nvcpu)
print("ok: -v: %d domain rows, %d vCPU rows" % (ndom, nvcpu))
PY
