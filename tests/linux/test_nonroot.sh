#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Without root: the kernel still shows every process's stat and schedstat,
# but /proc/PID/io only for one's own processes. xgtop run as an ordinary
# user keeps the figures it can read and leaves the others empty with the
# reason "permission denied (run as root)", never 0.
. "$(dirname "$0")/common.sh"
[ "$(id -u)" = 0 ] || skip "needs root to run xgtop as another user"
command -v runuser >/dev/null && command -v setpriv >/dev/null || skip "runuser/setpriv (util-linux) missing"
user=xgtop-test
if ! id "$user" >/dev/null 2>&1; then
	command -v useradd >/dev/null || skip "no user $user and no useradd to make one"
	useradd -M -r -s /usr/sbin/nologin "$user" 2>/dev/null || skip "cannot create user $user"
fi
uid=$(id -u "$user") gid=$(id -g "$user")
runuser -u "$user" -- test -x ./xgtop || skip "user $user cannot run $(pwd)/xgtop (directory permissions)"
spawn <<W
mine setpriv --reuid=$uid --regid=$gid --clear-groups sleep 60
roots sleep 60
W
mine=$(pid_of mine) roots=$(pid_of roots)
# (setpriv takes the user's ids, then runs sleep)
wait_until 30 is_comm "$mine" sleep && wait_until 30 is_comm "$roots" sleep ||
	fail "the sleepers did not start within 30 s: $(cat /proc/"$mine"/comm /proc/"$roots"/comm 2>&1)"
runuser -u "$user" -- ./xgtop -b -o csv -n 2 -d 0.5 --source linux --group process >"$tmp/out" 2>"$tmp/err" ||
	fail "xgtop as $user: exit $?: $(cat "$tmp/err")"
runuser -u "$user" -- ./xgtop --explain -d 0.5 --source linux --group process >"$tmp/explain" 2>&1 ||
	fail "xgtop --explain as $user: exit $?"
python3 - "$tmp/out" "$mine" "$roots" <<'PY' || exit 1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
def last(ident):
    r = [x for x in rows if x["id"] == ident]
    if not r:
        sys.exit("FAIL: domain %s missing" % ident)
    return r[-1]
m, r = last(sys.argv[2]), last(sys.argv[3])
if m["disk_wr_bps"] == "" or m["disk_rd_bps"] == "":
    sys.exit("FAIL: the user's own process has no disk figures: %r" % m)
if r["disk_wr_bps"] != "" or r["disk_rd_bps"] != "":
    sys.exit("FAIL: root's process shows disk figures a user cannot read: %r" % r)
for x, who in ((m, "own"), (r, "root's")):
    if x["blk_pct"] == "" or float(x["blk_pct"]) < 97 or x["cpu_pct"] == "":
        sys.exit("FAIL: %s sleeper: BLK%% %r CPU%% %r, want BLK%% >= 97 and CPU%% given" % (who, x["blk_pct"], x["cpu_pct"]))
print("ok: own process: disk %s B/s; root's process: disk empty; both BLK%% %s / %s" %
      (m["disk_wr_bps"], m["blk_pct"], r["blk_pct"]))
PY
grep -q "/proc/PID/io: permission denied (run as root)" "$tmp/explain" ||
	fail "--explain does not say why disk is empty: $(grep -i disk "$tmp/explain")"
echo "ok: --explain: $(grep -m1 'permission denied' "$tmp/explain" | sed 's/^ *//')"
