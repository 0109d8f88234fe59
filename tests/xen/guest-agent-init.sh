#!/bin/sh
# /init of the lab's agent guest: xgtop --agent publishes this guest's
# software-event counts in its xenstore data/xgtop while a loop makes page
# faults (a fresh 1 MiB buffer per dd) and context switches.
export PATH=/usr/local/bin:/sbin:/bin:/usr/sbin:/usr/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
echo "XGGUEST: up mode=agent t=$(cut -d' ' -f1 /proc/uptime)"
# The default cache events need a PMU this guest does not have: the agent
# says so and publishes only the reason (one shot).
xgtop --agent -n 1 -d 0.1 2>&1 | sed 's/^/XGAGENT-DEFAULT: /'
xgtop --agent --events page-faults,context-switches -d 0.5 2>&1 | sed 's/^/XGAGENT: /' &
while :; do
	dd if=/dev/zero of=/dev/null bs=1M count=4 2>/dev/null
	sleep 0.05
done
