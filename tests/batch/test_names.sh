#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A process named with a comma, a quote and an ESC byte, through the real
# pipeline: CSV escapes it and stays parseable, JSON carries it exactly,
# text shows it escaped and never writes the raw control byte.
. "$(dirname "$0")/common.sh"
command -v setsid >/dev/null || { echo "SKIP: setsid (util-linux) is needed"; exit 77; }
# The shell waits on a FIFO with a builtin: exec would reset the name. It
# writes its pid once it has renamed itself (or failed to).
mkfifo "$tmp/fifo"
setsid -f bash -c 'printf "x,\"y\033z" >/proc/$$/comm; echo $$ >"$0"; exec 3<>"$1"; read -t 30 -u 3' \
	"$tmp/pid" "$tmp/fifo" >/dev/null 2>&1
wait_until 30 test -s "$tmp/pid"
pid=$(cat "$tmp/pid") || fail "the named process did not start within 30 s"
trap 'kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
grep -q 'y.z' "/proc/$pid/comm" || { echo "SKIP: cannot rename a process here"; exit 77; }
for f in csv json text; do
	./xgtop -b -n 1 -d 0.2 -o $f --group process >"$tmp/$f" 2>"$tmp/err" ||
		fail "-o $f: exit $?: $(cat "$tmp/err")"
done
python3 - "$tmp" "$pid" <<'PY' || exit 1
import csv, json, sys
d, pid = sys.argv[1], sys.argv[2]
raw = 'x,"y\x1bz'
rows = [r for r in csv.DictReader(open(d + "/csv", encoding="utf-8", newline="")) if r["id"] == pid]
assert rows, "pid %s not in the CSV" % pid
assert rows[0]["name"] == 'x,"y\\x1bz', rows[0]["name"]
doms = [x for x in json.loads(open(d + "/json", encoding="utf-8").readline())["domains"]
        if x["id"] == int(pid)]
assert doms and doms[0]["name"] == raw, doms
text = open(d + "/text", encoding="utf-8").read()
assert "\x1b" not in text, "raw ESC in the text output"
assert 'x,"y\\x1bz' in text, "escaped name not in the text output"
print("ok: the name survives CSV, JSON and text")
PY
