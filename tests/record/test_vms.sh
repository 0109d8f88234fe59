#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Format 1.4: the VM fields (emu_ns vm_exits halt_poll_ns swap_bytes) and
# the host's VM flag survive recording. The generator's known VM pattern
# comes back on screen (the flag shows the vm columns); the independent
# Python reader decodes the same values; the real xgtop re-records them
# and the flag; a recording written before the fields existed (1.3: its
# 'fields' line ends at ssid) replays as one whose VM fields are not
# measured; and a recording of the KVM work's first builds, which appended
# the same fields under 1.2, replays with them.
. "$(dirname "$0")/lib.sh"

"$gen" --domains 14 --samples 8 --steady --vms "$d/vms.xgrec" || exit 1
zcat "$d/vms.xgrec" | head -n 2 >"$d/hdr"
head -n 1 "$d/hdr" | grep -q $'^xgtop-recording\t1\t[4-9]\t' || { echo "FAIL: not format 1.4 or later"; exit 1; }
sed -n 2p "$d/hdr" | grep -q $'\tssid\temu_ns\tvm_exits\thalt_poll_ns\tswap_bytes\(\t\|$\)' ||
	{ echo "FAIL: the VM fields do not follow ssid on the fields line"; exit 1; }

# On screen (CSV): domain i has EMU% 1 + i mod 4, EXITS/s 1000 (1 + i mod 5),
# POLL% 2 (i mod 3), SWAP (i mod 4) 64 MiB, in every interval it has rates.
./xgtop -b --replay "$d/vms.xgrec" --speed 0 -o csv >"$d/vms.csv" || { echo "FAIL: replay"; exit 1; }
bad=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["emu_pct"] == "" { next }
	{ n++; id = $c["id"]; want[1] = 1 + id % 4; want[2] = 1000 * (1 + id % 5); want[3] = 2 * (id % 3)
	  got[1] = $c["emu_pct"]; got[2] = $c["vm_exits_ps"]; got[3] = $c["halt_poll_pct"]
	  for (k = 1; k <= 3; k++) if (got[k] - want[k] > 0.001 || want[k] - got[k] > 0.001) print
	  if ($c["swap_bytes"] != (id % 4) * 67108864) print }
	END { if (n < 80) print "only " n " rows with VM rates" }' "$d/vms.csv")
[ -z "$bad" ] && echo "known VM pattern in $(($(wc -l <"$d/vms.csv") - 1)) CSV rows" ||
	{ echo "FAIL: VM figures: $bad" | head -n 5; fail=1; }

# Without --vms nothing measures them, and the vm columns stay hidden.
"$gen" --domains 14 --samples 8 --steady "$d/xen.xgrec" || exit 1
./xgtop -b --replay "$d/xen.xgrec" --speed 0 -o csv >"$d/xen.csv" || { echo "FAIL: replay"; exit 1; }
head -n 1 "$d/xen.csv" | grep -q emu_pct && { echo "FAIL: vm columns without the VM flag"; fail=1; }
"$gen" --dump "$d/xen.xgrec" | awk -F'\t' 'NR > 1 && ($38 != "-" || $41 != "-") { bad = 1 } END { exit bad }' ||
	{ echo "FAIL: VM fields measured without --vms"; fail=1; }

if command -v python3 >/dev/null; then
	"$gen" --dump "$d/vms.xgrec" >"$d/c.tsv" && python3 tests/record/read_xgrec.py "$d/vms.xgrec" >"$d/py.tsv" ||
		{ echo "FAIL: python reader"; exit 1; }
	cmp -s "$d/c.tsv" "$d/py.tsv" && echo "python reader agrees: $(($(wc -l <"$d/c.tsv") - 1)) rows" ||
		{ echo "FAIL: the Python reader disagrees"; diff "$d/c.tsv" "$d/py.tsv" | head -n 6; fail=1; }
else
	echo "note: no python3, skipped the independent reader"
fi

# Re-recorded by the real xgtop: same values, and the flag (the replay of
# the re-recording shows the vm columns).
./xgtop -b --replay "$d/vms.xgrec" --speed 0 --record "$d/re.xgrec" >/dev/null || { echo "FAIL: replay"; exit 1; }
"$gen" --dump "$d/vms.xgrec" >"$d/a.tsv" && "$gen" --dump "$d/re.xgrec" >"$d/b.tsv" || exit 1
./xgtop -b --replay "$d/re.xgrec" --speed 0 -o csv >"$d/re.csv" || fail=1
if cmp -s "$d/a.tsv" "$d/b.tsv" && cmp -s "$d/vms.csv" "$d/re.csv"; then
	echo "re-recorded: $(($(wc -l <"$d/a.tsv") - 1)) domain-samples and the CSV identical"
else
	echo "FAIL: the re-recording differs"; diff "$d/a.tsv" "$d/b.tsv" | head -n 4; fail=1
fi

# A 1.3 recording: the same samples as xen.xgrec, written without the four
# fields and those of later versions (header and 'd' lines, CRCs
# recomputed), reads and replays alike.
command -v python3 >/dev/null || { echo "SKIP: no python3 to write a 1.3 recording"; exit $fail; }
python3 - "$d/xen.xgrec" "$d/v13.xgrec" <<'EOF' || { echo "FAIL: could not write a 1.3 recording"; exit 1; }
import gzip, sys, zlib
out, crc, first = [], 0, 9 + 32          # d: 9 columns, then the fields; emu_ns is field 32
for line in gzip.open(sys.argv[1], "rb").read().split(b"\n")[:-1]:
    c = line.split(b"\t")
    if c[0] == b"xgtop-recording":
        c[2] = b"3"
    elif c[0] == b"fields":
        assert c[33:37] == [b"emu_ns", b"vm_exits", b"halt_poll_ns", b"swap_bytes"]
        c = c[:33]
    elif c[0] == b"d":
        assert all(x == b"" for x in c[first + 4:first + 15])   # 1.5's pressure, 1.6's waits: not measured
        c = c[:first] + c[first + 15:]                          # (the PMU slots follow)
    if c[0] == b"S":
        crc = 0
    if c[0] == b"E":
        c[1] = b"%08x" % crc
    line = b"\t".join(c)
    if c[0] not in (b"xgtop-recording", b"fields", b"pmu", b"E"):
        crc = zlib.crc32(line + b"\n", crc)
    out.append(line + b"\n")
gzip.open(sys.argv[2], "wb").write(b"".join(out))
EOF
zcat "$d/v13.xgrec" | sed -n 2p | grep -q $'\tssid$' || { echo "FAIL: the 1.3 file still has the VM fields"; exit 1; }
"$gen" --dump "$d/xen.xgrec" >"$d/a.tsv" && "$gen" --dump "$d/v13.xgrec" >"$d/b.tsv" ||
	{ echo "FAIL: the 1.3 recording does not read"; exit 1; }
./xgtop -b --replay "$d/v13.xgrec" --speed 0 -o csv >"$d/v13.csv" || fail=1
if cmp -s "$d/a.tsv" "$d/b.tsv" && cmp -s "$d/xen.csv" "$d/v13.csv"; then
	echo "a 1.3 recording replays: $(($(wc -l <"$d/a.tsv") - 1)) domain-samples, VM fields not measured"
else
	echo "FAIL: the 1.3 recording reads differently"; diff "$d/a.tsv" "$d/b.tsv" | head -n 4; fail=1
fi

# The KVM work's first builds: the same fields and flag under 1.2.
zcat "$d/vms.xgrec" | sed '1s/^xgtop-recording\t1\t[4-9]\t/xgtop-recording\t1\t2\t/' | gzip >"$d/v12.xgrec"
"$gen" --dump "$d/v12.xgrec" >"$d/b.tsv" || { echo "FAIL: the 1.2 VM recording does not read"; exit 1; }
./xgtop -b --replay "$d/v12.xgrec" --speed 0 -o csv >"$d/v12.csv" || fail=1
if "$gen" --dump "$d/vms.xgrec" | cmp -s - "$d/b.tsv" && cmp -s "$d/vms.csv" "$d/v12.csv"; then
	echo "a 1.2-labelled VM recording replays with its VM figures"
else
	echo "FAIL: the 1.2-labelled VM recording reads differently"; fail=1
fi
exit $fail
