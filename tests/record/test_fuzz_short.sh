#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A bounded fuzzing run of the recording reader (tests/fuzz/run_record.sh
# runs longer): FUZZ_SECONDS, default 15 here.
cd "$(dirname "$0")/../.." || exit 2
FUZZ_SECONDS=${FUZZ_SECONDS:-15} exec tests/fuzz/run_record.sh
