# Sourced by mkinitrd.sh (after the guest root $G and before dom0's root $R
# is packed), with the binaries under test in "$@": builds the initrd of
# the guest that runs `xgtop --agent` and then the hostile writer
# xg-hostile (xg-new: the guest root plus both and their libraries,
# guest-agent-init.sh in front of the usual /init) and puts it and the dom0
# side of the CMT/agent and hostile-guest checks into $R. Without an xgtop
# the guest gets the plain initrd.
agent_xgtop=""
for f in "$@"; do
	[ "$(basename "$f")" = xgtop ] && agent_xgtop=$(readlink -f "$f")
done
install -m 0755 "$HERE/cmt-agent-dom0.sh" "$R/usr/local/bin/cmt-agent-dom0.sh"
install -m 0755 "$HERE/dom0-trust.sh" "$R/usr/local/bin/dom0-trust.sh"
if [ -n "$agent_xgtop" ]; then
	A=$XGLAB_WORK/agent-root
	rm -rf "$A"
	cp -a "$G" "$A"
	# Only the libraries the agent loads (libxenstore, libpfm4): with the
	# exporter's and pool view's (libmicrohttpd, libcurl, GnuTLS, libyaml)
	# the initrd grew to 28 MB unpacked, more than xg-new's 128 MiB unpacks
	# whole, and the guest booted without /proc or xgtop.
	DLOPEN_ONLY='^lib(xen|pfm)' elf "$A" "$agent_xgtop"
	mkdir -p "$A/usr/local/bin"
	mv "$A$agent_xgtop" "$A/usr/local/bin/xgtop"
	hostile=$(readlink -f "$HERE/../../build/tools/xg-hostile")
	if [ -x "$hostile" ]; then
		elf "$A" "$hostile"
		mv "$A$hostile" "$A/usr/local/bin/xg-hostile"
	fi
	mv "$A/init" "$A/init.base"
	install -m 0755 "$HERE/guest-agent-init.sh" "$A/init"
	cpio_gz "$A" "$R/boot/guest-agent-initrd.gz"
else
	cp "$XGLAB_WORK/guest-initrd.gz" "$R/boot/guest-agent-initrd.gz"
fi
