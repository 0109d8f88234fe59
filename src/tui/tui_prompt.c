// SPDX-License-Identifier: GPL-2.0-or-later
/* One line of input on the status row (filter regex, delay). Typed text is
 * kept as multibyte bytes; control characters are refused so the line can
 * be drawn as it is. */
#include "tui_priv.h"

#include <curses.h>
#include <limits.h>
#include <string.h>

/* Start of the last UTF-8 (or single-byte) character of buf[0..len). */
static size_t last_char(const char *buf, size_t len)
{
	size_t i = len;
	while (i > 0) {
		i--;
		if (((unsigned char)buf[i] & 0xc0) != 0x80)
			break;
	}
	return i;
}

static void prompt_draw(const struct tui *t, const char *label, const char *buf, size_t len)
{
	int y = t->status_y, lw = (int)strlen(label);
	int room = t->cols - lw - 1;
	size_t start = 0;

	move(y, 0);
	clrtoeol();
	attron(A_BOLD);
	tui_put(y, 0, label, t->cols);
	attroff(A_BOLD);
	if (room < 1)
		return;
	/* Show the end of a long line, where the typing happens. Byte count
	 * bounds the width from above for the text we accept. */
	while (len - start > (size_t)room) {
		start++;
		while (start < len && ((unsigned char)buf[start] & 0xc0) == 0x80)
			start++;
	}
	tui_put(y, lw, buf + start, room);
	refresh();
}

int tui_prompt(struct tui *t, const char *label, char *buf, size_t n)
{
	size_t len = strlen(buf);
	int ret;

	curs_set(1);
	for (;;) {
		prompt_draw(t, label, buf, len);
		wint_t ch = 0;
		int rc = tui_key(t, -1, &ch);
		if (rc == TUI_KEY_QUIT) {
			ret = TUI_KEY_QUIT;
			break;
		}
		if (rc == KEY_CODE_YES) {
			if (ch == KEY_ENTER) {
				ret = 1;
				break;
			}
			if (ch == KEY_BACKSPACE || ch == KEY_DC || ch == KEY_LEFT) {
				len = last_char(buf, len);
				buf[len] = 0;
			} else if (ch == KEY_RESIZE) {
				tui_draw(t);
			}
			continue;
		}
		if (ch == '\r' || ch == '\n') {
			ret = 1;
			break;
		}
		if (ch == 27) {  /* Esc */
			ret = 0;
			break;
		}
		if (ch == 127 || ch == 8) {
			len = last_char(buf, len);
			buf[len] = 0;
			continue;
		}
		if (ch == 21) {  /* ^U */
			len = 0;
			buf[0] = 0;
			continue;
		}
		if (ch < 0x20 || (ch >= 0x7f && ch < 0xa0))
			continue;
		char mb[MB_LEN_MAX];
		mbstate_t st;
		memset(&st, 0, sizeof(st));
		size_t l = wcrtomb(mb, (wchar_t)ch, &st);
		if (l == (size_t)-1 || len + l + 1 > n)
			continue;
		memcpy(buf + len, mb, l);
		len += l;
		buf[len] = 0;
	}
	curs_set(0);
	return ret;
}
