// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer harness: the settings file (xgtoprc). The input is the file.
 * Checks: text the parser accepts, written back, reads back as the same
 * lines; whatever the file says, the view it gives is one the program can
 * use (a delay in range, every column once, NAME shown); and a file xgtop
 * saves from that view reads back as the same settings. */
#include "fuzz.h"

#include "xgtop/settings/settings.h"

static void same_rc(const struct xg_rc *a, const struct xg_rc *b)
{
	if (a->n != b->n)
		abort();
	for (size_t i = 0; i < a->n; i++)
		if (!a->e[i].key != !b->e[i].key || (a->e[i].key && strcmp(a->e[i].key, b->e[i].key)) ||
		    strcmp(a->e[i].value, b->e[i].value))
			abort();
}

static void text_round_trip(const uint8_t *data, size_t size)
{
	struct xg_rc a = { 0 }, b = { 0 };
	struct xg_err err;
	char *text = fz_cstr(data, size);   /* the parser takes a length; the copy is exact */
	if (rc_parse(&a, text, size, &err) == 0) {
		char *back = rc_text(&a);
		if (rc_parse(&b, back, strlen(back), &err) < 0)
			abort();
		same_rc(&a, &b);
		free(back);
	} else if (!err.msg[0] || a.n) {
		abort();
	}
	rc_free(&a);
	rc_free(&b);
	free(text);
}

static void usable(const struct xg_view *v)
{
	uint64_t seen = 0;
	if (!view_delay_valid(v->delay_s) || (unsigned)v->sort_col >= XG_COL_COUNT ||
	    view_col_hidden(v, XG_COL_NAME))
		abort();
	for (int i = 0; i < XG_COL_COUNT; i++)
		seen |= 1ull << v->col_order[i];
	if (seen != (XG_COL_COUNT == 64 ? ~0ull : (1ull << XG_COL_COUNT) - 1))
		abort();
}

/* Loads path into a fresh view; st->start is then the view's settings. */
static void load(const char *path, struct xg_settings *st, struct xg_view *v)
{
	struct xg_config cfg;
	config_defaults(&cfg);
	view_init(v, &cfg);
	settings_load(st, path);
	settings_apply(st, v, &cfg);
	usable(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	text_round_trip(data, size);
	char path[32];
	if (!fz_file(path, data, size))
		return 0;
	struct xg_settings st, st2;
	struct xg_view v, v2;
	struct xg_err err;
	load(path, &st, &v);
	/* A change on screen makes the save write the file, and the saved
	 * view's settings the new st.start. */
	view_toggle(&v, XG_TOGGLE_METERS);
	if (settings_save(&st, &v, &err) != 1 && !st.broken)
		abort();
	if (!st.broken) {
		load(path, &st2, &v2);
		same_rc(&st.start, &st2.start);
		settings_free(&st2);
		view_free(&v2);
	}
	settings_free(&st);
	view_free(&v);
	unlink(path);
	return 0;
}
