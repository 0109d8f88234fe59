// SPDX-License-Identifier: GPL-2.0-or-later
/* One line of input on the status row (filter regex, delay), drawn over
 * the domain list, which keeps refreshing. Typed text is kept as multibyte
 * bytes; control characters are refused so the line can be drawn as it
 * is. When the prompt ends, its done function gets the answer. */
#include "tui_state.h"

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

/* Ends the prompt; its done function says what the answer changed. */
static unsigned prompt_end(struct tui *t, bool ok)
{
	curs_set(0);
	return TUI_BACK | t->prompt.done(t, ok, t->prompt.buf);
}

static unsigned act_enter(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	return prompt_end(t, true);
}

static unsigned act_cancel(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	return prompt_end(t, false);
}

static unsigned act_erase(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	char *buf = t->prompt.buf;
	buf[last_char(buf, strlen(buf))] = 0;
	return TUI_DONE;
}

static unsigned act_clear(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	t->prompt.buf[0] = 0;
	return TUI_DONE;
}

/* Other characters are typed, unless they are controls or do not fit;
 * other function keys do nothing. */
static unsigned prompt_other(struct tui *t, int rc, wint_t ch)
{
	struct tui_prompt *p = &t->prompt;
	size_t len = strlen(p->buf);
	char mb[MB_LEN_MAX];
	mbstate_t st;

	if (rc == KEY_CODE_YES || ch < 0x20 || (ch >= 0x7f && ch < 0xa0))
		return TUI_DONE;
	memset(&st, 0, sizeof(st));
	size_t l = wcrtomb(mb, (wchar_t)ch, &st);
	if (l == (size_t)-1 || len + l + 1 > p->cap)
		return TUI_DONE;
	memcpy(p->buf + len, mb, l);
	p->buf[len + l] = 0;
	return TUI_DONE;
}

static const struct tui_binding prompt_bindings[] = {
	{ { '\r', '\n', KEY_ENTER }, NULL, NULL, "apply the line", act_enter, 0 },
	{ { TUI_KEY_ESC }, NULL, NULL, "cancel: nothing changes", act_cancel, 0 },
	{ { KEY_BACKSPACE, 127, TUI_CTRL('H'), KEY_DC, KEY_LEFT }, NULL, NULL,
	  "delete the last character", act_erase, 0 },
	{ { TUI_CTRL('U') }, NULL, NULL, "clear the line", act_clear, 0 },
};

const struct tui_keymap tui_prompt_keys = {
	.title = "Keys at a prompt",
	.b = prompt_bindings,
	.n = XG_ARRAY_LEN(prompt_bindings),
	.other = prompt_other,
	.other_help = "typed into the line (control characters are refused)",
};
