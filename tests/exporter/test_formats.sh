#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A scrape of xgtop replaying the fixture recording, in both formats:
# - the text format 0.0.4 passes `promtool check metrics` (no lint at all);
# - OpenMetrics 1.0 parses with Prometheus's own OpenMetrics parser (promtool
#   tsdb create-blocks-from openmetrics, which wants a timestamp per sample:
#   one is appended) and with the Python client's strict parser, which also
#   checks every value against the recording (check_scrape.py).
#   promtool check metrics itself lints the text format only (Debian 12's
#   promtool 2.42 stops at OpenMetrics' info type), so it gets the text.
# - content types, HEAD, the / page.
. "$(dirname "$0")/common.sh"
command -v promtool >/dev/null || { echo "SKIP: promtool (Debian package prometheus) is not installed"; exit 77; }
/usr/bin/python3 -c 'import prometheus_client' 2>/dev/null ||
	{ echo "SKIP: /usr/bin/python3 lacks prometheus_client (Debian package python3-prometheus-client)"; exit 77; }

build/tools/xgtop-gen --steady --sockets 2 "$tmp/fx.xgrec" >/dev/null
build/tools/xgtop-gen --dump "$tmp/fx.xgrec" >"$tmp/dump.tsv"
build/tools/xgtop-metric-names --fields >"$tmp/fields.tsv"
start_exporter fx --replay "$tmp/fx.xgrec" --speed 2
# From sample 12 every domain of the script is there but gone-09's state.
wait_until 60 refreshed 12 || fail "no 12 refreshes in 60 s (at $(refreshes))"

# Every request at once, while the replay lasts (the daemon exits at the end
# of its 30 samples, 15 s in at twice the pace; promtool alone can take
# seconds on a loaded machine); what they returned is checked after.
scrape >"$tmp/m.txt" || fail "GET /metrics failed"
scrape "$OM" >"$tmp/m.om" || fail "GET /metrics (OpenMetrics) failed"
hdr() { curl -s -o /dev/null -D - --max-time 5 "$@"; }
hdr "http://127.0.0.1:$port/metrics" >"$tmp/h.txt"
hdr -H "Accept: $OM" "http://127.0.0.1:$port/metrics" >"$tmp/h.om"
head=$(curl -s -I --max-time 5 "http://127.0.0.1:$port/metrics")
head_body=$(curl -s -X HEAD --max-time 5 "http://127.0.0.1:$port/metrics" | wc -c)
curl -sf --max-time 5 "http://127.0.0.1:$port/" >"$tmp/page"
hdr "http://127.0.0.1:$port/" >"$tmp/h.page"
scrape >/dev/null || fail "the exporter had gone before the test's requests were done: $(tail -n 1 "$tmp/fx.log")"

grep -q '^# EOF$' "$tmp/m.txt" && fail "the text format has an # EOF line"
[ "$(tail -n 1 "$tmp/m.om")" = "# EOF" ] || fail "OpenMetrics does not end with # EOF"

lint=$(promtool check metrics <"$tmp/m.txt" 2>&1) || fail "promtool check metrics (text): $lint"
[ -z "$lint" ] || fail "promtool check metrics (text) complains: $lint"
echo "promtool check metrics: text format clean ($(grep -vc '^#' "$tmp/m.txt") series)"

sed '/^#/!s/$/ 1767225600/' "$tmp/m.om" >"$tmp/m.om.ts"
promtool tsdb create-blocks-from openmetrics "$tmp/m.om.ts" "$tmp/blocks" >"$tmp/blocks.log" 2>&1 ||
	{ cat "$tmp/blocks.log"; fail "Prometheus's OpenMetrics parser refused the scrape"; }
echo "Prometheus's OpenMetrics parser: $(awk 'NR==2 {print $5}' "$tmp/blocks.log") samples"
/usr/bin/python3 tests/exporter/check_scrape.py "$tmp/m.om" "$tmp/dump.tsv" "$tmp/fields.tsv" || exit 1

# Content types, HEAD (headers, no body), the page.
grep -qi '^content-type: text/plain; version=0.0.4; charset=utf-8' "$tmp/h.txt" ||
	fail "text format: wrong content type"
grep -qi '^content-type: application/openmetrics-text; version=1.0.0; charset=utf-8' "$tmp/h.om" ||
	fail "OpenMetrics: wrong content type"
echo "$head" | head -n 1 | grep -q ' 200' || fail "HEAD /metrics: $(echo "$head" | head -n 1)"
[ "$head_body" = 0 ] || fail "HEAD sent a body"
grep -q 'href="/metrics"' "$tmp/page" || fail "/ does not link to /metrics"
grep -qi '^content-type: text/html' "$tmp/h.page" || fail "/ is not HTML"
echo "content types, HEAD and / as documented"
