#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# q, SIGTERM, SIGINT (Ctrl-C) and SIGHUP each end xgtop and leave the
# terminal as it was: the shell prompt back, the tty cooked with echo.
. "$(dirname "$0")/lib.sh"
make_rec 600
start_shell

start_xgtop
keys q
check_restored
kill -0 "$(xgtop_pid)" 2>/dev/null && fail "xgtop still running after q"

start_xgtop
kill -TERM "$(xgtop_pid)"
check_restored

start_xgtop
keys C-c
check_restored

start_xgtop
kill -HUP "$(xgtop_pid)"
check_restored
echo "ok: q, SIGTERM, Ctrl-C and SIGHUP restore the terminal"
