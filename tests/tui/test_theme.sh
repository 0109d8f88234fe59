#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Colour themes (--theme, theme in the settings file, user theme files in
# $XDG_CONFIG_HOME/xgtop/themes/): the pane's attributes (tmux
# capture-pane -e) carry each theme's colours at the warn and crit levels
# (busy-03 and cache-05 pass the CPU% and HIT% thresholds), the meters and
# the header; mono has none; 8- and 16-colour terminals get the nearest of
# their colours; a bad theme file gives one line of warning and the
# default theme.
. "$(dirname "$0")/lib.sh"
make_rec 4
start_shell
mkdir -p "$TMP/cfg/xgtop/themes"

sgr() { tm capture-pane -p -e -t t | grep -oE $'\e\\[[0-9;]*m' | tr -d '\033' | sort -u | tr '\n' ' '; }
has() { grep -qE -- "(\\[|;)$1(;|m)" <<<"$2"; }
colours() { grep -qE '(\[|;)(3[0-7]|4[0-7]|9[0-7]|10[0-7]|38;5;[0-9]+|48;5;[0-9]+)(;|m)' <<<"$1"; }

# run THEME-ARGS...: the end of the recording with these options; the
# attributes on screen go to $got.
run() {
	start_xgtop --speed 50 --no-config "$@"
	wait_for "end of recording"
	settle
	got=$(sgr)
}
quit() { keys q; wait_prompt; }

run
has '38;5;214' "$got" && has '38;5;166' "$got" || fail "default: no 214 warn / 166 crit in: $got"
quit
run --theme light
has '38;5;130' "$got" && has '38;5;124' "$got" && has '38;5;25' "$got" ||
	fail "light: no 130 warn / 124 crit / 25 meters in: $got"
has '38;5;214' "$got" && fail "light: the default theme's 214 in: $got"
quit
run --theme safe
has '38;5;220' "$got" && has '48;5;20' "$got" || fail "safe: no 220 warn / crit on 20 in: $got"
has '4' "$got" || fail "safe: warn not underlined: $got"
quit
run --theme mono
colours "$got" && fail "mono: colours in: $got"
has '4' "$got" && has '7' "$got" || fail "mono: no underline (warn) / reverse (crit, header) in: $got"
quit

# A user theme file (XDG_CONFIG_HOME), on top of a built-in one.
printf '# mine\nbase = light\nheader = black on 117 bold\nwarn = bright-magenta underline\n' \
	>"$TMP/cfg/xgtop/themes/mine"
XENV="XDG_CONFIG_HOME=$TMP/cfg" run --theme mine
has '48;5;117' "$got" || fail "theme file: header not on 117 in: $got"
has '38;5;124' "$got" || fail "theme file: base = light's crit (124) missing in: $got"
has '38;5;13|95' "$got" || fail "theme file: warn not bright magenta in: $got"
quit

# The settings file's theme key, and a bad theme file: one line of
# warning, then the default theme.
printf 'warn = purple-ish\n' >"$TMP/cfg/xgtop/themes/bad"
printf 'theme = bad\n' >"$TMP/cfg/xgtop/xgtoprc"
keys "cd $TMP && XDG_CONFIG_HOME=$TMP/cfg $XGTOP --replay $REC --speed 50" Enter
wait_for "end of recording"
wait_for "theme bad not used (the default theme): $TMP/cfg/xgtop/themes/bad: line 1: warn = purple-ish:"
[ "$(screen | grep -c 'theme bad')" = 1 ] || fail "the warning takes more than one line"
got=$(sgr)
has '38;5;214' "$got" || fail "bad theme file: not the default theme: $got"
quit
grep -qx 'theme = bad' "$TMP/cfg/xgtop/xgtoprc" || fail "the settings file's theme changed: $(cat "$TMP/cfg/xgtop/xgtoprc")"

# 8 and 16 colours: the nearest colours those terminals have.
keys "export TERM=xterm" Enter
run --theme safe
has '38;5;[0-9]+' "$got" && fail "8 colours: 256-colour codes in: $got"
has '33' "$got" && has '44' "$got" || fail "8 colours: safe's warn not yellow (33) / crit not on blue (44): $got"
quit
# (a 16-colour entry of our own: ncurses-base has none)
printf 'xgtop-test-16color|xterm-256color with 16 colours,\n\tcolors#16, pairs#256, use=xterm-256color,\n' >"$TMP/16.src"
tic -o "$TMP/terminfo" "$TMP/16.src" 2>"$TMP/tic.log" || fail "tic: $(cat "$TMP/tic.log")"
keys "export TERMINFO=$TMP/terminfo TERM=xgtop-test-16color" Enter
run --theme safe
has '38;5;[0-9]+' "$got" && fail "16 colours: 256-colour codes in: $got"
has '93' "$got" || fail "16 colours: safe's warn not bright yellow (93): $got"
quit

# A name that is no theme: one line, the default theme; a bad name is a
# usage error.
run --theme nosuch
wait_for "theme nosuch not used (the default theme): no such theme"
quit
keys "$XGTOP --theme ../x; echo rc=\$?" Enter
wait_for "rc=2"
check_restored
echo "ok: default, light, safe, mono, a user file and the settings key; 8 and 16 colours; bad files and names"
