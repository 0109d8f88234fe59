# SPDX-License-Identifier: GPL-2.0-or-later
# Starting inputs of each harness, in the layout its comment describes:
# seed_NAME DIR writes them into DIR. Sourced by tests/fuzz/run.sh from the
# top of the tree (xgtop and make tools built).

. tests/listen-port.sh
. tests/wait.sh
nul() { printf '%s\0' "$@"; }   # arguments as a command line holds them

seed_xentrace() {  # first byte = feed piece size, then a trace
	local gen=build/tools/xentrace-gen
	printf 'cpu 0\nrs 100 32767 0 0 1\nrs 100 40 0 1 0\nwrap 3\nrec 0x00082001 - 1 2\ncpu 1\nlost 900 500 3 40 0\nrs 1000 40 0 0 2\ninfprev2 1100 40 5000\ncont 1200 32767 1\n' |
		"$gen" "$1/t.bin" && { printf '\x07'; cat "$1/t.bin"; } >"$1/synthetic"
	rm -f "$1/t.bin"
	local real=$SHARED_DATA/xentrace-csched2-hvm/xentrace.bin
	[ -r "$real" ] && { printf '\x28'; head -c 16384 "$real"; } >"$1/real-head"
	return 0
}

seed_record() {  # first byte odd = a recording file, even = its text
	local s f
	for s in 1 2 3; do
		f=$1/seed$s.xgrec
		build/tools/xgtop-gen --domains $((s * 3)) --samples $((s + 2)) --seed "$s" "$f" >/dev/null || return 1
		{ printf '\001'; cat "$f"; } >"$1/file$s"
		{ printf '\000'; zcat "$f"; } >"$1/text$s"
	done
	# Three gzip members, as a recording appended to twice.
	{ printf '\001'; cat "$1"/seed[123].xgrec; } >"$1/members"
	rm -f "$1"/seed[123].xgrec
	build/tools/xgtop-gen --domains 4 --samples 3 --hosts 2 --vms --pcpus 2 "$1/pool.xgrec" >/dev/null &&
		{ printf '\000'; zcat "$1/pool.xgrec"; } >"$1/text-pool" && rm -f "$1/pool.xgrec"
	# 'w' lines (1.7): wait totals by culprit and length.
	build/tools/xgtop-gen --domains 4 --samples 3 --waits "$1/waits.xgrec" >/dev/null &&
		{ printf '\000'; zcat "$1/waits.xgrec"; } >"$1/text-waits" && rm -f "$1/waits.xgrec"
}

seed_guestpub() {  # publications split by 0xff: time step, key mask (2 x 7 bits), values
	{
		printf '\x64\x7f\x07'
		printf '1\n1764470000000000000\n5000000000\n1000\n100\n7\n900\n1200\npage-faults/context-switches\n'
		printf '\xff\x64\x7f\x07'
		printf '1\n1764470000000000000\n6000000000\n1000\n150\n9\n1900\n2200\npage-faults/context-switches\n'
		printf '\xff\x64\x0f\x04'
		printf '1\n1764470000000000001\n1000\n500\nno PMU in this guest'
	} >"$1/agent"
}

seed_linux() {  # the whole input is one file's text (or a QEMU command line)
	local f i=0
	for f in /proc/self/stat /proc/self/schedstat /proc/self/status /proc/self/io /proc/self/net/dev \
		/proc/self/cgroup /proc/self/mountinfo /proc/meminfo /proc/stat /sys/fs/cgroup/cpu.stat \
		/sys/fs/cgroup/io.stat /sys/fs/cgroup/memory.max; do
		# (i counts here: $((i++)) in the redirection would count in the child)
		[ -r "$f" ] && head -c 8192 "$f" >"$1/file$i" 2>/dev/null && i=$((i + 1))
	done
	grep -m 8 . /proc/cpuinfo >"$1/cpuinfo" 2>/dev/null
	printf 'iff:\ttap0\nflags:\t0100002\n' >"$1/fdinfo"
	nul -name guest=vm1,,x,debug-threads=on -smp cpus=2,sockets=1,cores=2,maxcpus=4 -m size=2G,slots=2 \
		-uuid 00112233-4455-6677-8899-aabbccddeeff -id 101 -accel kvm >"$1/qemu"
	nul -enable-kvm -name plain -smp 4 -m 1.5G -machine pc,accel=tcg >"$1/qemu2"
	printf '/machine.slice/machine-qemu\\x2d3\\x2dweb\\x2d01.scope/libvirt/vcpu0' >"$1/scope-libvirt"
	printf '/qemu.slice/101.scope' >"$1/scope-pve"
	printf 'CPU 3/KVM' >"$1/thread"
}

seed_backends() {  # /proc/net/dev, then 0xff-separated NAME\nTEXT entries
	{
		printf 'Inter-|   Receive                                                |  Transmit\n'
		printf ' face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n'
		printf '    lo: 3267 29 0 0 0 0 0 0 3267 29 0 0 0 0 0 0\n  vif3.0: 1000 5 0 1 0 0 0 0 2000 6 0 0 0 0 0 0\n'
		printf ' web-net: 10 1 0 0 0 0 0 0 20 2 0 0 0 0 0 0\n'
		printf '\xffweb-net\nbackend/vif/4/0\xffvbd-3-51712\n0\n10\n20\n80\n160\xfftap-4-768\n1\n2\n3\n4\n5\n'
	} >"$1/dom0"
	# tapdisk3: kthread-pid 4242, then its page (version 1, eleven u64).
	{
		printf '\xffvbd3-5-768\n4242\n\001\0\0\0\0\0\0\0'
		head -c 88 /dev/zero | tr '\0' '\003'
		printf '\xffvbd3-5-832\n\xffvbd3-6-768\n4243\nshort'
	} >>"$1/dom0"
}

seed_args() {  # argv (NUL-separated), then 0xff and a --vmfile
	{ nul -b -n 2 -d 0.5 --sort wait -o csv --filter ^web --vmfile f; printf '\xffweb-01\n# db\n  db-02  \n'; } >"$1/batch"
	nul --source remote http://xen1:9717/metrics,http://[::1]:9718 --export '[::1]:9717' --daemon >"$1/remote"
	nul --source trace x.bin --window 0.1 --cpu-hz 2.4e9 >"$1/trace"
	nul --replay r.xgrec --record o.xgrec --speed 4 --group vm --nodisk -v >"$1/replay"
	nul report --replay r.xgrec --from +15m --to -1h30m -o csv >"$1/report-relative"
	nul report --replay r.xgrec --from 2026-01-01T10:00+02:00 --to '2026-01-01 10:00:30Z' >"$1/report-iso"
	nul report --source prometheus http://prom:9090 --from 1767261600.5 --to 2026-01-01T10:00:30.25Z \
		--step 3 --filter '^web' --host-match 'xen[12]' -o json >"$1/report-prom"
	nul trace x.bin --cpu-hz 2400M -o json --xenalyze-compat >"$1/trace-cmd"
	nul trace x.bin --behind -o csv --threads 2 >"$1/trace-behind"
}

seed_settings() {  # a settings file
	cat >"$1/full" <<'EOF'
# xgtop settings
sort = wait
reverse = on
delay = 0.5
columns = name,cpu,-mem,wait,blk
disk = off
net = on
cache = on
sumcache = off
sched = on
vcpus = off
meters = on
threshold.cpu = 80 95
unknown.key = kept
EOF
	printf 'delay=2\r\nsort = cpu\r\n' >"$1/crlf"
}

# seed_exporter DIR: Accept header, 0xff, --export address, 0xff, a domain's
# id byte and name, 0xff, a raw HTTP request.
seed_exporter() {
	printf 'application/openmetrics-text;version=1.0.0;q=0.9, text/plain;version=0.0.4;q=0.5\xff127.0.0.1:9717\xff\x05web-01' >"$1/om"
	printf 'text/*;q=0.3, */*\xff[::1]:0\xff\x0bctl\x1b[2J\x07-11' >"$1/escape"
	printf '\xff9717\xff\x01utf8-\xc3(-01 "quoted" back\\slash' >"$1/bytes"
	printf '\xff\xff\x01a\xffGET /metrics HTTP/1.1\r\nHost: x\r\nAccept: application/openmetrics-text\r\n\r\n' >"$1/get"
	printf '\xff\xff\x01a\xffGET / HTTP/1.1\r\nHost: x\r\n\r\nHEAD /metrics HTTP/1.0\r\n\r\nPOST /x HTTP/1.1\r\nContent-Length: 4\r\n\r\nbody' >"$1/pipelined"
	printf '\xff\xff\x01a\xffGET /metrics HTTP/1.1\r\nTransfer-Encoding: chunked\r\nX: %s\r\n\r\n5\r\nab' "$(head -c 600 /dev/zero | tr '\0' a)" >"$1/long-header"
}

# seed_webcfg DIR: an Accept-Encoding header, 0xff, a web configuration
# (c.pem and k.pem are files of the harness's scratch directory).
seed_webcfg() {
	printf 'gzip\xfftls_server_config:\n  cert_file: c.pem\n  key_file: k.pem\n  min_version: TLS13\n  client_ca_file: c.pem\n  client_auth_type: RequireAndVerifyClientCert\n' >"$1/tls"
	printf 'gzip;q=0, *;q=0.5\xffbasic_auth_users:\n  alice: $2y$10$mDwo.lAisC94iLAyP81MCesa29IzH37oigHC/42V2pdJlUprsJPze\n  "bob": '"'"'$2b$04$abcdefghijklmnopqrstuuPp7HPfoAs8I2dCQCQ/fW7zEJv8I8C8e'"'"'\n' >"$1/users"
	printf 'x-gzip\xffhttp_server_config:\n  http2: false\n  headers: {X-Frame-Options: deny, Strict-Transport-Security: "max-age=1"}\ntls_server_config: {cert: "-----BEGIN\\n", key_file: k.pem, cipher_suites: []}\n' >"$1/flow"
	printf '\xff# only a comment\n' >"$1/empty"
	printf 'br\xffa: &x [*x]\n' >"$1/alias"
}

# seed_remote DIR: first byte 0 = an HTTP answer, 1 = exporter text, 2 = a
# hosts file, 3 = a value. The exporter's own answer is taken from a
# replay served on a free loopback port, when the exporter is built in.
seed_promquery() {  # the body of a query API answer (instant or range)
	printf '%s' '{"status":"success","data":{"resultType":"vector","result":[{"metric":{"instance":"127.0.0.1:9717","job":"xgtop","domain":"vm\\x1b1","xgtop_f":"0"},"value":[1796530916.5,"3.8"]},{"metric":{"instance":"h2","xgtop_q":"last"},"value":[1796530916,"1796530915.9"]}]}}' >"$1/vector"
	printf '%s' '{"status":"error","errorType":"bad_data","error":"1:5: parse error: unexpected \u0007"}' >"$1/refused"
	printf '%s' '{"status":"success","data":{"resultType":"matrix","result":[]}}' >"$1/matrix"
	printf '%s' '{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"instance":"h1","domain":"web\\x1b01","xgtop_f":"0"},"values":[[1796540000,"0.25"],[1796540046,"0.75"],[1796540092,"-1"]]},{"metric":{"xgtop_f":"5"},"values":[]}]}}' >"$1/range"
	printf '%s' '{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"NaN"]},{"metric":{"a":"+Inf"},"value":[1,"-1e308"]}]}}' >"$1/special"
}

seed_remote() {
	printf '\002http://xen1:9717/metrics  xen1\n# a comment\nhttp://[::1]:9718 v6\nxen3\n' >"$1/hosts"
	printf '\x031.5e+03' >"$1/value"
	printf '\000HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1f\r\nxgtop_sample_monotonic_seconds \r\n2\r\n1\n\r\n0\r\n\r\n' >"$1/chunked"
	local rec=$1/r.xgrec log=$1/x.log pid port
	build/tools/xgtop-gen --samples 3 --vms "$rec" >/dev/null || return 1
	# (at the recorded pace: the daemon exits after its last sample, 2 s in)
	./xgtop --daemon --export 127.0.0.1:0 --replay "$rec" --speed 1 2>"$log" &
	pid=$!
	if port=$(listen_port "$log" "$pid"); then
		# the answer once two samples are served (rates need two)
		served_two() {
			[ "$(curl -s --max-time 5 "http://127.0.0.1:$port/metrics" |
				sed -n 's/^xgtop_collector_refreshes_total //p')" -ge 2 ] 2>/dev/null
		}
		wait_until 30 served_two || echo "seeds: the exporter served fewer than 2 refreshes in 30 s" >&2
		{ printf '\000'; curl -si --max-time 5 "http://127.0.0.1:$port/metrics"; } >"$1/answer"
		{ printf '\001'; curl -s --max-time 5 -H 'Accept: application/openmetrics-text' "http://127.0.0.1:$port/metrics"; } >"$1/openmetrics"
	fi
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	rm -f "$rec" "$log"
	return 0
}

seed_names() {  # column width, locale (even: UTF-8), the name
	printf '\x28\x00Domain-0' >"$1/plain"
	printf '\x28\x00ctl\x1b[2J\x07-11 del\x7f back\\slash' >"$1/controls"
	printf '\x0b\x00utf8-\xc3(-01 \xc0\xaf \xed\xa0\x80 ok\xe6\x97' >"$1/invalid"
	printf '\x05\x00\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e caf\xc3\xa9 e\xcc\x81 a\xc2\x9b2J x\xe2\x80\xaey' >"$1/wide"
	printf '\x28\x01caf\xc3\xa9 \xe6\x97\xa5' >"$1/c-locale"
}

# seed_xenstore DIR: pieces split by 0xff; 0xfe then a mode byte = a
# refresh; else a byte for domain (k % 3 + 1) and key (k / 3), then the value.
seed_xenstore() {
	local keys=(version epoch time_ns interval_ms llc_ref llc_miss instr cycles events why)
	xs_put() {  # DOMAIN KEY VALUE
		local k i
		for i in "${!keys[@]}"; do [ "${keys[$i]}" = "$2" ] && k=$(( $1 - 1 + 3 * i )); done
		printf "\\x$(printf %02x "$k")%s\xff" "$3"
	}
	{
		xs_put 1 version 1; xs_put 1 epoch 1764470000000000000; xs_put 1 time_ns 1000000000
		xs_put 1 interval_ms 1000; xs_put 1 llc_ref 100; xs_put 1 llc_miss 5
		xs_put 1 events page-faults/context-switches; printf '\xfe\x00\xff'
		xs_put 1 time_ns 2000000000; xs_put 1 llc_ref 110; xs_put 1 llc_miss 6; printf '\xfe\x00\xff'
		xs_put 2 version 1; xs_put 2 epoch 1; xs_put 2 time_ns 99999999999999999999999; xs_put 2 llc_ref -5
		xs_put 2 events "$(printf 'esc\x1b[2J')"; printf '\xfe\x01\xff'
		xs_put 1 time_ns 3000000000; xs_put 1 llc_ref 120; printf '\xfe\x02\xff\xfe\x03\xff\xfe\x04\xff'
		xs_put 1 epoch 1764470000000000001; xs_put 1 llc_ref 7; printf '\xfe\x00\xff'
		printf '\x1e\xff\xfe\x00'
	} >"$1/agents"
}
