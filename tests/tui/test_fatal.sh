#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A fatal error while running (here: a recording corrupted in the middle)
# ends the screen, restores the terminal, then prints the message and
# exits 1.
. "$(dirname "$0")/lib.sh"
make_rec 200
# Garble 64 bytes half way: the replay fails there, not at the start.
python3 - "$REC" <<'PY' || skip "python3 is needed to corrupt the recording"
import sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
for i in range(len(b) // 2, len(b) // 2 + 64):
    b[i] ^= 0x55
open(p, 'wb').write(b)
PY
start_shell
keys "cd $TMP && $XGTOP --replay $REC --speed 50; echo exit=\$?" Enter
wait_for "Domains"   # the screen was up before the error
wait_for "exit=1" 20
wait_match "^xgtop: .*rec\\.xgr: byte [0-9]+"
check_restored
echo "ok: a fatal error restores the terminal and is reported"
