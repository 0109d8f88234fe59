#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `xgtop trace FILE -o json` is valid JSON whatever bytes the file name
# holds: a name that is not UTF-8 (each stray byte becomes U+FFFD), quotes,
# backslashes and control characters. Parsed with Python's json module
# after a strict UTF-8 decode, as a consumer would.
. "$(dirname "$0")/lib.sh"
[ -x "$GEN" ] || { echo "xentrace-gen not built (make tools)"; exit 1; }
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
fail=0
printf '%s\n' 'cpu 0' 'rs 1000 32767 0 0 1' 'rs 1000 7 0 1 0' 'rs 2000 7 0 0 2' \
	'rs 2000 32767 0 1 0' 'rs 3000 7 0 2 1' | "$GEN" "$TMP/src.bin" || exit 1

check() {  # file-name, the "file" value it should read as (Python literal), extra gen tail
	local name=$1 want=$2 path="$TMP/$1"
	cp "$TMP/src.bin" "$path" || { echo "FAIL: cannot create $(printf %q "$name")"; fail=1; return; }
	[ -z "$3" ] || truncate -s "$3" "$path"
	"${XGTRACE[@]}" --cpu-hz 1G -o json "$path" >"$TMP/out.json" 2>"$TMP/err"
	local rc=$?
	[ $rc -le 1 ] || { echo "FAIL $(printf %q "$name"): exit $rc: $(cat "$TMP/err")"; fail=1; return; }
	if ! python3 - "$TMP/out.json" "$TMP/" "$want" <<'PY'
import json, sys, ast
raw = open(sys.argv[1], 'rb').read()
doc = json.loads(raw.decode('utf-8'))            # strict: no lone bytes, no raw controls
want = sys.argv[2] + ast.literal_eval(sys.argv[3])
assert doc['file'] == want, (doc['file'], want)
assert doc['domains'] and doc['domains'][0]['domid'] == 7, doc['domains']
if not doc['complete']:
    assert isinstance(doc['error'], str) and doc['error'], doc
PY
	then
		echo "FAIL $(printf %q "$name"): not valid JSON or the wrong file name:"
		head -c 400 "$TMP/out.json"; echo; fail=1; return
	fi
	echo "ok   $(printf %q "$name")"
}
check $'\xff\xfe.bin' "'\\ufffd\\ufffd.bin'"
check $'caf\xc3\xa9-\xe2\x82.bin' "'caf\\u00e9-\\ufffd\\ufffd.bin'"
check $'q"b\\s\x01\x7f\xc2\x9b.bin' "'q\"b\\\\s\\x01\\x7f\\x9b.bin'"
# A truncated trace: the figures before the fault and the error, still JSON.
check $'cut\xff.bin' "'cut\\ufffd.bin'" 70
exit $fail
