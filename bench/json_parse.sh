#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Which JSON library parses the Prometheus query API's answers fastest:
# jansson, json-c and cJSON (Debian's -dev packages) each parse a 10 MB
# instant-query vector answer (about 42,000 series shaped like the xgtop
# exporter's, labels host, instance, job, domain, uuid) and walk every
# label and value. Prints the best of 5 runs per library and peak RSS.
# The figures are in doc/pool.md. Needs libjansson-dev, libjson-c-dev,
# libcjson-dev; a library whose header is missing is left out, said so.
set -e
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp/answer.json" <<'PY'
import json, sys, uuid, random
random.seed(1)
res = []
size = 0
i = 0
while size < 10_000_000:
    h = i // 200
    m = {"__name__": "xgtop_domain_cpu_seconds_total", "host": "xen%d" % h,
         "instance": "10.0.%d.%d:9717" % (h // 250, h % 250), "job": "xgtop",
         "domain": "vm-%05d" % i, "uuid": str(uuid.UUID(int=random.getrandbits(128)))}
    s = {"metric": m, "value": [1733456789.123, "%.6f" % (random.random() * 1e6)]}
    size += len(json.dumps(s)) + 1
    res.append(s)
    i += 1
json.dump({"status": "success", "data": {"resultType": "vector", "result": res}}, open(sys.argv[1], "w"))
PY
for lib in jansson:USE_JANSSON:-ljansson json-c:USE_JSONC:-ljson-c cJSON:USE_CJSON:-lcjson; do
	IFS=: read -r name def ld <<<"$lib"
	if ! cc -O2 -D"$def" -o "$tmp/$name" "$here/json/jsonbench.c" "$ld" 2>"$tmp/cc.log"; then
		echo "$name: not built ($(head -n 1 "$tmp/cc.log"))"
		continue
	fi
	/usr/bin/time -f "%M" -o "$tmp/rss" "$tmp/$name" "$tmp/answer.json" 5 | tr '\n' ' '
	echo "peak RSS $(( $(cat "$tmp/rss") / 1024 )) MB"
done
echo "target: xgtop's Prometheus source uses the fastest (cJSON when measured, doc/pool.md)"
