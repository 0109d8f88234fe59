#!/bin/sh
# /init of the guests booted from guest-agent-initrd.gz (xg-new): starts
# `xgtop --agent` with software events (a PV guest under TCG has no PMU)
# and a light loop that makes page faults (a fresh 1 MiB buffer per dd) and
# context switches, then hands over to the usual /init (guest-init.sh) for
# the job xgmode= names. Once the agent has stopped, the same guest turns
# hostile on dom0's command (xg-hostile, dom0-trust.sh) until told to quit.
export PATH=/usr/local/bin:/sbin:/bin:/usr/sbin:/usr/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
# The default cache events need a PMU this guest does not have: the agent
# says so and publishes only the reason (one shot).
xgtop --agent -n 1 -d 0.1 2>&1 | sed 's/^/XGAGENT-DEFAULT: /'
# dom0 writes data/xgtop/stop when its agent checks are done: the agent
# exits and takes the load loop with it, so the guest is idle again for the
# scheduler checks that follow in the same boot.
(while :; do dd if=/dev/zero of=/dev/null bs=1M count=1 2>/dev/null; sleep 0.2; done) &
load=$!
(xgtop --agent --events page-faults,context-switches -d 0.5 2>&1 | sed 's/^/XGAGENT: /'
 kill $load
 [ -x /usr/local/bin/xg-hostile ] && xg-hostile 2>&1) &
exec /init.base
