#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# xgtop_domain_cache_victim through a real scrape of an xgtop replaying the
# generator's noisy-neighbour script (xgtop-gen --contention): once the
# antagonist has flooded the cache for 3 windows the victim's gauge is 1,
# the decoy's, the antagonist's and the far-socket neighbour's 0; while the
# baselines are learned the family is absent, and on a recording without
# counters (--nopmu) it stays absent (not 0) to the end.
. "$(dirname "$0")/common.sh"

gauge() {   # gauge FILE DOMAIN: the value of its series, or nothing
	sed -n "s/^xgtop_domain_cache_victim{domain=\"$2\"[^}]*} //p" "$1"
}
build/tools/xgtop-gen --contention --samples 40 --interval 0.25 "$tmp/c.xgrec" >/dev/null || fail "xgtop-gen --contention"
build/tools/xgtop-gen --contention --nopmu --samples 40 --interval 0.25 "$tmp/n.xgrec" >/dev/null ||
	fail "xgtop-gen --contention --nopmu"

start_exporter c --replay "$tmp/c.xgrec"
wait_until 30 refreshed 3 || fail "no third refresh in 30 s"
scrape >"$tmp/early.prom" || fail "early scrape"
n=$(refreshes)
# 5 baseline windows and 5 recent ones at least: no verdict before the tenth refresh
[ "$n" -lt 10 ] && { ! grep -q '^xgtop_domain_cache_victim' "$tmp/early.prom" || fail "a verdict after $n refreshes"; }
victim_is_1() { scrape >"$tmp/c.prom" && [ "$(gauge "$tmp/c.prom" victim)" = 1 ]; }
wait_until 60 victim_is_1 || fail "the victim's gauge never became 1: $(grep cache_victim "$tmp/c.prom")"
for d in decoy far-socket antagonist quiet; do
	[ "$(gauge "$tmp/c.prom" "$d")" = 0 ] || fail "$d: '$(gauge "$tmp/c.prom" "$d")', want 0"
done
grep -q '^# TYPE xgtop_domain_cache_victim gauge$' "$tmp/c.prom" || fail "no TYPE line for the gauge"
[ "$(grep -c '^xgtop_domain_cache_victim{' "$tmp/c.prom")" = 6 ] || fail "want one series per domain (6)"

start_exporter n --replay "$tmp/n.xgrec"
wait_until 60 refreshed 39 || fail "the --nopmu replay did not reach its end"
scrape >"$tmp/n.prom" || fail "scrape (no counters)"
! grep -q 'xgtop_domain_cache_victim' "$tmp/n.prom" || fail "a victim gauge without counters: $(grep cache_victim "$tmp/n.prom")"
echo "ok: exporter: victim 1, decoy, far socket, antagonist 0 on the contention replay; absent while learning and without counters"
