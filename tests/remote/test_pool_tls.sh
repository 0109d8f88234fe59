#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The pool view (libcurl) against exporters with --web-config (TLS with
# the test's own CA, basic auth with bcrypt hashes, one of them wanting a
# client certificate), named in a hosts file whose default line gives the
# CA and a shared user, and whose own lines add a client certificate or
# another password:
#  - alpha (the default line's user) and beta (plus a client certificate)
#    show their domains with figures;
#  - gamma (a wrong password) shows no domain (a host that never answered
#    has no rows to carry a reason: the pool view tells none yet);
#  - a hosts file with an unknown key is refused with its line.
cd "$(dirname "$0")/../.." || exit 2
. tests/remote/lib.sh
[ -x ./xgtop ] && [ -x "$POOL_GEN" ] || { echo "SKIP: build xgtop and the tools first (make; make tools)"; exit 77; }
./xgtop --help | grep -q -- --export || { echo "SKIP: built without libmicrohttpd: no exporter to read"; exit 77; }
TMP=$(mktemp -d)
tmp=$TMP
trap 'pool_cleanup; rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
. tests/exporter/webcfg_lib.sh
make_recs "$TMP" || fail "xgtop-gen failed"

hash=$(bcrypt 'pool pass')
printf 'pool pass\n' >"$TMP/pass"
printf 'not it\n' >"$TMP/wrong"
web() {  # web FILE [client]: TLS and the pool user, with client certificates if asked
	{
		printf 'tls_server_config:\n  cert_file: %s\n  key_file: %s\n' "$TMP/srv.crt" "$TMP/srv.key"
		[ -n "$2" ] && printf '  client_ca_file: %s\n  client_auth_type: RequireAndVerifyClientCert\n' "$TMP/ca.crt"
		printf 'basic_auth_users:\n  pool: %s\n' "$hash"
	} >"$1"
}
web "$TMP/a.yml"
web "$TMP/b.yml" client
# tls_exporter PORT REC WEB: an exporter serving TLS; waits until it answers.
tls_answers() {
	curl -s -o /dev/null --max-time 2 --cacert "$TMP/ca.crt" --cert "$TMP/client.crt" --key "$TMP/client.key" \
		-u 'pool:pool pass' -w '%{http_code}' "https://127.0.0.1:$1/metrics" | grep -q 200
}
tls_exporter() {
	./xgtop --replay "$2" --export "127.0.0.1:$1" --web-config "$3" --daemon --speed 4 2>>"$TMP/exporters.log" &
	pool_pids+=($!)
	wait_until 30 tls_answers "$1" || { cat "$TMP/exporters.log"; fail "the TLS exporter on port $1 did not answer"; }
}
pa=$(free_port) && tls_exporter "$pa" "$TMP/a.xgrec" "$TMP/a.yml"
pb=$(free_port) && tls_exporter "$pb" "$TMP/b.xgrec" "$TMP/b.yml"
pc=$(free_port) && tls_exporter "$pc" "$TMP/b.xgrec" "$TMP/a.yml"

cat >"$TMP/hosts" <<EOF2
# the CA and a user for every host without its own
default ca_file=$TMP/ca.crt user=pool password_file=$TMP/pass
https://127.0.0.1:$pa alpha
https://127.0.0.1:$pb beta cert_file=$TMP/client.crt key_file=$TMP/client.key
https://127.0.0.1:$pc gamma user=pool password_file=$TMP/wrong
EOF2
./xgtop --hosts "$TMP/hosts" -b -o json -n 3 -d 0.5 >"$TMP/run.json" 2>"$TMP/run.err" ||
	fail "the pool view failed: $(cat "$TMP/run.err")"
python3 - "$TMP/run.json" <<'PY' || fail "the pool view's rows are not as expected (above)"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
last = lines[-1]
doms = last.get("domains", last.get("rows", []))
hosts = {}
for d in doms:
    hosts.setdefault(d.get("host"), []).append(d)
print({h: len(v) for h, v in hosts.items()})
assert len(hosts.get("alpha", [])) >= 10, "alpha (TLS, the default user) does not show its domains"
assert len(hosts.get("beta", [])) == 5, "beta (TLS, client certificate) does not show its 5 domains"
assert "gamma" not in hosts, "gamma (wrong password) shows domains"
assert all(d["cpu_pct"] is not None for d in hosts["alpha"] + hosts["beta"]), "figures missing"
PY
echo "alpha (default line's CA and user) and beta (client certificate) read over TLS"
# gamma's exporter changes its password (SIGHUP) under a running pool view
# that reads it with the default user: its rows go stale, the reason the 401
# (-d 2: each wrong password costs the exporter a bcrypt, tens of ms).
web "$TMP/c.yml"
pd=$(free_port) && tls_exporter "$pd" "$TMP/b.xgrec" "$TMP/c.yml"
printf 'default ca_file=%s user=pool password_file=%s\nhttps://127.0.0.1:%s delta\n' "$TMP/ca.crt" "$TMP/pass" "$pd" \
	>"$TMP/hosts2"
./xgtop --hosts "$TMP/hosts2" -b -o json -n 60 -d 2 >"$TMP/run2.json" 2>"$TMP/run2.err" &
viewer=$!
pool_pids+=($viewer)
rows_seen() { grep -q '"delta"' "$TMP/run2.json"; }
wait_until 30 rows_seen || fail "delta never shown: $(cat "$TMP/run2.err")"
sed -i "s|pool: .*|pool: $(bcrypt 'changed')|" "$TMP/c.yml"
kill -HUP "${pool_pids[-2]}"
said_401() { grep -q 'delta: no answer: HTTP 401' "$TMP/run2.json"; }
wait_until 60 said_401 || fail "delta's 401 not given as the reason: $(tail -c 600 "$TMP/run2.json")"
kill "$viewer"
echo "delta after its password changed: $(grep -o 'host delta: no answer: HTTP 401[^"(]*' "$TMP/run2.json" | head -1)"

# --cacert for URLs given on the command line (an exporter with TLS and no
# users): its domains with it; without it, the system's CAs refuse the
# test's certificate and no domain shows.
printf 'tls_server_config:\n  cert_file: %s\n  key_file: %s\n' "$TMP/srv.crt" "$TMP/srv.key" >"$TMP/e.yml"
pe=$(free_port) && tls_exporter "$pe" "$TMP/b.xgrec" "$TMP/e.yml"
./xgtop --source remote "https://127.0.0.1:$pe" --cacert "$TMP/ca.crt" -b -o csv -n 2 -d 0.5 >"$TMP/e.csv" 2>&1 ||
	fail "--cacert: $(cat "$TMP/e.csv")"
[ "$(grep -c "127.0.0.1:$pe," "$TMP/e.csv")" -ge 5 ] || fail "--cacert: the host's 5 domains are not shown: $(head -5 "$TMP/e.csv")"
./xgtop --source remote "https://127.0.0.1:$pe" -b -o csv -n 2 -d 0.5 >"$TMP/e2.csv" 2>&1
grep -q "127.0.0.1:$pe," "$TMP/e2.csv" && fail "without --cacert the test CA's certificate was taken"
echo "--cacert: the command line's https URL read with the test CA, and refused without it"

printf 'https://127.0.0.1:%s alpha ca=%s\n' "$pa" "$TMP/ca.crt" >"$TMP/badhosts"
out=$(./xgtop --hosts "$TMP/badhosts" -b -n 1 2>&1) && fail "a hosts file with an unknown key was taken"
echo "$out" | grep -q "line 1: unknown key 'ca'" || fail "the unknown key is not named with its line: $out"
echo "refused: $out"
