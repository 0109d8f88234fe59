#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# NEWS.md is the user-facing changelog: its first section is the version
# `xgtop --version` names (and --version points at that section), each
# section's entries sit under the headings of what changed (Keys, Display,
# Options, Columns, Metrics, Settings file, File formats), and every
# option, key and settings key it names as new or changed exists: in
# --help for options and keys, in the settings code for settings keys.
set -u
cd "$(dirname "$0")/../.." || exit 2
[ -x ./xgtop ] || { echo "no ./xgtop binary (make)"; exit 77; }
[ -f NEWS.md ] || { echo "no NEWS.md"; exit 1; }
fail=0
ver=$(./xgtop --version | sed -n '1s/^xgtop //p')
[ -n "$ver" ] || { echo "xgtop --version names no version"; exit 1; }
first=$(grep -m1 '^## ' NEWS.md | sed 's/^## //; s/ .*//')
[ "$first" = "$ver" ] || { echo "NEWS.md's first section is '$first', xgtop --version says '$ver'"; fail=1; }
./xgtop --version | grep -qx "what changed in it: NEWS.md, section $ver" ||
	{ echo "xgtop --version does not point at NEWS.md's section $ver"; fail=1; }
# Headings under a version: only the kinds of change.
bad=$(grep '^### ' NEWS.md | sed 's/^### //' |
	grep -vxE 'Keys|Display|Options|Columns|Metrics|Settings file|File formats|Removed')
[ -z "$bad" ] || { echo "NEWS.md: headings that are no kind of change: $bad"; fail=1; }
# Options it names exist.
help=$(./xgtop --help)
for o in $(grep -oE '`--[a-z][a-z-]*' NEWS.md | tr -d '`' | sort -u); do
	grep -qE -- "(^| )$o([ =,]|$)" <<<"$help" || { echo "NEWS.md names $o, which xgtop --help lacks"; fail=1; }
done
# Settings keys it names (`key = value` in the Settings file section) exist.
for k in $(awk '/^### Settings file/ { f = 1; next } /^##/ { f = 0 } f' NEWS.md |
	grep -oE '^- `[a-z.-]+ =' | sed 's/^- `//; s/ =$//'); do
	grep -qF "{ \"$k\"," src/settings/settings.c || { echo "NEWS.md names settings key '$k', which settings.c lacks"; fail=1; }
done
[ "$fail" = 0 ] && echo "ok: NEWS.md starts with $ver, its headings, options and settings keys hold"
exit "$fail"
