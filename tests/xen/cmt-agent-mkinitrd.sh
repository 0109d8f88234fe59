# Sourced by mkinitrd.sh (after the guest root $G and before dom0's root $R
# is packed), with the binaries under test in "$@": builds the agent guest's
# initrd (the guest root plus xgtop and its libraries, its own /init) and
# puts it, its config and the dom0 side of the CMT/agent checks into $R.
agent_xgtop=""
for f in "$@"; do
	[ "$(basename "$f")" = xgtop ] && agent_xgtop=$(readlink -f "$f")
done
install -m 0755 "$HERE/cmt-agent-dom0.sh" "$R/usr/local/bin/cmt-agent-dom0.sh"
if [ -n "$agent_xgtop" ]; then
	A=$XGLAB_WORK/agent-root
	rm -rf "$A"
	cp -a "$G" "$A"
	elf "$A" "$agent_xgtop"
	mkdir -p "$A/usr/local/bin"
	mv "$A$agent_xgtop" "$A/usr/local/bin/xgtop"
	install -m 0755 "$HERE/guest-agent-init.sh" "$A/init"
	cpio_gz "$A" "$XGLAB_WORK/guest-agent-initrd.gz"
	cp "$XGLAB_WORK/guest-agent-initrd.gz" "$R/boot/guest-agent-initrd.gz"
	install -m 0644 "$HERE/guest-agent.cfg" "$R/etc/xen/"
fi
