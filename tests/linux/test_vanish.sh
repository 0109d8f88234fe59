#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# /proc entries vanishing mid-read: xg-vanish runs xgtop under ptrace and
# makes a victim process die (or one of its threads end) exactly as xgtop
# opens or reads that victim's files: after /proc was listed, between the
# stat and task/ reads, between listing task/ and reading a thread's
# schedstat, with the file open and not yet read. xgtop keeps a process's
# files open from the refresh that first sees it and then reads them with
# pread(), a sleeping process's threads and statm only: so the opens are met
# in the first refresh (@1), the reads of a kept file in the second (its
# threads' schedstat, opened and read in the first, read a third time there;
# its statm), and the check that a statm opened by path belongs to the
# process (a second read of its stat, @2). xgtop must go on: exit 0, no
# message, every figure in range, and the victims' rows gone once they are.
. "$(dirname "$0")/common.sh"
V=build/tools/xg-vanish
[ -x $V ] || fail "$V is not built (make tools)"
ncpu=$(nproc)

run_vanish() {  # OUT SPECS... -- XGTOP-ARGS...
	local out=$1
	shift
	local specs=()
	while [ "$1" != -- ]; do specs+=("$1"); shift; done
	shift
	# (LeakSanitizer cannot work under ptrace: in make SANITIZE=1 check the
	# traced xgtop keeps AddressSanitizer and UBSan only.)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		$V "${specs[@]}" -- ./xgtop -b -o csv --source linux --nocache -n 3 -d 0.3 "$@" \
		>"$out" 2>"$tmp/vanish.err"
	local rc=$?
	[ $rc = 77 ] && skip "$(tail -n 1 "$tmp/vanish.err")"
	grep -q 'ptrace: Operation not permitted' "$tmp/vanish.err" &&
		skip "ptrace is not allowed here: $(tail -n 1 "$tmp/vanish.err")"
	[ $rc = 0 ] || fail "exit $rc: $(cat "$tmp/vanish.err")"
	grep -v '^xg-vanish:' "$tmp/vanish.err" | grep . && fail "xgtop said something (above)"
	echo "$(grep '^xg-vanish:' "$tmp/vanish.err") with xgtop $*"
	python3 - "$out" "$ncpu" <<'PY' || exit 1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
ncpu = int(sys.argv[2])
times = sorted({r["time"] for r in rows})
if len(times) != 3:
    sys.exit("FAIL: %d iterations, want 3" % len(times))
limits = {"cpu_pct": 100.0 * ncpu * 1.5, "run_pct": 100.5, "wait_pct": 100.5, "blk_pct": 100.5,
          "off_pct": 100.5, "cpu_s": 1e9, "vcpus": 1e6, "mem_pct": 100.5}
bad = []
for r in rows:
    for k, lim in limits.items():
        v = r.get(k, "")
        if v == "":
            continue
        x = float(v)
        if not (0 <= x <= lim):
            bad.append("%s %s %s=%s" % (r["time"], r["name"], k, v))
if bad:
    sys.exit("FAIL: out of range: %s" % bad[:5])
print("ok: %d rows over %d iterations, every figure in range" % (len(rows), len(times)))
PY
}

# Process mode with per-thread rows: the stat, io, task/ and thread files.
run_vanish "$tmp/proc.csv" open:stat@1 open:task@1 open:io@1 open:statm@1 read:stat@2 read:io@1 \
	read:statm@2 thread:schedstat@1 thread:schedstat@3 -- --group process -v
# Cgroup mode reads each process's cgroup file too (at its first refresh:
# later ones take it from the cgroups' cgroup.procs).
run_vanish "$tmp/cg.csv" open:cgroup@1 open:stat@1 read:statm@2 thread:schedstat@3 -- --group cgroup
echo "ok: processes and threads vanishing mid-read leave xgtop running with sane figures"
