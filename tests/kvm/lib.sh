# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by tests/kvm/test_*.sh: real QEMU guests (Debian's kernel and a
# busybox initrd built here, as tests/xen does) watched by the real ./xgtop.
# KVM when /dev/kvm works on a CPU with hardware virtualization, TCG
# otherwise; XGTOP_KVM_ACCEL=kvm|tcg forces one. Everything large lives
# under $KVMLAB, never in the repository.
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
KVMLAB=${XGTOP_KVMLAB:-/var/tmp/xgtop-kvmlab}
tmp=$(mktemp -d /tmp/xgtop-kvm-test.XXXXXX) || exit 2
guests=()
cgdirs=()
taps=()

# gone PID TENTHS: true once PID has exited, within TENTHS tenths of a second.
gone() {
	for _ in $(seq "$2"); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
	return 1
}

cleanup() {
	local g p d
	for g in "${guests[@]}"; do
		p=$(cat "$tmp/$g.pid" 2>/dev/null) && kill "$p" 2>/dev/null
	done
	# A cgroup is removable only once its guest has exited, after SIGKILL too.
	for g in "${guests[@]}"; do
		p=$(cat "$tmp/$g.pid" 2>/dev/null) || continue
		gone "$p" 50 || { kill -9 "$p" 2>/dev/null; gone "$p" 50; }
	done
	for d in "${cgdirs[@]}"; do rmdir "$d" 2>/dev/null; done
	for d in "${taps[@]}"; do ip link del "$d" 2>/dev/null; done
	[ -n "$XG_TMUX" ] && tmux -L "$XG_TMUX" kill-server 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }
log() { printf '[kvm %s] %s\n' "$(date +%H:%M:%S)" "$*"; }

[ -x ./xgtop ] || fail "./xgtop is not built (run make)"
[ "$(id -u)" = 0 ] || skip "the VM tests need root (cgroups, tap devices, debugfs)"
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 is not installed (make deps)"
command -v python3 >/dev/null || skip "python3 is not installed (make deps)"
[ -x /bin/busybox ] && /bin/busybox --list-full >/dev/null 2>&1 ||
	skip "busybox (busybox-static) is not installed (make deps)"
command -v cpio >/dev/null || skip "cpio is not installed (make deps)"

# The accelerator: KVM needs /dev/kvm and hardware virtualization (a
# /dev/kvm without VMX/SVM, such as a nested PVM, runs an unmodified guest
# kernel in KVM's instruction emulator: minutes to boot, slower than TCG).
choose_accel() {
	case ${XGTOP_KVM_ACCEL:-auto} in
	kvm | tcg) ACCEL=$XGTOP_KVM_ACCEL; ACCEL_WHY="forced by XGTOP_KVM_ACCEL"; return ;;
	esac
	if [ ! -w /dev/kvm ]; then
		ACCEL=tcg ACCEL_WHY="no usable /dev/kvm"
	elif ! grep -qwE 'vmx|svm' /proc/cpuinfo; then
		ACCEL=tcg ACCEL_WHY="/dev/kvm without VMX/SVM (nested PVM?): guests would run in KVM's emulator"
	else
		ACCEL=kvm ACCEL_WHY="/dev/kvm with hardware virtualization"
	fi
}
choose_accel

# Debian's generic kernel: vmlinuz and the virtio modules, unpacked once.
kernel() {
	[ -s "$KVMLAB/vmlinuz" ] && [ -d "$KVMLAB/mods" ] && return 0
	mkdir -p "$KVMLAB/debs"
	local pkg deb
	pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
	[ -n "$pkg" ] || skip "cannot resolve Debian's linux-image-amd64 (apt-get update?)"
	deb=$(ls "$KVMLAB/debs/${pkg}_"*.deb 2>/dev/null | head -n 1)
	if [ -z "$deb" ]; then
		log "apt-get download $pkg"
		chown _apt "$KVMLAB/debs" 2>/dev/null
		(cd "$KVMLAB/debs" && apt-get download -q "$pkg" >/dev/null 2>&1) ||
			skip "cannot download $pkg (offline?)"
		deb=$(ls "$KVMLAB/debs/${pkg}_"*.deb | head -n 1)
	fi
	rm -rf "$KVMLAB/k.tmp" && mkdir -p "$KVMLAB/k.tmp" "$KVMLAB/mods.tmp"
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$KVMLAB/k.tmp" --wildcards './boot/vmlinuz-*' \
		'./lib/modules/*/kernel/drivers/virtio/*' './lib/modules/*/kernel/drivers/block/virtio_blk.ko' \
		'./lib/modules/*/kernel/drivers/net/virtio_net.ko' './lib/modules/*/kernel/drivers/net/net_failover.ko' \
		'./lib/modules/*/kernel/net/core/failover.ko' || fail "cannot unpack $deb"
	find "$KVMLAB/k.tmp/lib/modules" -name '*.ko' -exec cp {} "$KVMLAB/mods.tmp/" \;
	cp "$KVMLAB"/k.tmp/boot/vmlinuz-* "$KVMLAB/vmlinuz.tmp"
	rm -rf "$KVMLAB/k.tmp" "$KVMLAB/mods"
	mv "$KVMLAB/mods.tmp" "$KVMLAB/mods" && mv "$KVMLAB/vmlinuz.tmp" "$KVMLAB/vmlinuz"
}

# busybox, the modules and tests/kvm/guest-init.sh; rebuilt when the init
# script changes.
initrd() {
	local sum root=$tmp/initrd-root
	sum=$(cat tests/kvm/guest-init.sh /bin/busybox | md5sum | cut -c1-12)
	INITRD=$KVMLAB/initrd-$sum.gz
	[ -s "$INITRD" ] && return 0
	mkdir -p "$root"/{bin,proc,sys,dev,tmp,mods}
	cp /bin/busybox "$root/bin/busybox"
	ln -s busybox "$root/bin/sh"   # the kernel runs /init with it
	cp "$KVMLAB"/mods/*.ko "$root/mods/"
	install -m 0755 tests/kvm/guest-init.sh "$root/init"
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) >"$INITRD.tmp" &&
		mv "$INITRD.tmp" "$INITRD"
}

kernel
initrd
log "accelerator: $ACCEL ($ACCEL_WHY)"

# start_guest NAME ROLE VCPUS MEM_MIB [QEMU ARGS...]: a daemonized QEMU
# (as libvirt starts them) named NAME, with its own 64 MiB disk (cache=none:
# the guest's reads reach the host's disk). Extra
# arguments go to QEMU; XG_WRAP (a command prefix) runs it, XG_APPEND adds
# to the kernel command line, XG_DEBUG_THREADS=off leaves QEMU's threads
# unnamed.
start_guest() {
	local name=$1 role=$2 vcpus=$3 mem=$4
	shift 4
	# data, not holes: reading a hole of a sparse file does no disk I/O
	dd if=/dev/zero of="$tmp/$name.img" bs=1M count=16 status=none && truncate -s 64M "$tmp/$name.img"
	guests+=("$name")
	${XG_WRAP:-} qemu-system-x86_64 -accel "$ACCEL" -m "$mem" -smp "$vcpus" \
		-name "guest=$name,debug-threads=${XG_DEBUG_THREADS:-on}" -uuid "$(cat /proc/sys/kernel/random/uuid)" \
		-nodefaults -no-reboot -display none -monitor none -serial "file:$tmp/$name.log" \
		-qmp "unix:$tmp/$name.qmp,server=on,wait=off" -pidfile "$tmp/$name.pid" -daemonize \
		-kernel "$KVMLAB/vmlinuz" -initrd "$INITRD" \
		-append "console=ttyS0 quiet panic=-1 xg.role=$role ${XG_APPEND:-}" \
		-drive "file=$tmp/$name.img,format=raw,if=virtio,cache=none,aio=threads" "$@" \
		>"$tmp/$name.out" 2>&1 || ${XG_START_FAIL:-fail} "qemu for $name: $(cat "$tmp/$name.out")"
}

guest_pid() { cat "$tmp/$1.pid"; }

# wait_ready NAME...: until each guest's console says XG-READY.
wait_ready() {
	local g t0=$SECONDS limit=${XG_BOOT_LIMIT:-150}
	for g in "$@"; do
		while ! grep -q XG-READY "$tmp/$g.log" 2>/dev/null; do
			kill -0 "$(guest_pid "$g")" 2>/dev/null || fail "guest $g died: $(tail -n 5 "$tmp/$g.log")"
			[ $((SECONDS - t0)) -ge "$limit" ] && fail "guest $g not up after ${limit}s ($ACCEL)"
			sleep 0.2
		done
	done
	log "guests up after $((SECONDS - t0)) s: $*"
}

# The threads of guest NAME named "CPU n/...".
vcpu_tids() {
	local t pid
	pid=$(guest_pid "$1")
	for t in /proc/"$pid"/task/*; do
		grep -q '^CPU [0-9]*/' "$t/comm" 2>/dev/null && echo "${t##*/}"
	done
}

# qmp NAME COMMAND: one QMP command on the guest's socket.
qmp() {
	python3 - "$tmp/$1.qmp" "$2" <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
f = s.makefile("rw")
f.readline()
for cmd in ("qmp_capabilities", sys.argv[2]):
    f.write(json.dumps({"execute": cmd}) + "\n")
    f.flush()
    while True:
        r = json.loads(f.readline())
        if "return" in r or "error" in r:
            break
    if "error" in r:
        sys.exit("qmp %s: %s" % (cmd, r["error"]))
PY
}

# kvm_guest NAME VCPUS: a guest under KVM whatever the accelerator chosen
# for booting (KVM's figures need only a KVM VM, not a booted guest), or
# a skip when KVM cannot start one here. Waits for its vCPU threads.
kvm_guest() {
	[ -w /dev/kvm ] || skip "no usable /dev/kvm: KVM-only checks"
	local name=$1 vcpus=$2 t0=$SECONDS
	ACCEL=kvm XG_START_FAIL=skip start_guest "$name" idle "$vcpus" 128
	[ "${XG_DEBUG_THREADS:-on}" = on ] || { sleep 1; return; }
	while [ "$(vcpu_tids "$name" | wc -l)" -lt "$vcpus" ]; do
		[ $((SECONDS - t0)) -ge 20 ] && fail "$name: no vCPU threads after 20 s"
		sleep 0.1
	done
}
