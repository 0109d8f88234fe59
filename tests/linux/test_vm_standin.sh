#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# --group vm on stand-ins for QEMU (tests/tools/xg-vm-standin: QEMU's
# process name, command line and thread names, no guest): names and ids as
# libvirt, Proxmox and plain command lines give them, vCPU counts and
# configured memory, the emulator's CPU apart (CPU% = vCPU rows + EMU%),
# the vCPUs' split, a VM without named vCPU threads, one host row, a
# stopped VM shown paused, a killed one gone, a restarted one (same VMID,
# new process) starting a new baseline, and --group auto choosing vm.
. "$(dirname "$0")/common.sh"
standin=$PWD/build/tools/xg-vm-standin
[ -x "$standin" ] || fail "$standin is not built (run make tools)"
ln -s "$standin" "$tmp/qemu-system-x86_64"
ln -s "$standin" "$tmp/kvm"
uuid=550e8400-e29b-41d4-a716-446655440000
# (each stand-in says "ready" once all its threads have their names)
spawn <<W
web XG_VCPUS=2 XG_SPIN=1 $tmp/qemu-system-x86_64 -name guest=web,,prod,debug-threads=on -m 2G -smp 2,maxcpus=4 -uuid $uuid >$tmp/ready.web
pve XG_VCPUS=4 $tmp/kvm -id 101 -name pve101,debug-threads=on -smp sockets=2,cores=2 >$tmp/ready.pve
db XG_VCPUS=1 XG_ACCEL=TCG XG_EMU_SPIN=1 $tmp/qemu-system-x86_64 -name db -m size=1048576k >$tmp/ready.db
quiet XG_VCPUS=3 XG_UNNAMED=1 $tmp/qemu-system-x86_64 -name quiet -smp 3 -m 512 >$tmp/ready.quiet
W
for w in web pve db quiet; do
	wait_until 30 grep -q ready "$tmp/ready.$w" || fail "the stand-in $w did not name its threads within 30 s"
done
web=$(pid_of web) pve=$(pid_of pve) db=$(pid_of db) quiet=$(pid_of quiet)
# samples every second, printed from the second one on: pve101 restarts
# between the 1st and 2nd printed ones; web is stopped after the 2nd and
# continued after the 3rd; db is killed after the 2nd. Each change waits
# for the printed iteration it follows (a loaded machine can start xgtop
# late), and then has a second until the next sample.
./xgtop -b -o csv --group vm -v -n 4 -d 1 >"$tmp/out" 2>"$tmp/err" &
xg=$!
after() {  # N: until xgtop has printed N iterations
	wait_until 30 printed_at_least "$tmp/out" "$1" || fail "xgtop printed no $1 iterations within 30 s: $(cat "$tmp/err")"
}
after 1
kill "$pve"
XG_VCPUS=4 setsid "$tmp/kvm" -id 101 -name pve101,debug-threads=on -smp sockets=2,cores=2 >/dev/null 2>&1 &
pids+=($!)
after 2
kill -STOP "$web"
kill "$db"
after 3
kill -CONT "$web"
wait "$xg" || fail "xgtop: exit $?: $(cat "$tmp/err")"
./xgtop -b -o csv -n 1 -d 0.5 >"$tmp/auto" 2>"$tmp/err" || fail "xgtop (auto): $(cat "$tmp/err")"
./xgtop --group vm --explain -d 0.5 >"$tmp/explain" 2>"$tmp/err" || fail "xgtop --explain: $(cat "$tmp/err")"
python3 - "$tmp/out" "$tmp/auto" "$tmp/explain" "$web" "$db" "$quiet" <<'PY' || exit 1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
auto = list(csv.DictReader(open(sys.argv[2], newline="")))
explain = open(sys.argv[3]).read()
web, db, quiet = sys.argv[4:7]
times = sorted({r["time"] for r in rows})
def fail(msg):
    sys.exit("FAIL: " + msg)
def dom(ident, t):
    d = [r for r in rows if r["id"] == ident and r["vcpu"] == "" and r["time"] == t]
    return d[0] if d else None
def vcpus(ident, t):
    return {r["vcpu"]: r for r in rows if r["id"] == ident and r["vcpu"] != "" and r["time"] == t}
def f(r, k):
    return float(r[k])
t0, t1, t2, t3 = times
want = {web: ("web,prod", 2, 2 << 30), "101": ("pve101", 4, 128 << 20), db: ("db", 1, 1 << 30),
        quiet: ("quiet", 3, 512 << 20), "0": ("host", None, None)}
for ident, (name, nv, mem) in want.items():
    d = dom(ident, t0)
    if not d:
        fail("no row with id %s (ids: %s)" % (ident, sorted({r["id"] for r in rows})))
    if d["name"] != name:
        fail("id %s is named %r, want %r" % (ident, d["name"], name))
    if nv is not None and int(d["vcpus"]) != nv:
        fail("%s: VCPU %s, want %d" % (name, d["vcpus"], nv))
    if mem is not None and int(d["maxmem_bytes"]) != mem:
        fail("%s: MAXMEM %s, want %d" % (name, d["maxmem_bytes"], mem))
print("ok: names, ids, vCPU counts and configured memory")
# CPU% = the vCPU rows' CPU% + EMU%, in every interval of the running VMs
for ident in (web, db, quiet):
    d = dom(ident, t0)
    s = sum(f(v, "cpu_pct") for v in vcpus(ident, t0).values()) + f(d, "emu_pct") if d["emu_pct"] else None
    if ident == quiet:
        if vcpus(ident, t0) or d["emu_pct"] or d["run_pct"]:
            fail("quiet (no vCPU thread names): want no vCPU rows, EMU% or RUN%%: %r" % d)
        continue
    if abs(s - f(d, "cpu_pct")) > 0.5:
        fail("%s: vCPUs + EMU%% = %.2f, CPU%% %.2f" % (d["name"], s, f(d, "cpu_pct")))
print("ok: CPU% = vCPU rows + EMU%")
d = dom(db, t0)
# (two spinners and the rest of the host share the CPUs: the emulator gets
# what the scheduler gives it, all of the VM's CPU in any case; under the
# neighbours' load on 2 shared cores that has been as little as 11 %)
if f(d, "emu_pct") < 5 or f(d, "emu_pct") < 0.9 * f(d, "cpu_pct") or f(d, "run_pct") > 5:
    fail("db: its emulator spins: EMU%% %.1f (want >= 5 and all of CPU%% %.1f), vCPU RUN%% %.1f (want <= 5)"
         % (f(d, "emu_pct"), f(d, "cpu_pct"), f(d, "run_pct")))
d = dom(web, t0)
busy = f(d, "run_pct") + f(d, "wait_pct")
if not 40 <= busy <= 60 or f(d, "emu_pct") > 5:
    fail("web: one of two vCPUs spins: RUN%%+WAIT%% %.1f (want 50 +- 10), EMU%% %.1f" % (busy, f(d, "emu_pct")))
# (busy: runnable all the time, whatever CPU share the machine's load leaves it)
if sorted(vcpus(web, t0)) != ["0", "1"] or f(vcpus(web, t0)["1"], "run_pct") + f(vcpus(web, t0)["1"], "wait_pct") < 85:
    fail("web: vCPU rows %r, vCPU 1 must be the busy one: %r" % (sorted(vcpus(web, t0)), vcpus(web, t0).get("1")))
print("ok: db's emulator EMU%% %.1f, web's vCPUs RUN%%+WAIT%% %.1f" % (f(dom(db, t0), "emu_pct"), busy))
# lifecycle
if "p" not in dom(web, t2)["state"] or "p" in dom(web, t1)["state"]:
    fail("web stopped between the 2nd and 3rd refresh: states %s" % [dom(web, t)["state"] for t in times])
if dom(db, t2) or dom(db, t3):
    fail("db was killed after the 2nd refresh but is still listed")
p1, p2 = dom("101", t0), dom("101", t1)
if not p1 or not p2 or p2["cpu_pct"] != "" or dom("101", t2)["cpu_pct"] == "":
    fail("pve101 restarted after the 1st refresh: want CPU% empty once (new process, new baseline): %r"
         % [dom("101", t)["cpu_pct"] if dom("101", t) else None for t in times])
print("ok: stopped VM paused, killed VM gone, restarted VM a new baseline")
names = {r["name"] for r in auto}
if not {"host", "web,prod", "pve101", "quiet"} <= names:
    fail("--group auto with QEMU processes running: want VM mode, names %r" % sorted(names))
if "no vCPU threads found" not in explain:
    fail("--explain does not say why the quiet VM has no RUN%")
print("ok: --group auto picks vm; --explain gives the reason")
PY

# libvirt's layout without thread names: the QEMU process in
# <scope>/libvirt/emulator, each vCPU thread in a threaded libvirt/vcpuN;
# no -name, so the name is the scope's
cgroot=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
scope="$cgroot/machine.slice/machine-qemu\\x2d9\\x2dlv\\x2dscope.scope"
made_slice=
[ -n "$cgroot" ] && [ ! -d "$cgroot/machine.slice" ] && made_slice=y
if [ -z "$cgroot" ] || ! mkdir -p "$scope/libvirt" 2>/dev/null; then
	echo "skip: libvirt layout (no writable cgroup v2 mount)"
	exit 0
fi
cgdirs+=("$scope/libvirt/vcpu0" "$scope/libvirt/vcpu1" "$scope/libvirt/emulator" "$scope/libvirt" "$scope")
[ -n "$made_slice" ] && cgdirs+=("$cgroot/machine.slice")
spawn <<W
lv XG_VCPUS=2 XG_SPIN=0 XG_UNNAMED=1 $tmp/qemu-system-x86_64 -smp 2 -m 256 >$tmp/ready.lv
W
wait_until 30 grep -q ready "$tmp/ready.lv" || fail "the libvirt-layout stand-in did not start its threads within 30 s"
lv=$(pid_of lv)
[ -n "$lv" ] || fail "the libvirt-layout stand-in did not start"
threads=($(ls /proc/"$lv"/task | sort -n))   # main, CPU 0, CPU 1, ... in creation order
for c in vcpu0 vcpu1 emulator; do mkdir -p "$scope/libvirt/$c"; echo threaded >"$scope/libvirt/$c/cgroup.type"; done 2>/dev/null
if ! echo "$lv" >"$scope/libvirt/cgroup.procs" 2>/dev/null ||
   ! echo "${threads[1]}" >"$scope/libvirt/vcpu0/cgroup.threads" 2>/dev/null ||
   ! echo "${threads[2]}" >"$scope/libvirt/vcpu1/cgroup.threads" 2>/dev/null ||
   ! echo "$lv" >"$scope/libvirt/emulator/cgroup.threads" 2>/dev/null; then
	echo "skip: libvirt layout (threaded cgroups not supported here)"
	exit 0
fi
./xgtop -b -o csv --group vm -v -n 1 -d 1 >"$tmp/lv" 2>"$tmp/err" || fail "xgtop: $(cat "$tmp/err")"
kill "$lv"
python3 - "$tmp/lv" <<'PY' || exit 1
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline="")) if r["id"] == "9"]
dom = [r for r in rows if r["vcpu"] == ""]
v = {r["vcpu"]: r for r in rows if r["vcpu"] != ""}
if not dom or dom[0]["name"] != "lv-scope" or sorted(v) != ["0", "1"]:
    sys.exit("FAIL: libvirt layout: want id 9 'lv-scope' with vCPU rows 0 and 1: %r %r" % (dom, sorted(v)))
# (spinning: runnable all the time, whatever CPU share the machine's load leaves it)
busy0 = float(v["0"]["run_pct"]) + float(v["0"]["wait_pct"])
if busy0 < 85 or float(v["1"]["cpu_pct"]) > 5:
    sys.exit("FAIL: vcpu0's thread spins (RUN%%+WAIT%% %.1f, want >= 85), vcpu1's sleeps (CPU%% %s, want <= 5)"
             % (busy0, v["1"]["cpu_pct"]))
print("ok: libvirt's vcpuN cgroups give the vCPUs of a QEMU without thread names; the scope its name and id")
PY
