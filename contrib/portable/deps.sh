#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds static ncursesw and zlib with the glibc 2.17 toolchain, from
# Debian's source packages, into a cache outside the tree, and prints the
# prefix (include/, lib/, lib/pkgconfig/). Idempotent: a prefix built
# before is reused.
# Usage: deps.sh TOOLCHAIN_DIR
#
# apt-get source needs a deb-src entry. The machine's own apt sources
# (deb822 .sources files or sources.list lines) are copied with their type
# turned into deb-src and used through a private apt configuration (source
# list, package lists and cache under the cache directory), so the host's
# apt state is not changed and no archive host is written down anywhere.
#
# ncurses looks for terminfo where CentOS/RHEL and Debian keep it
# (/usr/share/terminfo, /lib/terminfo, /etc/terminfo), then $TERMINFO and
# ~/.terminfo as usual; xterm, xterm-256color, screen, screen-256color,
# tmux, tmux-256color, vt100, linux and dumb are also compiled in as
# fallbacks, for a host without a terminfo database.
set -e
TC=$1
[ -x "$TC/bin/x86_64-unknown-linux-gnu-gcc" ] || { echo "deps: usage: deps.sh TOOLCHAIN_DIR" >&2; exit 2; }
CACHE=${XGTOP_PORTABLE_CACHE:-/var/tmp/xgtop-portable}
TERMINFO_DIRS=/usr/share/terminfo:/lib/terminfo:/etc/terminfo
FALLBACKS=xterm,xterm-256color,screen,screen-256color,tmux,tmux-256color,vt100,linux,dumb
# The prefix's name changes with what goes into it, so a change of
# toolchain or options builds a new one beside the old.
KEY=$(printf '%s\n' "$TC" "$TERMINFO_DIRS" "$FALLBACKS" 3 | md5sum | cut -c1-10)
PREFIX=$CACHE/deps-$KEY
if [ -f "$PREFIX/.complete" ]; then echo "$PREFIX"; exit 0; fi

say() { echo "deps: $*" >&2; }
APT=$CACHE/apt
SRC=$CACHE/src
mkdir -p "$APT/sources.list.d" "$APT/lists/partial" "$APT/cache/archives/partial" "$SRC"
: >"$APT/sources.list"
found=
for f in /etc/apt/sources.list.d/*.sources; do
	[ -f "$f" ] || continue
	sed 's/^Types:.*/Types: deb-src/' "$f" >"$APT/sources.list.d/${f##*/}"
	found=y
done
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
	[ -f "$f" ] || continue
	sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f" >>"$APT/sources.list"
	[ -s "$APT/sources.list" ] && found=y
done
[ -n "$found" ] || { say "no apt source on this machine to derive a deb-src entry from"; exit 1; }
set -- -o Dir::Etc::SourceList="$APT/sources.list" -o Dir::Etc::SourceParts="$APT/sources.list.d" \
	-o Dir::State::Lists="$APT/lists" -o Dir::Cache="$APT/cache" \
	-o APT::Get::List-Cleanup=0 -o Debug::NoLocking=1
if ! ls "$APT/lists/"*Sources* >/dev/null 2>&1; then
	say "apt-get update (deb-src, private lists in $APT)"
	apt-get "$@" -qq update >&2
fi
for p in zlib ncurses; do
	if ! ls -d "$SRC/$p"-*/ >/dev/null 2>&1; then
		# Each version the sources offer, newest first, until one
		# downloads: a mirror may lack a suite's source pool.
		ok=
		for v in $(apt-cache "$@" showsrc "$p" | sed -n 's/^Version: //p' | sort -urV); do
			say "apt-get source $p=$v"
			if (cd "$SRC" && apt-get "$@" -qq source "$p=$v" >&2 2>"$APT/source.err"); then
				ok=y; break
			fi
			grep '^E:' "$APT/source.err" | head -n 1 >&2
		done
		[ -n "$ok" ] || { say "apt-get source $p failed"; exit 1; }
	fi
done
zdir=$(ls -d "$SRC"/zlib-*/ | head -1)
ndir=$(ls -d "$SRC"/ncurses-*/ | head -1)

export PATH="$TC/bin:$PATH"
CC=x86_64-unknown-linux-gnu-gcc
AR=x86_64-unknown-linux-gnu-ar
RANLIB=x86_64-unknown-linux-gnu-ranlib
J=${JOBS:-2}
rm -rf "$PREFIX.new" "$CACHE/work"
mkdir -p "$CACHE/work"
t0=$(date +%s)

say "building zlib from ${zdir#"$SRC"/}"
cp -a "$zdir" "$CACHE/work/zlib"
(cd "$CACHE/work/zlib" && CC=$CC AR=$AR RANLIB=$RANLIB CFLAGS="-O2 -fPIC" \
	./configure --static --prefix="$PREFIX.new" && make -j"$J" libz.a && make install) \
	>"$CACHE/work/zlib.log" 2>&1 || { tail -n 30 "$CACHE/work/zlib.log" >&2; exit 1; }

say "building ncursesw from ${ndir#"$SRC"/}"
mkdir -p "$CACHE/work/ncurses"
# The fallback entries are compiled from the host's terminfo with the
# host's tic/infocmp (ncurses-bin), which build/cross-compile uses.
(cd "$CACHE/work/ncurses" && "$ndir/configure" --host=x86_64-unknown-linux-gnu \
	--build="$(gcc -dumpmachine)" --prefix="$PREFIX.new" \
	CC=$CC AR=$AR RANLIB=$RANLIB BUILD_CC=gcc CFLAGS="-O2" \
	--enable-widec --without-shared --with-normal --without-debug --without-profile \
	--without-cxx --without-cxx-binding --without-ada --without-tests --without-manpages \
	--without-progs --disable-db-install --enable-pc-files \
	--with-pkg-config-libdir="$PREFIX.new/lib/pkgconfig" \
	--with-terminfo-dirs="$TERMINFO_DIRS" --with-default-terminfo-dir=/usr/share/terminfo \
	--with-fallbacks="$FALLBACKS" --with-tic-path="$(command -v tic)" \
	--with-infocmp-path="$(command -v infocmp)" \
	--without-gpm --disable-termcap --enable-sigwinch --with-xterm-kbs=DEL && \
	make -j"$J" libs && make install.libs install.includes) \
	>"$CACHE/work/ncurses.log" 2>&1 || { tail -n 30 "$CACHE/work/ncurses.log" >&2; exit 1; }
touch "$PREFIX.new/.complete"
rm -rf "$PREFIX" && mv "$PREFIX.new" "$PREFIX"
# The .pc files name the prefix they were configured with.
sed -i "s#$PREFIX.new#$PREFIX#g" "$PREFIX"/lib/pkgconfig/*.pc
rm -rf "$CACHE/work"
say "built in $(($(date +%s) - t0)) s"
echo "$PREFIX"
