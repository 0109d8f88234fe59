#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Prometheus source's full-screen view while domains come and go: a
# real Prometheus (1 s scrapes) holds a steady host (B, 5 domains) and a
# churning one (C: 28 domains, of which one of its 16 vm-NNN restarts each
# second under a new name, vm-NNN.G, its counters from 0). The view asks a
# host's domains' CPU time as scraped and their info only while one is
# new, restarted or gone, and otherwise a tenth of the hosts' info a
# refresh. Over 25 s:
#  - each new domain the server holds for 6 s shows within 5 s, with its
#    own domid and figures (a view that waited for its host's turn to ask
#    its info would take up to 10 s, and show it without its domid before);
#  - each domain gone from the server leaves the screen within 3 s, not
#    once its series leave the rate window (4 s later here);
#  - B's rows stay, with their figures.
# SERVER=victoria runs it against VictoriaMetrics (by hand: the same code
# as against Prometheus, as for test_promsrc_screen_victoria.sh).
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/remote/lib.sh"
. "$ROOT/tests/remote/promsrc_lib.sh"
tui_server
make_recs "$TMP" || fail "xgtop-gen failed"
"$GEN" --steady --churn 1 --domains 28 --samples 3000 "$TMP/c.xgrec" >/dev/null || fail "xgtop-gen --churn failed"
pb=$(free_port) && start_exporter "$pb" "$TMP/b.xgrec" --speed 4
pc=$(free_port) && start_exporter "$pc" "$TMP/c.xgrec"
pp=$(free_port)
scrape_config "$TMP/prom.yml" "127.0.0.1:$pb" "127.0.0.1:$pc"
cd "$ROOT" || exit 2
"start_$server" "$TMP" "$pp" "$TMP/prom.yml"
wait_until 90 seen_for "$pp" 5 || fail "$server shows no 5 s of both hosts' scrapes within 90 s"
# shellcheck disable=SC2034  # lib.sh's start_shell reads it
H=45
start_shell
keys "$XGTOP --no-config --source prometheus http://127.0.0.1:$pp -d 1" Enter
wait_match '^ *127\.0\.0\.1:[0-9]+ +[0-9]+ +vm-0' 30
# Watch for 25 s: every 0.5 s the screen's rows and the names the server
# holds now, each new name's first time on either, and each time a row of
# C shows without its domid or CPU% or B lacks a row.
python3 - "$SOCK" "$pp" "127.0.0.1:$pc" "127.0.0.1:$pb" <<'EOF' || fail "(above)"
import json, re, subprocess, sys, time, urllib.parse, urllib.request
sock, port, hc, hb = sys.argv[1:5]
def server_names():
    q = urllib.parse.urlencode({"query": 'xgtop_domain_info{instance="%s"}' % hc})
    with urllib.request.urlopen("http://127.0.0.1:%s/api/v1/query?%s" % (port, q), timeout=2) as r:
        return {x["metric"]["domain"] for x in json.load(r)["data"]["result"]}
def rows():
    text = subprocess.run(["tmux", "-L", sock, "-f", "/dev/null", "capture-pane", "-p", "-t", "t"],
                          capture_output=True, text=True).stdout
    lines = text.splitlines()
    head = next((l.replace("\u25bc", " ").replace("\u25b2", " ").split() for l in lines
                 if "HOST" in l.split()), None)
    got = []
    for l in lines:
        m = re.match(r"^ *(127\.0\.0\.1:\d+) +(\S+) +(\S+) ", l)
        if m and head:
            f = l.split()
            domid = int(m.group(2)) if m.group(2).isdigit() else -1
            got.append((m.group(1), domid, m.group(3), f[head.index("CPU%")]))
    return got
on_server, on_screen, bad = {}, {}, []
last_server, last_screen = {}, {}
t0 = time.time()
while time.time() - t0 < 25:
    now = time.time() - t0
    try:
        for n in server_names():
            on_server.setdefault(n, now)
            last_server[n] = now
    except OSError as e:
        bad.append("the server did not answer: %s" % e)
    r = rows()
    for host, domid, name, cpu in r:
        if host == hc:
            on_screen.setdefault(name, now)
            last_screen[name] = now
            # CPU% needs the row's second refresh
            if not 0 <= domid < 100 or (cpu == "-" and now - on_screen[name] > 2.5):
                bad.append("%.1f s: %s shows domid %d, CPU%% %s" % (now, name, domid, cpu))
    nb = sum(1 for x in r if x[0] == hb)
    if nb != 5:
        bad.append("%.1f s: %d rows of the steady host, not 5" % (now, nb))
    time.sleep(0.5)
# The names that came during the watch (not at its start) and stayed on
# the server for 5 s while it lasted (each lives 16 s).
new = sorted(n for n, t in on_server.items() if 1 < t < 25 - 6.5 and "." in n)
late = ["%s: on the server at %.1f s, on screen %s" % (n, on_server[n],
        "at %.1f s" % on_screen[n] if n in on_screen else "never") for n in new
        if on_screen.get(n, 99) - on_server[n] > 5]
# The names that went during the watch: gone from the screen within 3 s
# (the next refresh), not when their series leave the rate window (up to
# 4 s later here).
went = sorted(n for n, t in last_server.items() if 1 < t < 25 - 6.5 and n.startswith("vm-"))
stay = ["%s: gone from the server after %.1f s, on screen until %.1f s" % (n, last_server[n], last_screen[n])
        for n in went if last_screen.get(n, 0) - last_server[n] > 3]
print("%d new domains came on the server during the watch; %d showed within 5 s" % (len(new), len(new) - len(late)))
print("%d domains went from the server during the watch; %d left the screen within 3 s (at most %.1f s after)" %
      (len(went), len(went) - len(stay), max([last_screen.get(n, 0) - last_server[n] for n in went] or [0])))
for x in (bad[:10] + late + stay):
    print(x)
sys.exit(1 if bad or late or stay or len(new) < 8 or len(went) < 8 else 0)
EOF
keys q
wait_prompt
