#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# CMT/MBM and guest-reported counters, run inside the lab's dom0 by
# dom0-tests.sh (same boot). Leaves NAME.out/.err/.rc in OUTDIR for
# check_cmt.py. Usage: cmt-agent-dom0.sh OUTDIR
OUT=${1:?outdir}
CON=/var/log/xen/console
XGTOP=/usr/local/bin/xgtop
. /usr/local/bin/dom0-lib.sh
[ -x $XGTOP ] || exit 0

# 1. This Xen was booted without psr=cmt (and TCG has no RDT): the CMT
#    columns say why, and --cmt-attach refuses with the reason.
run cmt-hwinfo 20 xl psr-hwinfo --cmt
run cmt-cmdline 20 sh -c "xl info | grep xen_commandline"
run cmt-attach 30 $XGTOP --source xen --cmt-attach -b -n 1 -d 0.5 -o json
run cmt-show 20 xl psr-cmt-show cache-occupancy
note "CMT"

# 2. xg-new (created by the lifecycle step) runs the agent; dom0 reads it.
G=xg-new
id=$(xl domid $G 2>/dev/null)
echo "$id" > "$OUT/agent-domid.out"
# Ready once the long-running agent has written its counters (the guest
# may still be booting under emulation: at most 240 s).
up() { cut -d. -f1 /proc/uptime; }
t0=$(up)
while [ -n "$id" ] && [ $(($(up) - t0)) -lt 240 ] &&
	! xenstore-read "/local/domain/$id/data/xgtop/llc_miss" > /dev/null 2>&1; do
	sleep 0.25
done
note "AGENT_UP $G after $(($(up) - t0)) s"
# Not up: the guest's own lines (not the kernel's) on the console, so a
# CI log says why.
xenstore-read "/local/domain/$id/data/xgtop/llc_miss" > /dev/null 2>&1 ||
	grep -v '^\[' "$CON/guest-$G.log" 2>/dev/null | tail -n 20 | sed 's/^/XGLAB-GUEST: /' > /dev/console
xenstore-ls "/local/domain/$id/data/xgtop" > "$OUT/agent-ls1.out" 2>&1
run agent-json 40 $XGTOP --source xen -b -n 3 -d 1 -o json
xenstore-ls "/local/domain/$id/data/xgtop" > "$OUT/agent-ls2.out" 2>&1
# A guest is untrusted: garbage in its directory shows a reason, never a
# number; an agent that stops writing goes stale. Paused, the agent cannot
# rewrite its keys meanwhile.
xl pause $G
ref=$(xenstore-read "/local/domain/$id/data/xgtop/llc_ref")
xenstore-write "/local/domain/$id/data/xgtop/llc_ref" 1e9
run agent-bad 20 $XGTOP --source xen -b -n 1 -d 0.2 -o json
xenstore-write "/local/domain/$id/data/xgtop/llc_ref" "$ref"
run agent-stale 20 $XGTOP --source xen -b -n 5 -d 1 -o json
xl unpause $G
# Done with the agent: ask it to stop, so xg-new is an idle guest again for
# the scheduler checks; wait until it has removed its directory.
xenstore-write "/local/domain/$id/data/xgtop/stop" 1
t0=$(up)
while [ $(($(up) - t0)) -lt 60 ] &&
	xenstore-read "/local/domain/$id/data/xgtop/stop" > /dev/null 2>&1; do
	sleep 0.25
done
note "AGENT_STOPPED $G after $(($(up) - t0)) s"
sleep 2
cp "$CON/guest-$G.log" "$OUT/agent-console.log" 2>/dev/null
note "AGENT"
