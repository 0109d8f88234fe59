#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make test-xen: boots Xen 4.17 + a PV dom0 under QEMU (TCG), starts PV
# guests there and checks xgtop's Xen source against xentop and the guests'
# own counters. Installs its Debian packages when run as root. Everything
# large goes under $XGLAB_WORK (/var/tmp/xgtop-xenlab).
# The last line is "N passed, N failed"; exit 0 only when all passed. A lab
# that does not boot is a failure, never a skip.
# Env: XGLAB_WORK, XGLAB_TIMEOUT (s, 900: a run emulates for 500-520 s on an
#      idle 2-core machine), XGLAB_MEM (MiB, 3072), XGLAB_SMP (2),
#      XGLAB_XGTOP (test this xgtop binary instead of building ./xgtop),
#      XGLAB_CPU (QEMU CPU model, Westmere,+rdrand)
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
. "$HERE/lib.sh"
T_ALL=$(date +%s)
fail_early() { echo "FAIL $1"; echo "0 passed, 1 failed"; exit 1; }

# Build dependencies first (a fresh clone run as root), then the lab's own.
if [ "$(id -u)" = 0 ]; then
	"$REPO/contrib/install-deps.sh" >&2 || fail_early "build-deps (contrib/install-deps.sh failed)"
fi
"$HERE/setup.sh" || fail_early "lab-setup (could not install or unpack the lab's packages)"

# The binaries under test. A tree built before libxen-dev was installed has
# no Xen source in it: rebuild from scratch then.
make -s -C "$REPO" tools >&2 || fail_early "build-tools"
if "$REPO/build/tools/xgtop-xen-dump" -n 0 2>&1 | grep -q 'built without'; then
	xglab_log "binaries were built without the Xen libraries; rebuilding"
	make -s -C "$REPO" clean >&2
	make -s -C "$REPO" tools >&2 || fail_early "build-tools"
fi
XGTOP=${XGLAB_XGTOP:-$REPO/xgtop}
if [ -z "${XGLAB_XGTOP:-}" ]; then
	make -s -C "$REPO" xgtop >&2 || xglab_log "xgtop does not build; only the source probe is checked"
fi
BINS="$REPO/build/tools/xgtop-xen-dump $REPO/build/tools/xg-runas"
if [ -x "$XGTOP" ]; then
	# dom0 runs it as /usr/local/bin/xgtop, whatever its name here.
	mkdir -p "$XGLAB_WORK/bin"
	cp "$XGTOP" "$XGLAB_WORK/bin/xgtop"
	BINS="$BINS $XGLAB_WORK/bin/xgtop"
fi
"$HERE/mkinitrd.sh" $BINS || fail_early "lab-initrd"

KVER=$(xglab_kver)
SERIAL=$XGLAB_WORK/serial.log
OUTIMG=$XGLAB_WORK/results.img
PIDF=$XGLAB_WORK/qemu.pid
RES=$XGLAB_WORK/results
TMO=${XGLAB_TIMEOUT:-900}
rm -f "$OUTIMG" "$PIDF"
truncate -s 64M "$OUTIMG"
# CPU model: with -cpu max, Xen's PV dom0 faults at once under TCG when SMAP
# is exposed, and (QEMU 7.2) processes in dom0 crash at random once several
# domains share the CPUs (a bad FS base in TLS accesses), also without AVX or
# FSGSBASE. Westmere has none of that; RDRAND spares every kernel a long
# jitter-entropy wait at boot (guests boot 2-3x faster).
# -nic none: no packet leaves the emulated machine.
XEN_ARGS="console=com1 com1=115200,8n1 loglvl=all guest_loglvl=all dom0_mem=1024M,max:1024M dom0_max_vcpus=2"
xglab_log "booting Xen under QEMU TCG (limit ${TMO}s), console in $SERIAL"
T_BOOT=$(date +%s)
qemu-system-x86_64 -accel tcg -cpu "${XGLAB_CPU:-Westmere,+rdrand}" -m "${XGLAB_MEM:-3072}" -smp "${XGLAB_SMP:-2}" \
	-nographic -no-reboot -monitor none -serial stdio -nic none -pidfile "$PIDF" \
	-drive file="$OUTIMG",format=raw,if=virtio \
	-kernel "$XGLAB_WORK/xen.elf" -append "$XEN_ARGS" \
	-initrd "$XGLAB_KROOT/boot/vmlinuz-$KVER console=hvc0 earlyprintk=xen rdinit=/init loglevel=4,$XGLAB_WORK/dom0-initrd.gz" \
	< /dev/null 2>&1 |
	while IFS= read -r line; do printf '%(%s)T %s\n' -1 "${line//$'\r'/}"; done > "$SERIAL" &
QPIPE=$!
why=""
while kill -0 $QPIPE 2>/dev/null; do
	sleep 1
	el=$(( $(date +%s) - T_BOOT ))
	[ -n "$why" ] && continue
	if [ $el -ge "$TMO" ]; then why="no power-off after ${TMO}s"
	elif grep -aqE 'Hardware Dom0 crashed|Panic on CPU|Kernel panic' "$SERIAL"; then why="crash"
	elif grep -aq 'XGLAB: DONE' "$SERIAL"; then
		done_at=${done_at:-$el}
		[ $((el - done_at)) -ge 30 ] && why="no power-off 30s after DONE"
	fi
	if [ -n "$why" ]; then
		sleep 2
		[ -s "$PIDF" ] && kill "$(cat "$PIDF")" 2>/dev/null
	fi
done
wait $QPIPE
T_QEMU=$(( $(date +%s) - T_BOOT ))
[ -n "$why" ] && xglab_log "QEMU stopped: $why"
xglab_log "QEMU ran ${T_QEMU}s"

rm -rf "$RES"
mkdir -p "$RES"
tar -C "$RES" -xf "$OUTIMG" 2>/dev/null || xglab_log "no results tar on the output disk"
python3 "$HERE/check.py" "$RES/xglab-out" "$SERIAL" "${why:-}" | tee "$RES/check.txt"
rc=${PIPESTATUS[0]}
# The scheduler checks; they print the total over both ("N passed, N failed").
python3 "$HERE/check_sched.py" "$RES/xglab-out" "$RES/check.txt" "$REPO" || rc=1
xglab_log "results in $RES/xglab-out; total $(( $(date +%s) - T_ALL ))s (QEMU ${T_QEMU}s)"
exit $rc
