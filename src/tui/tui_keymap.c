// SPDX-License-Identifier: GPL-2.0-or-later
/* What every screen's key table shares: the documented names of keys,
 * dispatch of a key to its binding, the hint line and --help's lists. A
 * screen's table holds its keys, their actions and their help lines, so
 * what a key does and what the docs say it does come from one place. */
#include "tui_state.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

int tui_key_alias(int key)
{
	switch (key) {
	case 'k': return KEY_UP;
	case 'j': return KEY_DOWN;
	case TUI_KEY_TWICE('g'): return KEY_HOME;
	case 'G': return KEY_END;
	case TUI_CTRL('U'): return TUI_KEY_HALF_UP;
	case TUI_CTRL('D'): return TUI_KEY_HALF_DOWN;
	default: return key;
	}
}

const char *tui_key_name(int key, char *buf, size_t n)
{
	if (key & 0x10000) {
		snprintf(buf, n, "%c %c", key & 0x7f, key & 0x7f);
		return buf;
	}
	switch (key) {
	case ' ': return "space";
	case '\r': case '\n': case KEY_ENTER: return "Enter";
	case TUI_KEY_ESC: return "Esc";
	case 127: case KEY_BACKSPACE: return "Backspace";   /* 127: what terminals send for it */
	case KEY_DC: return "Delete";
	case KEY_UP: return "Up";
	case KEY_DOWN: return "Down";
	case KEY_LEFT: return "Left";
	case KEY_RIGHT: return "Right";
	case KEY_PPAGE: return "PgUp";
	case KEY_NPAGE: return "PgDn";
	case KEY_HOME: return "Home";
	case KEY_END: return "End";
	case KEY_MOUSE: return "click";
	default: break;
	}
	if (key > 0 && key < 0x20)
		snprintf(buf, n, "Ctrl-%c", key + '@');
	else if (key > 0x20 && key < 0x7f)
		snprintf(buf, n, "%c", key);
	else if (key >= KEY_F(1) && key <= KEY_F(24))
		snprintf(buf, n, "F%d", key - KEY_F0);
	else
		snprintf(buf, n, "key %d", key);
	return buf;
}

void tui_binding_keys(const struct tui_binding *b, char *buf, size_t n)
{
	size_t o = 0;
	const char *last = "";
	buf[0] = 0;
	for (size_t i = 0; i < XG_ARRAY_LEN(b->keys) && b->keys[i] && o < n; i++) {
		char one[16];
		const char *name = tui_key_name(b->keys[i], one, sizeof(one));
		if (!strcmp(name, last))
			continue;   /* \r, \n and the keypad's Enter are one key */
		o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? " " : "", name);
		last = name == one ? "" : name;
	}
}

const char *tui_binding_help(const struct tui_keymap *m, const struct tui_binding *b, char *buf,
			     size_t n)
{
	if (b->help || !m->help_fmt)
		return b->help ? b->help : "";
	m->help_fmt(b, buf, n);
	return buf;
}

static const struct tui_binding *keymap_find(const struct tui_keymap *m, int k)
{
	for (size_t i = 0; k > 0 && i < m->n; i++) {
		const struct tui_binding *b = &m->b[i];
		for (size_t j = 0; j < XG_ARRAY_LEN(b->keys) && b->keys[j]; j++)
			if (b->keys[j] == k)
				return b;
	}
	return NULL;
}

unsigned tui_keymap_key(struct tui *t, const struct tui_keymap *m, int rc, wint_t ch)
{
	/* A wide character is no key of a table, whatever its code (it may
	 * equal a KEY_* code): only the other keys' action sees it. */
	int k = rc == KEY_CODE_YES ? (int)ch : ch < 0x80 ? (int)ch : -1;

	int first = t->prefix;
	t->prefix = 0;
	if (m->fresh_msg)
		t->msg[0] = 0;
	const struct tui_binding *b = NULL;
	if (first && k == first && (b = keymap_find(m, TUI_KEY_TWICE(k))))
		return b->act(t, b, TUI_KEY_TWICE(k));
	b = keymap_find(m, k);
	if (b)
		return b->act(t, b, k);
	if (k > 0 && k < 0x80 && keymap_find(m, TUI_KEY_TWICE(k))) {
		t->prefix = k;   /* wait for the second press; any other key is itself */
		tui_set_msg(t, false, "%c: %c again", k, k);
		return TUI_DONE;
	}
	return m->other ? m->other(t, rc, ch) : TUI_DONE;
}

void tui_keymap_hints(const struct tui *t, const struct tui_keymap *m)
{
	enum { HINTS_MAX = 24 };   /* more than a line holds: the rest are cut */
	const char *pairs[2 * HINTS_MAX + 2];
	size_t n = 0;
	for (size_t i = 0; i < m->n && n < 2 * HINTS_MAX; i++) {
		if (!m->b[i].hint)
			continue;
		pairs[n++] = m->b[i].hint;
		pairs[n++] = m->b[i].label;
	}
	if (m->other_hint) {
		pairs[n++] = "any other key";
		pairs[n++] = m->other_hint;
	}
	tui_draw_hints(t, pairs, n);
}

/* One --help line: the keys, then the help wrapped at 79 columns under
 * itself. */
static void usage_line(FILE *f, const char *keys, const char *p)
{
	/* At least two blanks after the keys: tests/docs/test_keys.sh reads
	 * the names up to there. */
	enum { KEYS_W = 10, INDENT = 2 + KEYS_W + 2, WIDTH = 79 };
	fprintf(f, "  %-*s  ", KEYS_W, keys);
	for (bool first = true; *p; first = false) {
		int cut = tui_wrap_cut(p, WIDTH - INDENT);
		fprintf(f, "%*s%.*s\n", first ? 0 : INDENT, "", cut, p);
		p += cut;
		while (*p == ' ')
			p++;
	}
}

void tui_keymap_usage(FILE *f, const struct tui_keymap *m, const char *heading)
{
	fprintf(f, "%s:\n", heading);
	for (size_t i = 0; i < m->n; i++) {
		char keys[64], help[512];
		tui_binding_keys(&m->b[i], keys, sizeof(keys));
		usage_line(f, keys, tui_binding_help(m, &m->b[i], help, sizeof(help)));
	}
	if (m->other_help)
		usage_line(f, "other", m->other_help);
}
