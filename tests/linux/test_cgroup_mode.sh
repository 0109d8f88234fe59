#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Cgroup mode: one cgroup per worker below a test slice, so each is a
# domain named "<slice>/<worker>" whose id is the cgroup's inode. CPU comes
# from cpu.stat, the run/wait/blocked split from the threads' schedstat,
# disk bytes from io.stat (or /proc/PID/io when the io controller is off).
. "$(dirname "$0")/common.sh"
test_slice xgtop-test busy sleeper writer
# give the children memory and io accounting where the parent allows it
for c in memory io; do
	grep -qw "$c" "$root/$slice/cgroup.controllers" && echo "+$c" >"$root/$slice/cgroup.subtree_control" 2>/dev/null
done
f=/var/tmp/xgtop-linux-test.$$.data
flag=oflag=direct
dd if=/dev/zero of="$f" bs=1M count=1 oflag=direct status=none 2>/dev/null || flag=conv=fsync
# each worker moves itself into its cgroup before it starts working
cat >"$tmp/busy.sh" <<W
echo \$\$ >$root/$slice/busy/cgroup.procs || exit 1
while :; do :; done
W
cat >"$tmp/sleeper.sh" <<W
echo \$\$ >$root/$slice/sleeper/cgroup.procs || exit 1
exec sleep 60
W
cat >"$tmp/writer.sh" <<W
echo \$\$ >$root/$slice/writer/cgroup.procs || exit 1
while :; do dd if=/dev/zero of=$f bs=1M count=4 $flag conv=notrunc status=none; echo >>$tmp/chunks; sleep 0.1; done
W
spawn <<W
busy bash $tmp/busy.sh
sleeper bash $tmp/sleeper.sh
writer bash $tmp/writer.sh
W
for w in busy sleeper writer; do
	wait_until 30 in_cgroup $w || fail "worker $w did not move into its cgroup within 30 s"
done
wait_until 30 test -s "$tmp/chunks" || fail "the writer wrote no chunk within 30 s"
c0=$(wc -l <"$tmp/chunks"); t0=$(date +%s.%N)
xg_csv "$tmp/out" --group cgroup -n 3 -d 1
c1=$(wc -l <"$tmp/chunks"); t1=$(date +%s.%N)
ref=$(python3 -c "print(($c1 - $c0) * 4 * 1048576 / ($t1 - $t0))")
io_stat=n
[ -e "$root/$slice/writer/io.stat" ] && io_stat=y
python3 - "$tmp/out" "$root/$slice" "$slice" "$ref" "$io_stat" <<'PY' || exit 1
import csv, os, sys
path, cgdir, slice_, ref, io_stat = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5] == "y"
rows = list(csv.DictReader(open(path, newline="")))
def mean(name, key):
    vals = [float(r[key]) for r in rows if r["name"] == name and r[key] != ""]
    if not vals:
        sys.exit("FAIL: %s: no %s in xgtop's output (names: %s)" % (name, key, sorted({r["name"] for r in rows})))
    vals = vals[1:] if len(vals) > 1 else vals
    return sum(vals) / len(vals)
def expect(label, v, ok, want):
    if not ok:
        sys.exit("FAIL: %s = %.3f, want %s" % (label, v, want))
    print("ok: %s = %.3f (%s)" % (label, v, want))
for w in ("busy", "sleeper", "writer"):
    name = "%s/%s" % (slice_, w)
    ids = {r["id"] for r in rows if r["name"] == name}
    ino = os.stat(os.path.join(cgdir, w)).st_ino & 0xffffffff
    if ids != {str(ino)}:
        sys.exit("FAIL: %s: ids %s, want the cgroup inode %d" % (name, ids, ino))
print("ok: domains are the worker cgroups, ids are their inodes")
b = slice_ + "/busy"
cpu, run, wait, blk = (mean(b, k) for k in ("cpu_pct", "run_pct", "wait_pct", "blk_pct"))
expect("busy CPU% (cpu.stat)", cpu, cpu >= 15, ">= 15")
expect("busy RUN%", run, run >= 15, ">= 15")
expect("busy BLK%", blk, blk <= 15, "<= 15")

expect("busy RUN%+WAIT%", run + wait, run + wait >= 85, ">= 85")
expect("busy CPU% vs RUN%", abs(cpu - run), abs(cpu - run) <= 10, "<= 10")
s = slice_ + "/sleeper"
sb, sc = mean(s, "blk_pct"), mean(s, "cpu_pct")
expect("sleeper BLK%", sb, sb >= 97, ">= 97")
expect("sleeper CPU%", sc, sc <= 1, "<= 1")
wr = mean(slice_ + "/writer", "disk_wr_bps")
expect("writer DISK-WR/s / real rate", wr / ref, 0.6 <= wr / ref <= 1.5, "0.6 .. 1.5")
iops = [r["disk_wr_iops"] for r in rows if r["name"] == slice_ + "/writer"]
if io_stat and not any(iops):
    sys.exit("FAIL: io.stat is there but disk_wr_iops is empty")
if not io_stat and any(iops):
    sys.exit("FAIL: no io.stat, yet disk_wr_iops has values %s" % iops)
print("ok: disk_wr_iops %s (io.stat %s)" % ("given" if io_stat else "empty", "present" if io_stat else "absent"))
mem = mean(b, "mem_bytes")
expect("busy MEM bytes", mem, mem > 0, "> 0")
PY
