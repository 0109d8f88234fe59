#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# --web-config against curl: TLS with a certificate the test makes, basic
# auth with bcrypt hashes (a wrong or missing password gets 401), plain
# HTTP to the TLS port gets no HTTP answer at all, gzip only when asked,
# the file's extra headers, client certificates (RequireAndVerifyClientCert:
# none or another CA's gets 403), SIGHUP rereads the file (a bad one keeps
# the old configuration and logs one line), and a bad file at start is
# refused with one line naming its line and key.
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/webcfg_lib.sh"

build/tools/xgtop-gen --steady --interval 0.5 --samples 2000 "$tmp/fx.xgrec" >/dev/null
h1=$(bcrypt 'pass one') && h2=$(bcrypt 'pass:two') || fail "crypt(3) made no bcrypt hash"
cat >"$tmp/web.yml" <<YML
# a comment, then YAML's quoting styles
tls_server_config:
  cert_file: srv.crt
  key_file: "$tmp/srv.key"
  min_version: TLS12
basic_auth_users:
  alice: '$h1'
  "bob": $h2
http_server_config:
  headers:
    X-Frame-Options: deny
YML
start_exporter tls --web-config "$tmp/web.yml" --replay "$tmp/fx.xgrec" --speed 1
grep -q "web configuration $tmp/web.yml: TLS, 2 users, 1 extra header" "$tmp/tls.log" ||
	fail "no line saying what the web configuration holds: $(cat "$tmp/tls.log")"
url="https://127.0.0.1:$port/metrics"
# code ARGS...: the HTTP status of GET $url over TLS with curl ARGS.
code() { curl -s -o /dev/null -w '%{http_code}' --max-time 10 --cacert "$tmp/ca.crt" "$@" "$url"; }
wait_until 30 test "$(code -u 'alice:pass one')" = 200 || fail "alice's scrape: $(code -u 'alice:pass one')"
[ "$(code -u 'bob:pass:two')" = 200 ] || fail "bob (a colon in the password) not let in"
[ "$(code -u 'alice:pass two')" = 401 ] || fail "a wrong password is not 401"
[ "$(code -u 'carol:pass one')" = 401 ] || fail "an unknown user is not 401"
[ "$(code)" = 401 ] || fail "no password is not 401"
curl -s -D - -o /dev/null --cacert "$tmp/ca.crt" "$url" | grep -qi '^WWW-Authenticate: Basic' ||
	fail "the 401 does not ask for basic auth"
echo "basic auth: two users let in; wrong password, unknown user and none get 401"

# Plain HTTP to the TLS port: the TLS layer refuses it, no HTTP answer.
out=$(curl -s -i --max-time 10 "http://127.0.0.1:$port/metrics" 2>&1)
rc=$?
[ $rc -ne 0 ] && ! echo "$out" | grep -q '^HTTP/' || fail "plain HTTP got an answer (curl $rc): $out"
echo "plain HTTP to the TLS port: no HTTP answer (curl exit $rc)"

# TLS 1.1 is below min_version.
curl -s -o /dev/null --max-time 10 --cacert "$tmp/ca.crt" --tls-max 1.1 -u 'alice:pass one' "$url" &&
	fail "a TLS 1.1 client was served with min_version TLS12"

# gzip when asked, and only then; the body is the same exposition.
curl -s -D "$tmp/gz.h" -o "$tmp/gz.body" --cacert "$tmp/ca.crt" -u 'alice:pass one' \
	-H 'Accept-Encoding: gzip' "$url" || fail "the gzip scrape failed"
grep -qi '^Content-Encoding: gzip' "$tmp/gz.h" || fail "no gzip when asked: $(cat "$tmp/gz.h")"
grep -qi '^X-Frame-Options: deny' "$tmp/gz.h" || fail "the file's header is missing: $(cat "$tmp/gz.h")"
gzip -dc <"$tmp/gz.body" | grep -q '^xgtop_collector_refreshes_total ' || fail "the gzip body is not the exposition"
curl -s -D "$tmp/id.h" -o "$tmp/id.body" --cacert "$tmp/ca.crt" -u 'alice:pass one' "$url"
grep -qi '^Content-Encoding' "$tmp/id.h" && fail "gzip sent unasked"
grep -q '^xgtop_collector_refreshes_total ' "$tmp/id.body" || fail "the plain body is not the exposition"
grep -qi '^X-Frame-Options: deny' "$tmp/id.h" || fail "the file's header is missing without gzip"
echo "gzip: $(stat -c %s "$tmp/gz.body") bytes for $(stat -c %s "$tmp/id.body"), only when asked"

# SIGHUP: alice's password changes; then a bad file keeps that one.
h3=$(bcrypt 'pass three')
sed -i "s|alice: .*|alice: '$h3'|" "$tmp/web.yml"
kill -HUP "$xpid"
wait_until 30 grep -q "SIGHUP: reread $tmp/web.yml" "$tmp/tls.log" || fail "no reload logged: $(cat "$tmp/tls.log")"
[ "$(code -u 'alice:pass three')" = 200 ] || fail "the new password is refused after SIGHUP"
[ "$(code -u 'alice:pass one')" = 401 ] || fail "the old password still works after SIGHUP"
sed -i 's/min_version: TLS12/min_version: TLS14/' "$tmp/web.yml"
kill -HUP "$xpid"
wait_until 30 grep -q "SIGHUP: --web-config $tmp/web.yml line 5: tls_server_config.min_version: 'TLS14'.*previous web configuration stays" \
	"$tmp/tls.log" || fail "a bad file on SIGHUP is not one line naming line and key: $(tail -n 3 "$tmp/tls.log")"
[ "$(code -u 'alice:pass three')" = 200 ] || fail "a bad file on SIGHUP changed the running configuration"
# A key that is not the certificate's: only the TLS library finds out, when
# the new server starts; the old configuration serves again on the socket.
sed -i 's/min_version: TLS14/min_version: TLS12/' "$tmp/web.yml"
sed -i "s|key_file: .*|key_file: $tmp/client.key|" "$tmp/web.yml"
kill -HUP "$xpid"
wait_until 30 grep -q "SIGHUP: --web-config $tmp/web.yml: the certificate or key is not usable.*previous web configuration stays" \
	"$tmp/tls.log" || fail "a mismatched key on SIGHUP is not told: $(tail -n 3 "$tmp/tls.log")"
[ "$(code -u 'alice:pass three')" = 200 ] || fail "the exporter stopped serving after a mismatched key on SIGHUP"
sed -i "s|key_file: .*|key_file: $tmp/srv.key|" "$tmp/web.yml"
echo "SIGHUP: new password in force; a bad file logged with its line, a mismatched key told, the previous one kept"

# The Debian unit's command with XGTOP_WEB_CONFIG from its defaults file
# (this tree's xgtop instead of /usr/bin/xgtop) serves TLS with the file.
. tests/pkg/unit_exec.sh
mapfile -t argv < <(unit_command contrib/xgtop-exporter.service XGTOP_EXPORT=127.0.0.1:0 \
	"XGTOP_WEB_CONFIG=$tmp/web.yml" "XGTOP_OPTS=--replay $tmp/fx.xgrec --speed 1")
[ "${argv[0]}" = /usr/bin/xgtop ] || fail "unexpected ExecStart: ${argv[*]}"
printf '%s\n' "${argv[@]}" | grep -qx -- "$tmp/web.yml" || fail "the unit does not pass XGTOP_WEB_CONFIG: ${argv[*]}"
./xgtop "${argv[@]:1}" 2>"$tmp/unit.log" &
pids+=($!)
port=$(listen_port "$tmp/unit.log" $!) || fail "the unit's command did not start: $(cat "$tmp/unit.log")"
grep -q "listening on https://" "$tmp/unit.log" || fail "the unit's command does not serve TLS: $(cat "$tmp/unit.log")"
url="https://127.0.0.1:$port/metrics"
wait_until 30 test "$(code -u 'alice:pass three')" = 200 || fail "the unit's exporter refuses alice"
echo "the unit's command: ${argv[*]}"

# Client certificates.
cert rogue rogue
cat >"$tmp/mtls.yml" <<YML
tls_server_config:
  cert_file: srv.crt
  key_file: srv.key
  client_ca_file: ca.crt
  client_auth_type: RequireAndVerifyClientCert
YML
start_exporter mtls --web-config "$tmp/mtls.yml" --replay "$tmp/fx.xgrec" --speed 1
url="https://127.0.0.1:$port/metrics"
wait_until 30 test "$(code --cert "$tmp/client.crt" --key "$tmp/client.key")" = 200 ||
	fail "a client certificate of the CA is not let in: $(code --cert "$tmp/client.crt" --key "$tmp/client.key")"
c=$(code)
[ "$c" = 403 ] || [ "$c" = 000 ] || fail "no client certificate got $c"
c=$(code --cert "$tmp/rogue.crt" --key "$tmp/rogue.key")
[ "$c" = 403 ] || [ "$c" = 000 ] || fail "another CA's client certificate got $c"
echo "client certificates: the CA's let in; none and another CA's refused"

# A bad file at start: exit status 1, one line, its line and key.
bad() {
	local want=$1
	printf '%s\n' "${@:2}" >"$tmp/bad.yml"
	./xgtop --daemon --export 127.0.0.1:0 --web-config "$tmp/bad.yml" --replay "$tmp/fx.xgrec" \
		>"$tmp/bad.out" 2>&1 && fail "xgtop started with a bad file ($want)"
	[ "$(wc -l <"$tmp/bad.out")" = 1 ] && grep -q -- "$want" "$tmp/bad.out" ||
		fail "bad file: wanted one line with '$want', got: $(cat "$tmp/bad.out")"
	echo "refused: $(cat "$tmp/bad.out")"
}
bad "bad.yml line 3: tls_server_config: unknown key 'certfile'" \
	'tls_server_config:' '  key_file: srv.key' '  certfile: srv.crt'
bad "bad.yml line 2: basic_auth_users.alice: not a bcrypt hash" 'basic_auth_users:' '  alice: secret'
bad "bad.yml line 2: tls_server_config.cert_file: file $tmp/none.crt: No such file" \
	'tls_server_config:' '  cert_file: none.crt' '  key_file: srv.key'
bad "bad.yml line 1: top level: unknown key 'basic_auth_user'" 'basic_auth_user:' '  alice: x'
bad "bad.yml line 3: http_server_config.headers: 'Content-Type' is not a header" \
	'http_server_config:' '  headers:' '    Content-Type: text/html'
bad "bad.yml line 3: not YAML: did not find expected" 'tls_server_config:' ' cert_file: [a' '  key_file: b'
bad "bad.yml line 3: basic_auth_users: 'alice' appears twice" 'basic_auth_users:' "  alice: $h1" "  alice: $h2"
bad "bad.yml line 2: tls_server_config: key_file is missing" 'tls_server_config:' '  cert_file: srv.crt'
bad "certificate or key of --web-config" 'tls_server_config:' '  cert_file: srv.crt' '  key_file: client.key'
