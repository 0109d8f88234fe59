// SPDX-License-Identifier: GPL-2.0-or-later
/* One line of input on the status row (filter regex, delay), drawn over
 * the domain list, which keeps refreshing. Typed text is kept as multibyte
 * bytes; control characters are refused so the line can be drawn as it
 * is. When the prompt ends, its done function gets the answer. */
#include "tui_priv.h"

#include <curses.h>
#include <limits.h>
#include <stdio.h>
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

void tui_prompt_open(struct tui *t, const char *label, const char *init, size_t cap,
		     tui_prompt_done *done)
{
	struct tui_prompt *p = &t->prompt;
	p->label = label;
	p->cap = cap < sizeof(p->buf) ? cap : sizeof(p->buf);
	snprintf(p->buf, p->cap, "%s", init);
	p->done = done;
	t->mode = TUI_MODE_PROMPT;
	curs_set(1);
}

void tui_prompt_draw(struct tui *t)
{
	const struct tui_prompt *p = &t->prompt;
	int y = t->status_y, lw = (int)strlen(p->label);
	int room = t->cols - lw - 1;
	size_t start = 0, len = strlen(p->buf);

	move(y, 0);
	clrtoeol();
	attron(A_BOLD);
	tui_put(y, 0, p->label, t->cols);
	attroff(A_BOLD);
	if (room >= 1) {
		/* Show the end of a long line, where the typing happens. Byte
		 * count bounds the width from above for the text we accept. */
		while (len - start > (size_t)room) {
			start++;
			while (start < len && ((unsigned char)p->buf[start] & 0xc0) == 0x80)
				start++;
		}
		tui_put(y, lw, p->buf + start, room);
	}
	/* Last, so the cursor stays at the end of the line. */
	wnoutrefresh(stdscr);
}

static void prompt_end(struct tui *t, bool ok)
{
	curs_set(0);
	t->mode = TUI_MODE_TABLE;
	t->prompt.done(t, ok, t->prompt.buf);
}

/* Adds a typed character unless it is a control or does not fit. */
static void prompt_type(struct tui_prompt *p, wint_t ch)
{
	size_t len = strlen(p->buf);
	char mb[MB_LEN_MAX];
	mbstate_t st;

	if (ch < 0x20 || (ch >= 0x7f && ch < 0xa0))
		return;
	memset(&st, 0, sizeof(st));
	size_t l = wcrtomb(mb, (wchar_t)ch, &st);
	if (l == (size_t)-1 || len + l + 1 > p->cap)
		return;
	memcpy(p->buf + len, mb, l);
	p->buf[len + l] = 0;
}

void tui_prompt_key(struct tui *t, int rc, wint_t ch)
{
	struct tui_prompt *p = &t->prompt;
	bool fkey = rc == KEY_CODE_YES;

	if ((fkey && ch == KEY_ENTER) || (!fkey && (ch == '\r' || ch == '\n')))
		prompt_end(t, true);
	else if (!fkey && ch == 27)   /* Esc */
		prompt_end(t, false);
	else if ((fkey && (ch == KEY_BACKSPACE || ch == KEY_DC || ch == KEY_LEFT)) ||
		 (!fkey && (ch == 127 || ch == 8)))
		p->buf[last_char(p->buf, strlen(p->buf))] = 0;
	else if (!fkey && ch == 21)   /* ^U */
		p->buf[0] = 0;
	else if (!fkey)
		prompt_type(p, ch);
}
