#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# -o text on this host: three blocks separated by a blank line, each a
# summary and a table whose columns line up.
. "$(dirname "$0")/common.sh"
./xgtop -b -n 3 -d 0.2 -o text >"$tmp/out" 2>"$tmp/err" || fail "exit $?: $(cat "$tmp/err")"
python3 - "$tmp/out" <<'PY' || exit 1
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
blocks = text.rstrip("\n").split("\n\nxgtop - ")
assert len(blocks) == 3, "want 3 blocks, got %d" % len(blocks)
for b in blocks:
    summary, table = b.split("\n\n", 1)
    s = summary.split("\n")
    assert len(s) == 4 and s[1].startswith("Domains: ") and s[3].startswith("Interval: "), s
    lines = table.split("\n")
    head, rows = lines[0], lines[1:]
    assert rows, "no rows"
    assert re.match(r"\s*ID NAME", head), head
    # Numeric headers are right-aligned: every row ends a cell where the
    # header word ends, and the next character is the column gap.
    for m in re.finditer(r"\S+", head):
        if m.group() in ("NAME", "STATE", "BEHIND"):   # text: left-aligned
            continue
        e = m.end()
        for r in rows:
            assert len(r) >= e and r[e - 1] != " ", "column %s: %r" % (m.group(), r)
            assert len(r) == e or r[e] == " ", "column %s: %r" % (m.group(), r)
print("ok: 3 aligned blocks")
PY
