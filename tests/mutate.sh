#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Mutation check: applies small deliberate bugs to a copy of the tree, one
# at a time, rebuilds it and runs test suites on it; each bug must make at
# least one test fail. The bugs are ones a mutation check once found
# passing unnoticed (doc: README "Reliability and security").
# Usage: tests/mutate.sh [--full] [NAME...]
#   default suites: unit batch record trace, which need neither root nor
#   anything a CI machine may lack; --full: every suite (as make check).
#   MUTATE_SUITES="..." picks others. NAME: only these mutations.
# Exit 0 when every mutation was caught and the unmutated copy passes.
# Takes about a minute per mutation; run it under /work/test.lock's
# flock like the whole suite.
cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD
. tests/shared-data.sh
export XGTOP_SHARED_DATA=$SHARED_DATA   # the copy has no git to find it with
unset CI                                # a skip is no catch, but no failure either

suites=${MUTATE_SUITES:-unit batch record trace}
if [ "$1" = --full ]; then
	suites=""
	shift
fi

# name|file|text|replacement|what the bug is (no '|' inside a field)
mutations=(
"wait-blk|src/compute/metrics.c|[XG_RS_RUNNABLE] = XG_COL_WAIT,
		[XG_RS_BLOCKED] = XG_COL_BLK,|[XG_RS_RUNNABLE] = XG_COL_BLK,
		[XG_RS_BLOCKED] = XG_COL_WAIT,|WAIT and BLK columns swapped"
"net-rx-tx|src/compute/metrics.c|XG_COL_NET_RX, XG_F_NET_RX_BYTES|XG_COL_NET_RX, XG_F_NET_TX_BYTES|NET-RX shows the transmitted bytes"
"sort-ties|src/view/view.c|r = (ia > ib) - (ia < ib);|r = (ia < ib) - (ia > ib);|text sorts (--sort state) break ties in reverse id order"
"trace-native-wait-blk|src/trace/xentrace_account.c|v->cyc[v->state] += tsc - v->since;|v->cyc[v->state == XT_RUNNABLE ? XT_BLOCKED : v->state == XT_BLOCKED ? XT_RUNNABLE : v->state] += tsc - v->since;|native trace accounting counts runnable as blocked and back"
"torn-tail|src/record/record_write.c|	if (!t->unterminated)
		return 0;|	if (t)
		return 0;|appending to a recording no longer repairs a torn tail"
"name-escape|src/core/common.c|if (l == 1 && (*s < 0x20 |if (l == 1 && (*s < 0x1b |names keep ESC and the controls above it (terminal escapes in batch output)"
)

want=("$@")
copy=build/mutate
rm -rf "$copy"
mkdir -p "$copy/build"
git ls-files -co --exclude-standard -z | cpio -0pdm --quiet "$copy" || exit 2
# The built tree as it is, times kept, so each mutation rebuilds only what
# its file touches; with the flags it was built with (build/CFLAGS and
# LDFLAGS), so it is reused when they are the copy's too.
cp -a build/obj build/libxgtop.a build/tests build/tools build/CFLAGS build/LDFLAGS "$copy/build/" 2>/dev/null
[ -e xgtop ] && cp -a xgtop "$copy/"
cd "$copy" || exit 2
units=$(ls tests/unit/*/test_*.c | sed 's|^tests/unit/|build/tests/|; s|\.c$||')

build() { make -j2 CI=1 xgtop tools $units >build.log 2>&1 || { tail -n 20 build.log; return 1; }; }
# run_suites: the names of the failed tests, or "" when all passed
run_suites() {
	tests/run.sh $suites >suites.log 2>&1
	sed -n 's/^failed: //p' suites.log
}

t0=$SECONDS
build || { echo "FAIL: the unmutated copy does not build"; exit 1; }
failed=$(run_suites)
if [ -n "$failed" ] || ! tail -n 1 suites.log | grep -q ' 0 failed'; then
	echo "FAIL: the unmutated copy fails: $failed"
	exit 1
fi
echo "unmutated: $(tail -n 1 suites.log) ($((SECONDS - t0)) s)"

missed=0 caught=0
for m in "${mutations[@]}"; do
	IFS='|' read -r -d '' name file from to what <<<"$m"
	what=${what%$'\n'}
	if [ ${#want[@]} -gt 0 ] && [[ " ${want[*]} " != *" $name "* ]]; then
		continue
	fi
	t0=$SECONDS
	cp -p "$file" "$file.orig"
	FROM=$from TO=$to perl -0pi -e 's/\Q$ENV{FROM}\E/$ENV{TO}/' "$file"
	if cmp -s "$file" "$file.orig"; then
		echo "STALE $name: '$from' is no longer in $file: update tests/mutate.sh"
		missed=$((missed + 1))
		mv "$file.orig" "$file"
		continue
	fi
	if build; then
		failed=$(run_suites)
		if [ -n "$failed" ]; then
			caught=$((caught + 1))
			printf 'CAUGHT %-22s %s (%d s)\n       by: %s\n' "$name" "$what" $((SECONDS - t0)) "$failed"
		else
			missed=$((missed + 1))
			printf 'MISSED %-22s %s: suites %s all pass\n' "$name" "$what" "${suites:-(all)}"
		fi
	else
		echo "FAIL: mutation $name does not build: update tests/mutate.sh"
		missed=$((missed + 1))
	fi
	mv "$file.orig" "$file"
	touch "$file"   # older than the mutated objects: make must see it changed
done
echo "$caught caught, $missed missed"
[ $missed -eq 0 ]
