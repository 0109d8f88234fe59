#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the Linux-source script tests: real processes in a session of
# their own, the real ./xgtop in batch CSV mode, and cleanup by pid.
cd "$(dirname "$0")/../.." || exit 2
. tests/wait.sh
tmp=$(mktemp -d /tmp/xgtop-linux-test.XXXXXX) || exit 2
pids=()
cgdirs=()

cleanup() {
	local p d
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	# workers first (their pids are in $tmp/pids), then the leader
	if [ -s "$tmp/pids" ]; then
		while read -r _ p; do kill "$p" 2>/dev/null; done <"$tmp/pids"
	fi
	# (a cgroup can go once the killed workers have left it)
	for d in "${cgdirs[@]}"; do
		[ -d "$d" ] && wait_until 10 rmdir "$d" 2>/dev/null
	done
	rm -rf "$tmp" /var/tmp/xgtop-linux-test.$$.*
}
trap cleanup EXIT

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

[ -x ./xgtop ] || fail "./xgtop is not built (run make)"
command -v python3 >/dev/null || skip "python3 is not installed"
command -v setsid >/dev/null || skip "setsid (util-linux) is not installed"

# A CPU we may run on (the first of our affinity list), for taskset.
first_cpu() {
	local list
	list=$(taskset -pc $$ 2>/dev/null | sed 's/.*: //')
	echo "${list%%[,-]*}"
}

# Starts the workers given as "name command" lines on stdin, each as a
# child of one setsid'd leader, so that in process mode every worker is a
# domain of its own (a child of a session leader below init starts a
# group). Writes "name pid" lines to $tmp/pids and waits until all are up.
spawn() {
	local script=$tmp/leader.sh n=0 name cmd
	echo 'cd /' >"$script"
	while read -r name cmd; do
		[ -z "$name" ] && continue
		printf '%s &\necho "%s $!" >>%s\n' "$cmd" "$name" "$tmp/pids" >>"$script"
		n=$((n + 1))
	done
	echo 'wait' >>"$script"
	setsid -w bash "$script" </dev/null >/dev/null 2>&1 &
	pids+=($!)
	wait_until 30 lines_at_least "$tmp/pids" "$n" || fail "workers did not start: $(wc -l <"$tmp/pids" 2>/dev/null) of $n within 30 s"
}

pid_of() { awk -v n="$1" '$1 == n { print $2 }' "$tmp/pids"; }

# A test slice below the cgroup2 root with one child cgroup per worker:
# test_slice PREFIX WORKER... sets root and slice (PREFIX-PID.slice) and
# lists the new cgroups in cgdirs for cleanup; it skips where cgroup v2 is
# not mounted or not writable.
test_slice() {
	local prefix=$1 w
	shift
	root=$(awk '$9 == "cgroup2" && $4 == "/" { print $5; exit }' /proc/self/mountinfo)
	[ -n "$root" ] || skip "no cgroup v2 hierarchy is mounted"
	slice=$prefix-$$.slice
	mkdir "$root/$slice" 2>/dev/null || skip "cannot create a cgroup in $root (need root and a writable cgroup2 mount)"
	for w; do cgdirs+=("$root/$slice/$w"); done
	cgdirs+=("$root/$slice")
	for w; do mkdir "$root/$slice/$w" || fail "mkdir $root/$slice/$w"; done
}
# in_cgroup WORKER: the worker (spawn) is in its cgroup of the test slice.
in_cgroup() { grep -qx "$(pid_of "$1")" "$root/$slice/$1/cgroup.procs"; }

# Conditions to wait for (wait_until, tests/wait.sh):
# lines_at_least FILE N: FILE has N lines or more.
lines_at_least() { [ -s "$1" ] && [ "$(wc -l <"$1")" -ge "$2" ]; }
# is_comm PID NAME: the process runs NAME (it has exec'd it).
is_comm() { [ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ]; }
# nthreads PID: how many threads the process has.
nthreads() { ls "/proc/$1/task" 2>/dev/null | wc -l; }
has_threads() { [ "$(nthreads "$1")" -ge "$2" ]; }
# printed FILE: how many iterations xgtop's CSV output FILE holds so far
# (batch mode writes and flushes each one whole).
printed() { tail -n +2 "$1" 2>/dev/null | cut -d, -f1 | sort -u | wc -l; }
printed_at_least() { [ "$(printed "$1")" -ge "$2" ]; }

# Runs xgtop in batch CSV mode: xg_csv OUT [options...]
xg_csv() {
	local out=$1
	shift
	./xgtop -b -o csv --source linux "$@" >"$out" 2>"$tmp/xgtop.err" ||
		fail "xgtop $*: exit $?: $(cat "$tmp/xgtop.err")"
}

# Runs the Python checks on stdin against an xgtop CSV file, with helpers:
#   mean(ident, key)  the mean of a column over one domain's rows (not vCPU
#                     rows), skipping the first printed iteration if more
#   expect(label, value, op, limit)  op in "<=", ">=": prints ok or fails
#   ARGS              the extra arguments
# check_csv FILE [ARG...] <<'PY' ... PY   (one interpreter start per test)
check_csv() {
	local f=$1
	shift
	python3 -c '
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
ARGS = sys.argv[2:]
def mean(ident, key):
    vals = [float(r[key]) for r in rows if r["id"] == str(ident) and r.get("vcpu", "") == "" and r[key] != ""]
    if not vals:
        sys.exit("FAIL: domain %s has no %s in the output (ids: %s)" % (ident, key, " ".join(sorted({r["id"] for r in rows}))))
    vals = vals[1:] if len(vals) > 1 else vals
    return sum(vals) / len(vals)
def expect(label, v, op, lim):
    ok = v <= lim if op == "<=" else v >= lim
    if not ok or math.isnan(v):
        sys.exit("FAIL: %s = %.3f, want %s %s" % (label, v, op, lim))
    print("ok: %s = %.3f (%s %s)" % (label, v, op, lim))
exec(sys.stdin.read())
' "$f" "$@"
}
