#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make test-xen: boots Xen 4.17 + a PV dom0 under QEMU (TCG), starts PV
# guests there and checks xgtop's Xen source against xentop and the guests'
# own counters. Installs its Debian packages when run as root. Everything
# large goes under $XGLAB_WORK (/var/tmp/xgtop-xenlab).
# make test-xen XEN=4.20 (XGLAB_XEN=4.20): the same with Xen 4.20 and a
# Debian 13 dom0, from a trixie root (trixie-root.sh) in which xgtop is
# built and dom0's initrd is made (/var/tmp/xgtop-xenlab-4.20).
# The last line is "N passed, N failed"; exit 0 only when all passed. A lab
# that does not boot is a failure, never a skip.
# Env: XGLAB_WORK, XGLAB_TIMEOUT (s, 1500: the run is emulated for about
#      10 min on an idle 2-core machine, 16 min with two builds beside it),
#      XGLAB_MEM (MiB, 3072), XGLAB_SMP (2),
#      XGLAB_XGTOP (test this xgtop binary instead of building ./xgtop),
#      XGLAB_CPU (QEMU CPU model, Westmere,+rdrand),
#      XENLAB_DOM0_HOOK (a script run as root in dom0 once the guests are
#      up, with xgtop, xentop, xl and xenstore-* on the PATH; its output
#      goes into this log and its exit status and "XGLAB-CHECK PASS|FAIL
#      NAME" lines are checks), XGLAB_PORTABLE (4.17 lab: auto|build|no,
#      the portable build's binary in dom0 too, see below), XGLAB_TRACE=1
#      (dom0 prints each command of its suite on the console),
#      XGLAB_COST_GUESTS (8: paused domains added for the cost measurement),
#      XGLAB_SUITE (full: every check; dom0: the dom0 suite only, for a
#      second Xen in CI: the guests side by side with xentop, the extra
#      scripts, the error lines and the scheduler checks, without the cost
#      measurement, lifecycle, guest agent and hostile guest),
#      XGLAB_DEB (4.20 lab: 1, the Debian 13 package built, linted,
#      installed and purged in the trixie root first: deb-trixie.sh; 0: not)
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
. "$HERE/lib.sh"
XGLAB_SUITE=${XGLAB_SUITE:-full}
case $XGLAB_SUITE in full|dom0) ;; *) echo "xen-lab: XGLAB_SUITE is full or dom0, not $XGLAB_SUITE" >&2; exit 2 ;; esac
export XGLAB_XEN XGLAB_WORK XGLAB_SUITE
rm -f "$XGLAB_WORK"/deb-trixie.*
T_ALL=$(date +%s)
fail_early() { echo "FAIL $1"; echo "0 passed, 1 failed"; exit 1; }

# Build dependencies first (a fresh clone run as root), then the lab's own.
if [ "$(id -u)" = 0 ]; then
	"$REPO/contrib/install-deps.sh" >&2 || fail_early "build-deps (contrib/install-deps.sh failed)"
fi
"$HERE/setup.sh" || fail_early "lab-setup (could not install or unpack the lab's packages)"

# The host's binaries: the 4.17 lab's binaries under test; `xgtop trace`
# for the judges (check_sched.py) in both labs. A tree built before
# libxen-dev was installed has no Xen source in it: rebuild from scratch then.
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
HOOK=""
if [ -n "${XENLAB_DOM0_HOOK:-}" ]; then
	[ -f "$XENLAB_DOM0_HOOK" ] || fail_early "dom0-hook (XENLAB_DOM0_HOOK=$XENLAB_DOM0_HOOK is no file)"
	HOOK=$XGLAB_WORK/dom0-hook
	cp "$XENLAB_DOM0_HOOK" "$HOOK"
	export XGLAB_WITH_HOOK=1
fi

if [ "$XGLAB_XEN" = 4.17 ]; then
	LAB=$XGLAB_WORK
	BINS="$REPO/build/tools/xgtop-xen-dump $REPO/build/tools/xg-runas"
	if [ -x "$XGTOP" ]; then
		# dom0 runs it as /usr/local/bin/xgtop, whatever its name here.
		mkdir -p "$XGLAB_WORK/bin"
		cp "$XGTOP" "$XGLAB_WORK/bin/xgtop"
		BINS="$BINS $XGLAB_WORK/bin/xgtop"
	fi
	# The portable build's binary runs the side-by-side check too: the
	# tarball of `make portable` when it is there (XGLAB_PORTABLE=auto),
	# built first when only its cached toolchain is (=build), or none (=no).
	PORT_BIN=""
	PORT=${XGLAB_PORTABLE:-auto}
	tarball() { ls -t "$REPO"/build/portable/xgtop-*-linux-x86_64.tar.gz 2>/dev/null | head -n1; }
	if [ "$PORT" = build ] || { [ "$PORT" = auto ] && [ -z "$(tarball)" ] &&
		ls -d "${XGTOP_PORTABLE_CACHE:-/var/tmp/xgtop-portable}"/toolchain-* >/dev/null 2>&1; }; then
		make -s -C "$REPO" portable >&2 || xglab_log "make portable failed: the lab runs without the portable binary"
	fi
	if [ "$PORT" != no ] && [ -n "$(tarball)" ]; then
		rm -rf "$XGLAB_WORK/portable"
		mkdir -p "$XGLAB_WORK/portable"
		tar -C "$XGLAB_WORK/portable" --strip-components=1 -xzf "$(tarball)"
		PORT_BIN=$XGLAB_WORK/portable/bin/xgtop
		export XGLAB_WITH_PORTABLE=1
		xglab_log "portable binary from $(tarball)"
	fi
	XENLAB_DOM0_HOOK=$HOOK XGLAB_PORTABLE_BIN=$PORT_BIN "$HERE/mkinitrd.sh" $BINS || fail_early "lab-initrd"
else
	# Xen 4.20: everything dom0 holds comes from the Debian 13 root, and
	# xgtop is built there, against Xen 4.20's headers and libraries. The
	# root sees $XGLAB_WORK at the same path (trixie-root.sh).
	"$HERE/trixie-root.sh" || fail_early "lab-setup (the trixie root)"
	LAB=$XGLAB_WORK/lab
	SRC=$XGLAB_WORK/src
	mkdir -p "$SRC" "$LAB"
	# The tree as it is (committed or not); the root's build/ stays, so an
	# unchanged tree is not rebuilt.
	rsync -a --delete --exclude=/.git --exclude=/build --exclude=/xgtop "$REPO/" "$SRC/" ||
		fail_early "lab-setup (copying the tree into the trixie root)"
	inroot() { "$HERE/trixie-root.sh" run env XGLAB_XEN=4.20 XGLAB_WORK="$LAB" CI="${CI:-}" "$@"; }
	T_B=$(date +%s)
	inroot make -s -C "$SRC" -j2 tools >&2 || fail_early "build-tools (in the trixie root)"
	DBINS="$SRC/build/tools/xgtop-xen-dump $SRC/build/tools/xg-runas"
	if [ -n "${XGLAB_XGTOP:-}" ]; then
		cp "$XGLAB_XGTOP" "$LAB/xgtop" && DBINS="$DBINS $LAB/xgtop"
	elif inroot make -s -C "$SRC" -j2 xgtop >&2; then
		DBINS="$DBINS $SRC/xgtop"
	else
		xglab_log "xgtop does not build against Xen 4.20; only the source probe is checked"
	fi
	xglab_log "built in the trixie root in $(( $(date +%s) - T_B ))s: $(inroot "$SRC/xgtop" --version 2>&1 | tr '\n' ' ')"
	inroot env XGLAB_IN_ROOT=1 "$SRC/tests/xen/setup.sh" || fail_early "lab-setup (in the trixie root)"
	inroot env XENLAB_DOM0_HOOK="$HOOK" "$SRC/tests/xen/mkinitrd.sh" $DBINS || fail_early "lab-initrd"
	# The Debian 13 package (deb-trixie.sh), judged with the extra dom0
	# scripts once the lab's results are in.
	if [ "${XGLAB_DEB:-1}" = 1 ]; then
		T_D=$(date +%s)
		"$HERE/deb-trixie.sh" > "$XGLAB_WORK/deb-trixie.out" 2> "$XGLAB_WORK/deb-trixie.err"
		echo $? > "$XGLAB_WORK/deb-trixie.rc"
		xglab_log "Debian 13 package test: exit $(cat "$XGLAB_WORK/deb-trixie.rc") in $(( $(date +%s) - T_D ))s"
	fi
	# The judges run Xen 4.20's xenalyze on the lab's trace (check_sched.py).
	export XGLAB_XENALYZE="$HERE/trixie-root.sh run xenalyze"
	XGLAB_KROOT=$LAB/kernel
fi

KVER=$(xglab_kver)
SERIAL=$XGLAB_WORK/serial.log
OUTIMG=$XGLAB_WORK/results.img
PIDF=$XGLAB_WORK/qemu.pid
RES=$XGLAB_WORK/results
TMO=${XGLAB_TIMEOUT:-1500}
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
	-kernel "$LAB/xen.elf" -append "$XEN_ARGS" \
	-initrd "$XGLAB_KROOT/boot/vmlinuz-$KVER console=hvc0 earlyprintk=xen rdinit=/init loglevel=4${XGLAB_TRACE:+ xgtrace=1}${XGLAB_COST_GUESTS:+ xgcost=$XGLAB_COST_GUESTS} xgsuite=$XGLAB_SUITE,$LAB/dom0-initrd.gz" \
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
mkdir -p "$RES/xglab-out"
if [ -f "$XGLAB_WORK/deb-trixie.rc" ] && [ "$XGLAB_XEN" = 4.20 ] && [ "${XGLAB_DEB:-1}" = 1 ]; then
	for x in out err rc; do cp "$XGLAB_WORK/deb-trixie.$x" "$RES/xglab-out/extra-deb-trixie.$x"; done
fi
# The extra dom0 scripts' and the hook's output, into this log.
for f in "$RES"/xglab-out/extra-*.out "$RES"/xglab-out/hook.out; do
	[ -f "$f" ] || continue
	n=$(basename "$f" .out)
	xglab_log "output of dom0 script $n (rc=$(cat "${f%.out}.rc" 2>/dev/null)):"
	sed "s/^/[$n] /" "$f" "${f%.out}.err" >&2
done
python3 "$HERE/check.py" "$RES/xglab-out" "$SERIAL" "${why:-}" | tee "$RES/check.txt"
rc=${PIPESTATUS[0]}
# The scheduler checks; they print the total over both ("N passed, N failed").
python3 "$HERE/check_sched.py" "$RES/xglab-out" "$RES/check.txt" "$REPO" || rc=1
xglab_log "results in $RES/xglab-out; total $(( $(date +%s) - T_ALL ))s (QEMU ${T_QEMU}s)"
exit $rc
