#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# CPU cost of consuming live trace buffers (decoder, merge, accounting; not
# the buffer mapping) at 100,000 scheduler records per second. Target:
# under 1 % of one core. Printed, not asserted.
cd "$(dirname "$0")/.." || exit 2
[ -x build/tools/xentrace-livebench ] || { echo "build the tools first: make tools"; exit 1; }
build/tools/xentrace-livebench "${1:-100000}" "${2:-8}" "${3:-10}"
