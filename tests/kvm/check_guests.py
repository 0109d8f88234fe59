#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks for tests/kvm/test_guests.sh: the frozen full-screen view against
CSV and JSON replays of the recording made while it ran, then the figures
against what the guests do.
Usage: check_guests.py SCREEN CSV JSON ACCEL SPIN_PID READ_PID SCOPED_NAME TAPLOG
TAPLOG: lines "UNIX_TIME TX_BYTES" of the reader's tap, logged while the view ran."""
import csv
import json
import sys

import datetime

screen_f, csv_f, json_f, accel, spin, read, scoped, taplog_f = sys.argv[1:9]
SCOPED_ID = "7"   # from the libvirt scope name


def fail(msg):
    sys.exit("FAIL: " + msg)


def ok(msg):
    print("ok: " + msg)


def parse_screen(path):
    """The domain rows of the table: {id: {header: cell}}, with the vCPU
    rows under "vcpus" as {n: {header: cell}}."""
    lines = open(path, encoding="utf-8").read().splitlines()
    hi = next((i for i, l in enumerate(lines) if " NAME " in l and "EMU%" in l), None)
    if hi is None:
        fail("no table header with EMU% on the screen")
    head = [h.lstrip("▲▼") for h in lines[hi].split()]
    doms, cur = {}, None
    for l in lines[hi + 1:]:
        cells = l.split()
        if not cells:
            break
        if cells[0] == "vCPU" and cur is not None:
            # "vCPU N online ...": NAME is two words, ID blank
            row = dict(zip(head[1:], ["vCPU " + cells[1]] + cells[2:]))
            cur["vcpus"][cells[1]] = row
        elif cells[0].isdigit():
            cur = dict(zip(head, cells))
            cur["vcpus"] = {}
            doms[cells[0]] = cur
        else:
            break
    return doms


def human(s):
    """1.5G -> bytes (the screen's binary units)."""
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
    return float(s[:-1]) * units[s[-1]] if s[-1] in units else float(s)


screen = parse_screen(screen_f)
rows = list(csv.DictReader(open(csv_f, newline="")))
last_t = rows[-1]["time"]
last = [r for r in rows if r["time"] == last_t]
doms = {r["id"]: r for r in last if r["vcpu"] == ""}
vcpus = {}
for r in last:
    if r["vcpu"] != "":
        vcpus.setdefault(r["id"], {})[r["vcpu"]] = r
jlast = json.loads(open(json_f).read().splitlines()[-1])
jdoms = {str(d["id"]): d for d in jlast["domains"]}

# 1. the screen shows the last recorded sample: CSV and JSON match it
PCT = ("CPU%", "cpu_pct"), ("RUN%", "run_pct"), ("WAIT%", "wait_pct"), ("BLK%", "blk_pct"), ("EMU%", "emu_pct")
for ident, s in screen.items():
    c, j = doms.get(ident), jdoms.get(ident)
    if not c or not j:
        fail("screen row %s (%s) is not in the CSV/JSON replay" % (ident, s.get("NAME")))
    if not c["name"].startswith(s["NAME"].rstrip("…~")):
        fail("id %s: screen name %r, CSV %r" % (ident, s["NAME"], c["name"]))
    for hdr, key in PCT + (("VCPU", "vcpus"),):
        if s.get(hdr, "-") == "-":
            if c[key] != "" or j[key] is not None:
                fail("id %s %s: '-' on screen, %r in CSV, %r in JSON" % (ident, hdr, c[key], j[key]))
            continue
        if abs(float(s[hdr]) - float(c[key])) > 0.051 or abs(float(c[key]) - j[key]) > 1e-3:
            fail("id %s %s: screen %s, CSV %s, JSON %s" % (ident, hdr, s[hdr], c[key], j[key]))
    for hdr, key in (("MEM", "mem_bytes"), ("MAXMEM", "maxmem_bytes")):
        if s[hdr] not in ("-", "nolim"):
            v = float(c[key])
            if abs(human(s[hdr]) - v) > 0.06 * v or j[key] != int(c[key]):
                fail("id %s %s: screen %s, CSV %s, JSON %s" % (ident, hdr, s[hdr], c[key], j[key]))
    for n, sv in s["vcpus"].items():
        cv = vcpus.get(ident, {}).get(n)
        if not cv or abs(float(sv["CPU%"]) - float(cv["cpu_pct"])) > 0.051:
            fail("id %s vCPU %s: screen %s, CSV %s" % (ident, n, sv.get("CPU%"), cv and cv["cpu_pct"]))
ok("the frozen screen's %d rows match the CSV and JSON replays of its recording" % len(screen))

# 2. names, vCPUs, configured memory
want = {spin: ("xgtest-spin", 2, 160), read: ("xgtest-read", 1, 128), SCOPED_ID: (scoped, 1, 144)}
for ident, (name, nv, mib) in want.items():
    d = doms.get(ident)
    if not d:
        fail("no domain %s (%s); ids: %s" % (ident, name, sorted(doms)))
    if d["name"] != name or int(d["vcpus"]) != nv or int(d["maxmem_bytes"]) != mib << 20:
        fail("%s: name %r vcpus %s maxmem %s, want %r %d %d MiB" % (ident, d["name"], d["vcpus"],
             d["maxmem_bytes"], name, nv, mib))
    if sorted(vcpus.get(ident, {})) != [str(i) for i in range(nv)]:
        fail("%s: vCPU rows %s, want 0..%d" % (name, sorted(vcpus.get(ident, {})), nv - 1))
ok("names (the scoped guest by its full -name, id 7 from its scope), vCPU counts, memory")


def f(ident, key):
    return float(doms[ident][key])


# 3. the spinner runs, the reader sleeps; CPU% = vCPU rows + EMU%
if not (f(spin, "cpu_pct") > f(read, "cpu_pct") and f(spin, "run_pct") > f(read, "run_pct")
        and f(read, "blk_pct") > f(spin, "blk_pct")):
    fail("spinner CPU%% %.1f RUN%% %.1f BLK%% %.1f vs reader CPU%% %.1f RUN%% %.1f BLK%% %.1f" % tuple(
        f(i, k) for i in (spin, read) for k in ("cpu_pct", "run_pct", "blk_pct")))
if f(spin, "run_pct") + f(spin, "wait_pct") < 35 or f(read, "blk_pct") < 70:
    fail("spinner (one of two vCPUs busy) RUN%%+WAIT%% %.1f (want >= 35), reader BLK%% %.1f (want >= 70)"
         % (f(spin, "run_pct") + f(spin, "wait_pct"), f(read, "blk_pct")))
for ident in (spin, read, SCOPED_ID):
    s = sum(float(v["cpu_pct"]) for v in vcpus[ident].values()) + f(ident, "emu_pct")
    if abs(s - f(ident, "cpu_pct")) > 0.5:
        fail("%s: vCPUs + EMU%% = %.2f, CPU%% %.2f" % (doms[ident]["name"], s, f(ident, "cpu_pct")))
ok("spinner CPU%% %.1f RUN%% %.1f, reader CPU%% %.1f BLK%% %.1f; CPU%% = vCPUs + EMU%%"
   % (f(spin, "cpu_pct"), f(spin, "run_pct"), f(read, "cpu_pct"), f(read, "blk_pct")))

# 4. the reader's disk and network (guest's view: it receives the UDP)
if f(read, "disk_rd_bps") < 100e3:
    fail("reader DISK-RD/s %.0f: its O_DIRECT reads do not show" % f(read, "disk_rd_bps"))
rx, tx = f(read, "net_rx_bps"), f(read, "net_tx_bps")
# what the host sent over the interval the last sample covers, from the tap
# counters logged around its ends (linear between two log lines)
taplog = [tuple(map(float, l.split())) for l in open(taplog_f) if len(l.split()) == 2]
def sent_at(t):
    for (t0, b0), (t1, b1) in zip(taplog, taplog[1:]):
        if t0 <= t <= t1:
            return b0 + (b1 - b0) * (t - t0) / (t1 - t0) if t1 > t0 else b1
    fail("the tap log (%.1f to %.1f) does not cover %.1f" % (taplog[0][0], taplog[-1][0], t))
t_end = datetime.datetime.strptime(doms[read]["time"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(
    tzinfo=datetime.timezone.utc).timestamp()
ival = f(read, "interval_s")
udp_bps = (sent_at(t_end) - sent_at(t_end - ival)) / ival
if not 0.6 * udp_bps <= rx <= 1.4 * udp_bps or tx > rx / 5:
    fail("reader NET-RX/s %.0f NET-TX/s %.0f; the host sent it %.0f B/s" % (rx, tx, udp_bps))
ok("reader DISK-RD/s %.0f, NET-RX/s %.0f (host sent %.0f), NET-TX/s %.0f" % (f(read, "disk_rd_bps"), rx, udp_bps, tx))

# 5. KVM's own figures
if accel == "kvm":
    for ident in (spin, read, SCOPED_ID):
        d = jdoms[ident]
        if d["vm_exits_ps"] is None or d["vm_exits_ps"] <= 0 or d["halt_poll_pct"] is None:
            fail("%s under KVM: EXITS/s %r POLL%% %r (why: %s)" % (d["name"], d["vm_exits_ps"],
                 d["halt_poll_pct"], d.get("why", {})))
    ok("EXITS/s and POLL% under KVM")
else:
    why = jdoms[spin].get("why", {}).get("vm_exits_ps", "")
    if "TCG" not in why:
        fail("TCG guest: EXITS/s should say why it is '-', says %r" % why)
    print("skip: EXITS/s and POLL%% are KVM's (TCG run: %s)" % why)
