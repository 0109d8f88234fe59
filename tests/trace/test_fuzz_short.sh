#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A bounded fuzzing run of the xentrace decoder and accounting (make fuzz
# runs longer): FUZZ_SECONDS, default 20 here.
cd "$(dirname "$0")/../.." || exit 2
FUZZ_SECONDS=${FUZZ_SECONDS:-20} exec tests/fuzz/run.sh
