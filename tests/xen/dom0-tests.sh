#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs inside the lab's dom0 (as root): starts the guests and runs xgtop,
# the source probe and xentop side by side. Every command leaves NAME.out,
# NAME.err and NAME.rc in the results directory; the host judges them
# (check.py). Usage: dom0-tests.sh OUTDIR
OUT=${1:?outdir}
CON=/var/log/xen/console
. /usr/local/bin/dom0-lib.sh

# create NAME: xl create returns once the domain is built; the guest then
# boots on its own.
create() {
	run "create-$1" 120 xl -vvv create "/etc/xen/guest-$1.cfg"
	if [ "$(cat "$OUT/create-$1.rc")" != 0 ]; then
		# Emulation hiccups happen; one more try before calling it failed.
		note "CREATE_RETRY $1"
		mv "$OUT/create-$1.err" "$OUT/create-$1-try1.err"
		xl destroy "xg-$1" > /dev/null 2>&1
		run "create-$1" 120 xl -vvv create "/etc/xen/guest-$1.cfg"
	fi
}
# ready NAME: waits for the guest's "ready" line.
ready() {
	if [ "$(cat "$OUT/create-$1.rc")" = 0 ] && wait_guest "xg-$1" 'XGGUEST: ready' 90; then
		note "GUEST_UP $1"
	else
		note "GUEST_FAIL $1 rc=$(cat "$OUT/create-$1.rc")"
		# xl -vvv's own lines first (its debug lines bury them), then the end.
		grep -v ': debug: ' "$OUT/create-$1.err" | head -n 40 > /dev/console
		[ -f "$OUT/create-$1-try1.err" ] && grep -v ': debug: ' "$OUT/create-$1-try1.err" | head -n 20 > /dev/console
		tail -n 10 "$OUT/create-$1.err" > /dev/console
		tail -n 20 "$CON/guest-xg-$1.log" > /dev/console 2>/dev/null
	fi
}

XGTOP=/usr/local/bin/xgtop
# XGLAB_SUITE=dom0 (run.sh puts xgsuite=dom0 on dom0's command line): the
# dom0 suite only, for a second Xen version in CI: the guests' side by side
# with xentop, the extra scripts, the error lines and the scheduler checks.
# Left out: the cost measurement (its paused domains), the lifecycle, the
# guest agent and the hostile-guest checks, which the full lab runs.
SUITE=$(sed -n 's/.*xgsuite=\([a-z0-9]*\).*/\1/p' /proc/cmdline)
full() { [ "$SUITE" != dom0 ]; }
DUMP=/usr/local/bin/xgtop-xen-dump
# The portable build's binary (mkinitrd.sh, XGLAB_PORTABLE_BIN), when the
# lab was given one: the same side-by-side check with it.
PORT=/usr/local/bin/xgtop-portable
[ -x $XGTOP ] || { note "NO_XGTOP"; echo missing > "$OUT/xgtop-missing"; }

run xl-info 30 xl info

# 1. Both guests boot at once. The I/O guest does its burst, prints its
#    own counters and keeps quiet while dom0 reads the same counters from
#    the backends.
create io
create busy
ready io
run io-xentop 30 xentop -b -i 1 -n -x
run io-dump 30 $DUMP -n 1
[ -x $XGTOP ] && run io-xgtop 30 $XGTOP --source xen -b -n 1 -d 0.5 -o csv
[ -x $XGTOP ] && run io-xgtop-xt 30 $XGTOP --source xen -b -n 1 -d 0.5 -o xentop
note "IO_SNAPSHOT"
ready busy
sleep 2
run xl-list 30 xl list
run vcpu-dump 30 $DUMP -n 1 -v

# Extra dom0 scripts (mkinitrd.sh) with both guests up: this Xen's own
# (xglab_dom0_extra), then the caller's XENLAB_DOM0_HOOK. Each leaves
# NAME.out/.err/.rc like every command here, and may put files in
# $XGLAB_EXTRA_DIR; run.sh copies their output into the lab's log.
extra() {
	note "EXTRA_BEGIN $1"
	XGLAB_EXTRA_DIR=$OUT/$1.d
	export XGLAB_EXTRA_DIR
	mkdir -p "$XGLAB_EXTRA_DIR"
	run "$1" 900 "$2"
	note "EXTRA_END $1 rc=$(cat "$OUT/$1.rc")"
}
for f in /usr/local/lib/xglab-extra/*; do
	[ -x "$f" ] && extra "extra-$(basename "$f" .sh)" "$f"
done
[ -x /usr/local/bin/xglab-hook ] && extra hook /usr/local/bin/xglab-hook

# 2. Side by side: the same moments through xentop, xgtop and the probe,
#    with the guests paused so their CPU time holds still while the three
#    start (under emulation they start seconds apart).
xl pause xg-busy
xl pause xg-io
bg sbs-xentop 60 xentop -b -i 2 -d 1
[ -x $XGTOP ] && bg sbs-xgtop 60 $XGTOP --source xen -b -n 1 -d 1 -o xentop --sort name
[ -x $PORT ] && bg sbs-portable 60 $PORT --source xen -b -n 1 -d 1 -o xentop --sort name
bg sbs-dump 60 $DUMP -n 2 -d 1
wait
xl unpause xg-busy
xl unpause xg-io
note "SIDE_BY_SIDE"
[ -x $PORT ] && run portable-version 30 $PORT --version
if [ -x $XGTOP ]; then
	run sbs-csv 60 $XGTOP --source xen -b -n 1 -d 2 -o csv
	run sort-cpu 60 $XGTOP --source xen -b -n 1 -d 2 --sort cpu -o xentop
	run sort-cpu-text 60 $XGTOP --source xen -b -n 1 -d 2 --sort cpu
	run nonet 60 $XGTOP --source xen -b -n 1 -d 0.5 --nonet --nodisk -o csv
fi

# 3. Cost: 30 refreshes through xentop and through xgtop (xentop's columns,
#    printed as xentop prints them), in halves ordered xentop, xgtop, xgtop,
#    xentop so a drifting host load weighs on both alike; the guests are
#    paused so the hypervisor does not take the CPU from dom0 in between.
#    bash's `time` reports each command's own CPU. xgtop runs with
#    --notrace --nocache: xentop has neither the scheduler columns (which
#    turn hypervisor tracing on) nor the cache columns, so only the same
#    columns are compared. With XGLAB_COST_GUESTS more domains (8; at most
#    what the lab's memory holds), each with a vif and every other one with
#    a disk too: created paused (never run), they go again after the
#    measurement. A create takes 12 s, 25 s with a disk, under emulation on
#    2 cores, and longer the more domains there are: 16 of them took 380 s,
#    more than the rest of the lab, for the same ratio (0.21 with 16).
if full; then
	cost_guests() {
		free=$(xl info | sed -n 's/^free_memory *: *//p')
		many=$(( (${free:-0} - 32) / 98 ))   # not $n: run() sets n and t
		most=$(sed -n 's/.*xgcost=\([0-9]*\).*/\1/p' /proc/cmdline)
		[ $many -gt "${most:-8}" ] && many=${most:-8}
		i=1
		while [ $i -le $many ]; do
			disk=""
			if [ $((i % 2)) = 0 ]; then
				dd if=/dev/zero of=/var/lib/xglab/cost$i.img bs=64k count=16 2>/dev/null
				disk="disk=['format=raw,vdev=xvda,access=rw,target=/var/lib/xglab/cost$i.img']"
			fi
			run "create-cost$i" 60 xl create -p /etc/xen/guest-cost.cfg "name=\"xg-cost$i\"" \
				"vif=['bridge=xenbr0,mac=00:16:3e:00:79:$(printf %02x $i)']" $disk
			i=$((i + 1))
		done
	}
	cost_guests
	note "COST_GUESTS $(xl list | grep -c "^xg-cost")"
	TIMEFORMAT='%3U %3S'
	export TIMEFORMAT
	xl pause xg-busy
	xl pause xg-io
	xl list > "$OUT/cost-domains.out" 2>&1
	bash -c "time xentop -b -i 15 -d 0 > /dev/null" 2> "$OUT/speed-xentop-1.out"
	[ -x $XGTOP ] && bash -c "time $XGTOP --source xen --notrace --nocache -b -n 15 -d 0.05 -o xentop > /dev/null" \
		2> "$OUT/speed-xgtop-1.out"
	[ -x $XGTOP ] && bash -c "time $XGTOP --source xen --notrace --nocache -b -n 15 -d 0.05 -o xentop > /dev/null" \
		2> "$OUT/speed-xgtop-2.out"
	bash -c "time xentop -b -i 15 -d 0 > /dev/null" 2> "$OUT/speed-xentop-2.out"
	# What starting costs, apart from the refreshes: ten starts of xgtop alone,
	# five runs of one refresh each.
	if [ -x $XGTOP ]; then
		bash -c "time (for i in 1 2 3 4 5 6 7 8 9 10; do $XGTOP --version; done > /dev/null)" \
			2> "$OUT/speed-xgtop-start.out"
		bash -c "time (for i in 1 2 3 4 5; do $XGTOP --source xen --notrace --nocache -b -n 1 -d 0.05 -o xentop; done > /dev/null)" \
			2> "$OUT/speed-xgtop-one.out"
fi
bash -c "time (for i in 1 2 3 4 5; do xentop -b -i 1 -d 0; done > /dev/null)" 2> "$OUT/speed-xentop-one.out"
# The portable build's binary against this Debian build, in turns (ABBA):
# 15 refreshes each, and ten starts each (--version).
if [ -x $XGTOP ] && [ -x $PORT ]; then
	for k in deb-1 port-1 port-2 deb-2; do
		b=$XGTOP; [ "${k%-*}" = port ] && b=$PORT
		bash -c "time $b --source xen --notrace --nocache -b -n 15 -d 0.05 -o xentop > /dev/null" \
			2> "$OUT/speed-$k.out"
		bash -c "time (for i in 1 2 3 4 5 6 7 8 9 10; do $b --version; done > /dev/null)" \
			2> "$OUT/speed-$k-start.out"
	done
fi
xl unpause xg-busy
xl unpause xg-io
run cost-dump 60 $DUMP -n 30 -d 0 -t
for d in $(xl list | awk '$1 ~ /^xg-cost/ {print $1}'); do
	xl destroy "$d"
done
note "SPEED"
fi

# 4. Clear errors where xgtop cannot work.
for p in $XGTOP $DUMP; do
	[ -x $p ] || continue
	b=$(basename $p)
	args=""
	[ $p = $XGTOP ] && args="--source xen -b -n 1"
	run "err-nonroot-$b" 30 xg-runas 65534 $p $args
	# privcmd gone from both places libxencall looks (/dev/xen and xenfs)
	run "err-noprivcmd-$b" 30 unshare -m sh -c "mount -t tmpfs none /dev/xen &&
		cp /proc/xen/capabilities /tmp/caps && mount -t tmpfs none /proc/xen &&
		cp /tmp/caps /proc/xen/capabilities && exec $p $args"
	run "err-domu-$b" 30 unshare -m sh -c \
		"printf '' > /tmp/nocaps && mount --bind /tmp/nocaps /proc/xen/capabilities && exec $p $args"
	run "err-noxenfs-$b" 30 unshare -m sh -c "umount -l /proc/xen && exec $p $args"
done
note "ERRORS"

# 5. Lifecycle: a domain destroyed and another created under a running xgtop.
if full; then
	[ -x $XGTOP ] && bg life-csv 90 $XGTOP --source xen -b -n 24 -d 0.5 -o csv
	[ -x $XGTOP ] && bg life-xentop 90 $XGTOP --source xen -b -n 24 -d 0.5 -o xentop
	bg life-dump 90 $DUMP -n 24 -d 0.5
	sleep 2
	run destroy-busy 60 xl destroy xg-busy
	note "DESTROYED"
	run create-new 120 xl create /etc/xen/guest-new.cfg
	note "CREATED"
	wait
	run xl-list-end 30 xl list
	run xentop-end 30 xentop -b -i 1
	note "LIFECYCLE"

	# 6. CMT/MBM (unsupported here) and guest-reported counters (xgtop --agent).
	sh /usr/local/bin/cmt-agent-dom0.sh "$OUT"

	# 7. A hostile guest, xenstored stopped and resumed, signals to the
	#    full-screen view and the daemon (dom0-trust.sh; xg-new idle again
	#    afterwards).
	/bin/sh /usr/local/bin/dom0-trust.sh "$OUT" > "$OUT/dom0-trust.log" 2>&1
else
	# The busy guest would spin beside the scheduler checks' spinners (the
	# lifecycle destroys it in the full suite), whose idle guest the
	# lifecycle creates: here without the guest agent (the plain initrd).
	run destroy-busy 60 xl destroy xg-busy
	run create-new 120 xl create /etc/xen/guest-new.cfg 'ramdisk="/boot/guest-initrd.gz"'
	ready new
fi

# 8. Scheduler time from the live trace buffers (same boot).
/bin/sh /usr/local/bin/dom0-sched.sh "$OUT" > "$OUT/dom0-sched.log" 2>&1
