# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by tests/tui/test_*.sh: drives the real xgtop binary inside a
# private tmux server (one socket per test) on a replayed recording, and
# polls the captured pane instead of sleeping for fixed times.

cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
ROOT=$PWD
. tests/wait.sh
XGTOP=${XGTOP:-$ROOT/xgtop}
GEN=${XGTOP_GEN:-$ROOT/build/tools/xgtop-gen}
W=160
H=40

skip() { echo "$*"; exit 77; }

command -v tmux >/dev/null || skip "tmux is not installed (make deps)"
[ -x "$XGTOP" ] || skip "no $XGTOP binary (make)"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/xgtop-tui.XXXXXX")
SOCK="xgtop-tui-$$"
cleanup() {
	local path
	path=$(tmux -L "$SOCK" display-message -p '#{socket_path}' 2>/dev/null)
	tmux -L "$SOCK" kill-server 2>/dev/null
	# tmux leaves its socket file behind; do not pile them up.
	[ -n "$path" ] && rm -f "$path"
	rm -rf "$TMP"
}
trap cleanup EXIT

tm() { tmux -L "$SOCK" -f /dev/null "$@"; }

# The screen as text; -J joins nothing here since lines never wrap.
screen() { tm capture-pane -p -t t; }

fail() {
	echo "FAIL: $*"
	echo "--- screen ---"
	screen 2>/dev/null
	echo "--------------"
	exit 1
}

# wait_for TEXT [SECONDS]: until the pane shows TEXT (fixed string).
wait_for() {
	local text=$1 limit=${2:-30} t0=$SECONDS
	while ! screen | grep -qF -- "$text"; do
		[ $((SECONDS - t0)) -ge "$limit" ] && fail "timed out waiting for '$text'"
		sleep 0.05
	done
}

# wait_gone TEXT [SECONDS]: until the pane no longer shows TEXT.
wait_gone() {
	local text=$1 limit=${2:-30} t0=$SECONDS
	while screen | grep -qF -- "$text"; do
		[ $((SECONDS - t0)) -ge "$limit" ] && fail "timed out waiting for '$text' to go"
		sleep 0.05
	done
}

# wait_match REGEX [SECONDS]: until some line matches the extended regex.
wait_match() {
	local re=$1 limit=${2:-30} t0=$SECONDS
	while ! screen | grep -qE -- "$re"; do
		[ $((SECONDS - t0)) -ge "$limit" ] && fail "timed out waiting for /$re/"
		sleep 0.05
	done
}

keys() { tm send-keys -t t "$@"; }

# What make SANITIZE=1 check and make test-valgrind set for xgtop, passed
# into the pane's otherwise empty environment.
san_env() {
	local v
	for v in ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS; do
		[ -n "${!v}" ] && printf "%s='%s' " "$v" "${!v}"
	done
}

# A shell in a fixed-size pane, with a prompt we can recognise. A plain
# POSIX sh, not bash: bash repairs the tty modes of a job that died, which
# would hide a monitor that failed to restore them.
start_shell() {
	tm new-session -d -s t -x "$W" -y "$H" \
		"env -i PATH=$PATH HOME=$TMP TERM=xterm-256color LANG=C.UTF-8 $(san_env)\
		 TZ=UTC PS1='tui-test\$ ' sh -i"
	tm set-option -t t status off >/dev/null
	wait_for 'tui-test$'
}

# The recording the tests replay (see make_rec below), generated once per
# test into $TMP.
REC=$TMP/rec.xgr

# start_xgtop [ARGS...]: runs (with $XENV, e.g. XENV=NO_COLOR=1, in its
# environment) xgtop on $REC in the pane's shell (so the
# shell prompt is there to check after it exits) and waits for the screen.
# Its pid goes to $TMP/pid for the signal tests.
start_xgtop() {
	keys "cd $TMP && ${XENV:-} sh -c 'echo \$\$ > $TMP/pid; exec $XGTOP --replay $REC $*'" Enter
	wait_for "Domains"
}

xgtop_pid() { cat "$TMP/pid"; }

# The screen line (1-based) of the header (column titles): after three
# summary lines and the triage line, the meters (one line at least while they are on) and the
# status line.
# (A sort mark may sit before ID or between ID and NAME.)
header_no() { screen | grep -n -m1 -E '^ *[^ ]{0,3}ID[^A-Za-z0-9]+NAME' | cut -d: -f1; }

# Lines of the domain list: after the header, before the key hints.
list_lines() { screen | awk -v f="$(header_no)" -v h="$H" 'f && NR > f && NR < h'; }

# Rows of the domain list that start with a domain id.
rows() { list_lines | awk '/^ *[0-9]+ /'; }

# The domain names in screen order.
names() { rows | awk '{print $2}'; }

# wait_prompt: the last non-blank line is the shell's bare prompt.
wait_prompt() {
	local limit=30 t0=$SECONDS
	while [ "$(screen | grep -v '^ *$' | tail -n 1)" != 'tui-test$' ]; do
		[ $((SECONDS - t0)) -ge "$limit" ] && fail "timed out waiting for the shell prompt"
		sleep 0.05
	done
}

# The terminal is back to normal: a fresh prompt on the normal screen
# (not the alternate one), cursor shown, mouse reporting off, and the tty
# in cooked mode with echo (what a crashed curses program leaves wrong).
check_restored() {
	wait_prompt
	local st
	st=$(tm display-message -p -t t '#{alternate_on} #{cursor_flag} #{mouse_any_flag}')
	[ "$st" = "0 1 0" ] || fail "terminal modes after exit: alternate/cursor/mouse = $st, want 0 1 0"
	keys "stty -a > $TMP/stty.txt; tput cnorm; echo restored-ok" Enter
	wait_for 'restored-ok' 5
	wait_prompt
	local f
	for f in icanon echo isig icrnl; do
		grep -qE -- "(^|[ ;])$f([ ;]|\$)" "$TMP/stty.txt" || fail "stty shows -$f after exit: $(cat "$TMP/stty.txt")"
	done
}

# make_rec SAMPLES [GEN-ARGS...]: writes $REC with the fixture generator's
# scripted load (doc/recording.md), without jitter so values tie exactly.
# One sample per recorded second. Its domains, with CPU% (100 = one pCPU)
# as the last sample of a 4-sample recording shows them:
#   busy-03 380, cache-05 160, reuse-10b 70 (domid 10 reused half way),
#   sched-06 60, net-04 50, late-08 50, Domain-0 30, disk-02 20,
#   nocache-07 5 (PMU fields invalid, with a reason), ctl\x1b[2J\x07-11 2
#   (terminal escapes in its name), utf8-\xc3(-01 1 (invalid UTF-8);
#   gone-09 has left by then. Text order of those numbers is not numeric.
make_rec() {
	local n=$1
	shift
	[ -x "$GEN" ] || skip "no fixture generator $GEN (make tools)"
	"$GEN" --samples "$n" --steady "$@" "$REC" >"$TMP/gen.log" 2>&1 ||
		fail "generator: $(cat "$TMP/gen.log")"
}

# The last frame of `make_rec 4` in the default sort (CPU% biggest first,
# ties by id) and others. Names are as shown: escaped.
# shellcheck disable=SC2034  # used by the tests that source this file
BY_CPU='busy-03 cache-05 reuse-10b sched-06 net-04 late-08 Domain-0 disk-02 nocache-07 ctl\x1b[2J\x07-11 utf8-\xc3(-01'
# shellcheck disable=SC2034
BY_CPU_UP='utf8-\xc3(-01 ctl\x1b[2J\x07-11 nocache-07 disk-02 Domain-0 net-04 late-08 sched-06 reuse-10b cache-05 busy-03'
# shellcheck disable=SC2034
BY_NAME='busy-03 cache-05 ctl\x1b[2J\x07-11 disk-02 Domain-0 late-08 net-04 nocache-07 reuse-10b sched-06 utf8-\xc3(-01'
# shellcheck disable=SC2034
BY_ID='Domain-0 utf8-\xc3(-01 disk-02 busy-03 net-04 cache-05 sched-06 nocache-07 late-08 reuse-10b ctl\x1b[2J\x07-11'

# rec_secs: the recorded time of the sample on screen, in seconds since
# midnight (empty while the screen shows none).
rec_secs() {
	screen | grep -oE 'recorded [0-9-]+ [0-9:]+' | head -n 1 |
		awk '{ split($3, a, ":"); print a[1] * 3600 + a[2] * 60 + a[3] }'
}

# The sort column and mark as the summary shows them, e.g. "CPU%▼".
sort_shown() { screen | grep -oE ' sort [^ ]+' | head -n 1 | cut -c7-; }

# wait_names "a b c" [SECONDS]: until the listed domains are exactly these,
# in this order.
wait_names() {
	local want=$1 limit=${2:-30} t0=$SECONDS got
	while :; do
		got=$(names | tr '\n' ' ' | sed 's/ $//')
		[ "$got" = "$want" ] && return 0
		[ $((SECONDS - t0)) -ge "$limit" ] && fail "rows are '$got', want '$want'"
		sleep 0.05
	done
}

# The header line (column titles).
header() { screen | grep -m1 -E '^ *.?ID +NAME '; }

# settle: until two captures 0.1 s apart are the same, so a check for
# something's absence does not read a screen in the middle of a redraw.
settle() {
	local a b t0=$SECONDS
	b=$(screen)
	while :; do
		a=$b
		sleep 0.1
		b=$(screen)
		[ "$a" = "$b" ] && return 0
		[ $((SECONDS - t0)) -ge 10 ] && fail "the screen keeps changing"
	done
}

# The name of the selected domain row (drawn in reverse video), or nothing.
# tmux's capture carries attributes over from the line before (the header
# is reverse too), so the SGR state is followed across the whole screen.
selected() {
	tm capture-pane -e -p -t t | python3 -c '
import re, sys
head = int(sys.argv[1] or 99)   # rows start after the header line
rev = False
for n, line in enumerate(sys.stdin.read().split("\n")):
    first = None
    for m in re.finditer(r"\x1b\[([0-9;]*)m|([^\x1b])", line):
        if m.group(2) is None:
            for p in (m.group(1) or "0").split(";"):
                if p in ("0", ""):
                    rev = False
                elif p == "7":
                    rev = True
                elif p == "27":
                    rev = False
        elif first is None:
            first = rev
    words = re.sub(r"\x1b\[[0-9;]*m", "", line).split()
    if first and n >= head and len(words) > 1 and words[0].isdigit():
        print(words[1])
' "$(header_no)"
}

# wait_sel NAME [WHAT]: until the selected row is NAME's (WHAT names the
# step in the failure).
wait_sel() {
	local t0=$SECONDS
	while [ "$(selected)" != "$1" ]; do
		[ $((SECONDS - t0)) -ge 30 ] && fail "${2:-selection}: want '$1' selected, got '$(selected)'"
		sleep 0.05
	done
}

# click X Y: a left click on screen cell (X, Y), 0-based, as the xterm SGR
# mouse report (what xterm-256color's terminfo asks for) typed into the pane.
click() {
	local seq
	seq=$(printf '\033[<0;%d;%dM\033[<0;%d;%dm' $(($1 + 1)) $(($2 + 1)) $(($1 + 1)) $(($2 + 1)) | od -An -tx1)
	# shellcheck disable=SC2086
	tm send-keys -t t -H $seq
}

# pane_pages N: the screen now and after each of N PageDowns (each
# settled), one after the other: a long detail pane, whole.
pane_pages() {
	local all i
	all=$(screen)
	for ((i = 0; i < $1; i++)); do
		keys PageDown
		settle
		all="$all
$(screen)"
	done
	printf '%s\n' "$all"
}
