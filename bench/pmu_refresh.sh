#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# PMU refresh cost: 1,000 cgroup domains counted on every online CPU with
# software events (so it runs without a hardware PMU), one read() per group
# per domain per refresh. Target: under 5 ms per refresh on 2 CPUs. The
# figure is printed, not asserted. Needs root (creates cgroups).
cd "$(dirname "$0")/.." || exit 2
make -s tools >/dev/null || exit 2
root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
[ -n "$root" ] && [ -w "$root" ] || { echo "pmu_refresh: needs a writable cgroup v2 mount (root)"; exit 77; }
exec build/tools/xgtop-pmu-bench --domains "${DOMAINS:-1000}" --refreshes "${REFRESHES:-30}" "$root"
