#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Format 1.5: the pressure fields (psi_cpu_some_ns .. psi_io_full_ns) and
# the host's pressure flag survive recording. The generator's known
# pressure pattern comes back on screen (the flag shows the pressure
# columns), in xgtop report, and from the independent Python reader; the
# real xgtop re-records fields and flag; and a 1.4 recording (its 'fields'
# line ends at swap_bytes) replays as one without pressure, columns hidden.
. "$(dirname "$0")/lib.sh"

"$gen" --domains 14 --samples 8 --steady --psi "$d/psi.xgrec" || exit 1
zcat "$d/psi.xgrec" | head -n 2 >"$d/hdr"
head -n 1 "$d/hdr" | grep -q $'^xgtop-recording\t1\t7\t' || { echo "FAIL: not format 1.7"; exit 1; }
sed -n 2p "$d/hdr" | grep -q $'\tswap_bytes\tpsi_cpu_some_ns\tpsi_cpu_full_ns\tpsi_memory_some_ns\tpsi_memory_full_ns\tpsi_io_some_ns\tpsi_io_full_ns\tbehind_wait_ns\tbehind_top_ns\tbehind_top_id\twait_p50_ns\twait_p99_ns$' ||
	{ echo "FAIL: the fields line does not end in the pressure fields, then 1.6's wait fields"; exit 1; }

# On screen (CSV): domain i has CPU-P% 2 (i mod 5), MEM-P% i mod 3, IO-P%
# i mod 4, CPU-F% and IO-F% half of theirs, MEM-F% 0 (doc/recording.md).
./xgtop -b --replay "$d/psi.xgrec" --speed 0 -o csv >"$d/psi.csv" || { echo "FAIL: replay"; exit 1; }
bad=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["cpu_pressure_pct"] == "" { next }
	{ n++; id = $c["id"]
	  want[1] = 2 * (id % 5); want[2] = id % 3; want[3] = id % 4
	  want[4] = want[1] / 2; want[5] = 0; want[6] = want[3] / 2
	  got[1] = $c["cpu_pressure_pct"]; got[2] = $c["memory_pressure_pct"]; got[3] = $c["io_pressure_pct"]
	  got[4] = $c["cpu_pressure_full_pct"]; got[5] = $c["memory_pressure_full_pct"]; got[6] = $c["io_pressure_full_pct"]
	  for (k = 1; k <= 6; k++) if (got[k] - want[k] > 0.001 || want[k] - got[k] > 0.001) print k ": " $0 }
	END { if (n < 80) print "only " n " rows with pressure rates" }' "$d/psi.csv")
[ -z "$bad" ] && echo "known pressure pattern in $(($(wc -l <"$d/psi.csv") - 1)) CSV rows" ||
	{ echo "FAIL: pressure figures: $bad" | head -n 5; fail=1; }

# xgtop report: the mean CPU-P% of domain 4 (id 4: 8 %).
./xgtop report --replay "$d/psi.xgrec" -o csv >"$d/rep.csv" 2>"$d/rep.err" || { echo "FAIL: report"; cat "$d/rep.err"; exit 1; }
m=$(awk -F, '$1 == 4 && $5 == "cpu_pressure_pct" { print $7 }' "$d/rep.csv")
awk -v m="$m" 'BEGIN { exit !(m != "" && m - 8 < 0.001 && 8 - m < 0.001) }' &&
	echo "report: mean CPU-P% of domain 4 is $m" || { echo "FAIL: report's CPU-P% of domain 4 is '$m', not 8"; fail=1; }

# Without --psi nothing measures pressure, and the columns stay hidden.
"$gen" --domains 14 --samples 8 --steady "$d/plain.xgrec" || exit 1
./xgtop -b --replay "$d/plain.xgrec" --speed 0 -o csv >"$d/plain.csv" || { echo "FAIL: replay"; exit 1; }
head -n 1 "$d/plain.csv" | grep -q pressure && { echo "FAIL: pressure columns without the flag"; fail=1; }

if command -v python3 >/dev/null; then
	"$gen" --dump "$d/psi.xgrec" >"$d/c.tsv" && python3 tests/record/read_xgrec.py "$d/psi.xgrec" >"$d/py.tsv" ||
		{ echo "FAIL: python reader"; exit 1; }
	cmp -s "$d/c.tsv" "$d/py.tsv" && echo "python reader agrees: $(($(wc -l <"$d/c.tsv") - 1)) rows" ||
		{ echo "FAIL: the Python reader disagrees"; diff "$d/c.tsv" "$d/py.tsv" | head -n 6; fail=1; }
fi

# Re-recorded by the real xgtop: same values, and the flag.
./xgtop -b --replay "$d/psi.xgrec" --speed 0 --record "$d/re.xgrec" >/dev/null || { echo "FAIL: replay"; exit 1; }
"$gen" --dump "$d/psi.xgrec" >"$d/a.tsv" && "$gen" --dump "$d/re.xgrec" >"$d/b.tsv" || exit 1
./xgtop -b --replay "$d/re.xgrec" --speed 0 -o csv >"$d/re.csv" || fail=1
if cmp -s "$d/a.tsv" "$d/b.tsv" && cmp -s "$d/psi.csv" "$d/re.csv"; then
	echo "re-recorded: $(($(wc -l <"$d/a.tsv") - 1)) domain-samples and the CSV identical"
else
	echo "FAIL: the re-recording differs"; diff "$d/a.tsv" "$d/b.tsv" | head -n 4; fail=1
fi

# A 1.4 recording: psi.xgrec written as xgtop 1.4 wrote it, without the
# six fields and the flag (header, 'S' and 'd' lines, CRCs recomputed). It
# reads as plain.xgrec's twin: the same values but pressure not measured.
command -v python3 >/dev/null || { echo "SKIP: no python3 to write a 1.4 recording"; exit 77; }
python3 - "$d/psi.xgrec" "$d/v14.xgrec" <<'EOF' || { echo "FAIL: could not write a 1.4 recording"; exit 1; }
import gzip, sys, zlib
out, crc = [], 0
first = 9 + 36                           # d: 9 columns, then the fields; psi_cpu_some_ns is field 36
for line in gzip.open(sys.argv[1], "rb").read().split(b"\n")[:-1]:
    c = line.split(b"\t")
    if c[0] == b"xgtop-recording":
        c[2] = b"4"
    elif c[0] == b"fields":
        assert c[37:43] == [b"psi_cpu_some_ns", b"psi_cpu_full_ns", b"psi_memory_some_ns",
                            b"psi_memory_full_ns", b"psi_io_some_ns", b"psi_io_full_ns"]
        c = c[:37]                        # (and 1.6's wait fields after them)
    elif c[0] == b"S":
        crc = 0
        if len(c) > 11 and c[11]:         # valid: the pressure flag goes
            c[11] = b"%x" % (int(c[11], 16) & ~(1 << 6))
    elif c[0] == b"d":
        if c[3]:                          # valid: the pressure bits go
            c[3] = b"%x" % (int(c[3], 16) & ((1 << 36) - 1))
        assert all(x == b"" for x in c[first + 6:first + 11])   # 1.6's waits: not measured
        c = c[:first] + c[first + 11:]
    if c[0] == b"E":
        c[1] = b"%08x" % crc
    line = b"\t".join(c)
    if c[0] not in (b"xgtop-recording", b"fields", b"pmu", b"E"):
        crc = zlib.crc32(line + b"\n", crc)
    out.append(line + b"\n")
gzip.open(sys.argv[2], "wb").write(b"".join(out))
EOF
zcat "$d/v14.xgrec" | sed -n 2p | grep -q $'\tswap_bytes$' || { echo "FAIL: the 1.4 file still has the pressure fields"; exit 1; }
"$gen" --dump "$d/v14.xgrec" >"$d/v14.tsv" || { echo "FAIL: the 1.4 recording does not read"; exit 1; }
./xgtop -b --replay "$d/v14.xgrec" --speed 0 -o csv >"$d/v14.csv" || fail=1
# its dump: psi.xgrec's values with the six pressure columns '-' (before
# 1.6's five wait columns and the socket column)
awk -F'\t' 'BEGIN { OFS = "\t" } NR > 1 { for (i = NF - 11; i < NF - 5; i++) $i = "-" } { print }' "$d/a.tsv" >"$d/want.tsv"
if cmp -s "$d/want.tsv" "$d/v14.tsv" && cmp -s "$d/plain.csv" "$d/v14.csv"; then
	echo "a 1.4 recording replays: $(($(wc -l <"$d/v14.tsv") - 1)) domain-samples, pressure not measured, columns hidden"
else
	echo "FAIL: the 1.4 recording reads differently"; diff "$d/want.tsv" "$d/v14.tsv" | head -n 4
	diff "$d/plain.csv" "$d/v14.csv" | head -n 4; fail=1
fi
exit $fail
