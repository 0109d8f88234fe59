#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every metric the exporter can publish (the table in model/metric_defs.c,
# listed by xgtop-metric-names) is documented in doc/exporter.md and the man
# page, and every family a full scrape of the fixture publishes is in that
# table; the PromQL for CPU%, WAIT% and HIT% is in both documents.
. "$(dirname "$0")/common.sh"
[ -x build/tools/xgtop-metric-names ] || fail "build/tools/xgtop-metric-names is not built (make tools)"
build/tools/xgtop-metric-names >"$tmp/names"
[ "$(wc -l <"$tmp/names")" -ge 50 ] || fail "only $(wc -l <"$tmp/names") metric names listed"
while read -r n; do
	grep -qF "\`$n\`" doc/exporter.md || fail "doc/exporter.md lacks $n"
	grep -qE "(^|[^a-z_])(\\\\%)?$n([^a-z_]|\$)" man/xgtop.1.in || fail "man/xgtop.1.in lacks $n"
done <"$tmp/names"
for q in 'rate(xgtop_domain_cpu_seconds_total' 'xgtop_domain_runstate_seconds_total{state="runnable"}' \
	'rate(xgtop_domain_llc_misses_total' 'rate(xgtop_domain_llc_references_total'; do
	grep -qF "$q" doc/exporter.md || fail "doc/exporter.md lacks the PromQL $q"
	grep -qF "$q" man/xgtop.1.in || fail "man/xgtop.1.in lacks the PromQL $q"
done
# A scrape with every kind of figure (sockets, PMU breakdown, vCPUs).
build/tools/xgtop-gen --steady --sockets 2 --samples 60 "$tmp/fx.xgrec" >/dev/null
# (at twice the pace the daemon serves its 60 samples for 30 s, then exits)
start_exporter fx --replay "$tmp/fx.xgrec" --speed 2
wait_until 30 refreshed 2 || fail "the exporter served no 2 refreshes within 30 s (at $(refreshes))"
scrape "$OM" | sed -n 's/^\([a-z_]*\)[{ ].*/\1/p' | sort -u >"$tmp/published" ||
	fail "no scrape"
[ "$(wc -l <"$tmp/published")" -ge 50 ] || fail "only $(wc -l <"$tmp/published") families in the scrape"
extra=$(comm -23 "$tmp/published" <(sort "$tmp/names"))
[ -z "$extra" ] || fail "published but not in the metric table: $extra"
echo "$(wc -l <"$tmp/names") metric names in doc/exporter.md and the man page; a full scrape publishes $(wc -l <"$tmp/published") of them"
