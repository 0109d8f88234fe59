// SPDX-License-Identifier: GPL-2.0-or-later
/* Text on the terminal, for every screen: the status message, wrapping,
 * names made safe and cut to a width, and writing text cut at the right
 * edge. Apart from the drawing of any one screen, so that each screen
 * (and the header meters) can use them without depending on another. */
#include "tui_state.h"

#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

void tui_set_msg(struct tui *t, bool is_err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->msg, sizeof(t->msg), fmt, ap);
	va_end(ap);
	t->msg_err = is_err;
	t->msg_retry = false;
}

int tui_wrap_cut(const char *text, int room)
{
	int len = (int)strlen(text), cut = room;
	if (len <= room)
		return len;
	while (cut > 0 && text[cut] != ' ')
		cut--;
	if (cut)
		return cut;
	cut = room;
	while (cut > 1 && ((unsigned char)text[cut] & 0xc0) == 0x80)
		cut--;
	return cut;
}

static bool ascii_plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '\\';
}

int tui_name_fit(char *out, size_t n, const char *raw, int maxw)
{
	const unsigned char *s = (const unsigned char *)(raw ? raw : "");
	size_t left = strlen((const char *)s), o = 0;
	int w = 0;
	mbstate_t st;

	if (!n)
		return 0;
	memset(&st, 0, sizeof(st));
	while (*s) {
		if (ascii_plain(*s)) {
			if (w + 1 > maxw || o + 2 > n)
				break;
			out[o++] = (char)*s++;
			left--;
			w++;
			continue;
		}
		if (*s == '\\') {
			if (w + 2 > maxw || o + 3 > n)
				break;
			out[o++] = '\\';
			out[o++] = '\\';
			s++;
			left--;
			w += 2;
			continue;
		}
		if (*s >= 0x80) {
			wchar_t wc;
			size_t l = mbrtowc(&wc, (const char *)s, left, &st);
			/* Zero-width and unprintable characters (combining marks, bidi
			 * overrides, C1 controls) are escaped: on their own they can
			 * reorder or overprint what the terminal shows. */
			if (l != (size_t)-1 && l != (size_t)-2 && l > 1) {
				int cw = wcwidth(wc);
				if (cw > 0 && !(wc >= 0x80 && wc < 0xa0)) {
					if (w + cw > maxw || o + l + 1 > n)
						break;
					memcpy(out + o, s, l);
					o += l;
					s += l;
					left -= l;
					w += cw;
					continue;
				}
				/* Escape the whole sequence, byte by byte, below. */
			}
			memset(&st, 0, sizeof(st));
		}
		if (w + 4 > maxw || o + 5 > n)
			break;
		snprintf(out + o, 5, "\\x%02x", *s);
		o += 4;
		s++;
		left--;
		w += 4;
	}
	out[o] = 0;
	return w;
}

void tui_put(int y, int x, const char *s, int maxw)
{
	int room = COLS - x;
	if (maxw > room)
		maxw = room;
	if (maxw <= 0 || y < 0 || y >= LINES)
		return;
	/* Width-aware cut: the text may hold UTF-8 (names, the ▲▼ marks). */
	const unsigned char *p = (const unsigned char *)s;
	size_t bytes = 0;
	int w = 0;
	mbstate_t st;
	memset(&st, 0, sizeof(st));
	while (p[bytes]) {
		if (p[bytes] < 0x80) {
			if (w + 1 > maxw)
				break;
			bytes++;
			w++;
			continue;
		}
		wchar_t wc;
		size_t l = mbrtowc(&wc, (const char *)p + bytes, MB_CUR_MAX, &st);
		if (l == (size_t)-1 || l == (size_t)-2 || l == 0)
			break;  /* callers pass text made safe by tui_name_fit */
		int cw = wcwidth(wc);
		if (cw < 0)
			cw = 1;
		if (w + cw > maxw)
			break;
		bytes += l;
		w += cw;
	}
	mvaddnstr(y, x, s, (int)bytes);
}
