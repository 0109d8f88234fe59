// SPDX-License-Identifier: GPL-2.0-or-later
/* The settings file: the parser (what is a line, what breaks a file, what
 * is kept), the keys applied beneath the command line, and saving only
 * what changed, in place, keeping unknown keys and comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xgtop/settings/settings.h"
#include "../tmpdir.h"


/* What a test works on; setup_one gives each test the defaults. */
static struct xg_config cfg;
static struct xg_settings st;
static struct xg_view v;

static int setup_one(void **state)
{
	(void)state;
	config_defaults(&cfg);
	return 0;
}

static void put(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *b = calloc(1, 65536);
	size_t n = fread(b, 1, 65535, f);
	b[n] = 0;
	fclose(f);
	return b;
}

static void parse_lines(void **state)
{
	(void)state;
	struct xg_rc rc = { 0 };
	struct xg_err err = { 0 };
	static const char text[] = "# comment\n\n  sort =  mem \r\nthreshold.wait_pct=5 10\nx-y.z_1 =\n"
				   "sort = wait\nname = caf\xc3\xa9 #not a comment";
	assert_int_equal(rc_parse(&rc, text, sizeof(text) - 1, &err), 0);
	assert_int_equal(rc.n, 7);
	assert_null(rc.e[0].key);
	assert_string_equal(rc.e[0].value, "# comment");
	assert_string_equal(rc.e[2].key, "sort");
	assert_string_equal(rc.e[2].value, "mem");
	assert_int_equal(rc.e[2].line, 3);
	assert_string_equal(rc.e[3].value, "5 10");
	assert_string_equal(rc.e[4].value, "");
	/* A repeated key: the last one counts, and is the one set. */
	assert_string_equal(rc_find(&rc, "sort")->value, "wait");
	assert_string_equal(rc_find(&rc, "name")->value, "caf\xc3\xa9 #not a comment");
	rc_set(&rc, "sort", "cpu");
	rc_set(&rc, "new", "1");
	assert_string_equal(rc.e[5].value, "cpu");
	assert_null(rc_find(&rc, "missing"));
	char *t = rc_text(&rc);
	assert_string_equal(t, "# comment\n\nsort = mem\nthreshold.wait_pct = 5 10\nx-y.z_1 = \nsort = cpu\n"
			    "name = caf\xc3\xa9 #not a comment\nnew = 1\n");
	free(t);
	rc_free(&rc);
	assert_int_equal(rc_parse(&rc, "", 0, &err), 0);
	assert_int_equal(rc.n, 0);
}

static void parse_broken(void **state)
{
	(void)state;
	struct xg_rc rc = { 0 };
	struct xg_err err = { 0 };
	static const struct { const char *text; size_t len; const char *want; } bad[] = {
		{ "sort = cpu\nno equals here\n", 0, "line 2: expected 'key = value'" },
		{ "= value\n", 0, "line 1: expected" },
		{ "ke y = v\n", 0, "line 1: expected" },
		{ "s\xc3\xa9 = v\n", 0, "line 1: expected" },
		{ "a = b\x1b[2J\n", 0, "line 1: control character" },
		{ "a = b\0c\n", 8, "line 1: control character" },
	};
	for (size_t i = 0; i < XG_ARRAY_LEN(bad); i++) {
		size_t len = bad[i].len ? bad[i].len : strlen(bad[i].text);
		assert_int_equal(rc_parse(&rc, bad[i].text, len, &err), -1);
		if (!strstr(err.msg, bad[i].want))
			fail_msg("'%s' lacks '%s'", err.msg, bad[i].want);
		assert_int_equal(rc.n, 0);
	}
	size_t n = XG_RC_SIZE_MAX + 1;
	char *big = malloc(n);
	memset(big, '#', n);
	assert_int_equal(rc_parse(&rc, big, n, &err), -1);
	assert_non_null(strstr(err.msg, "larger than"));
	memset(big, '#', XG_RC_LINE_MAX + 2);
	big[XG_RC_LINE_MAX + 1] = '\n';
	assert_int_equal(rc_parse(&rc, big, XG_RC_LINE_MAX + 2, &err), -1);
	assert_non_null(strstr(err.msg, "line 1: line too long"));
	memset(big, '\n', n);
	assert_int_equal(rc_parse(&rc, big, XG_RC_LINES_MAX + 1, &err), -1);
	assert_non_null(strstr(err.msg, "too many lines"));
	free(big);
}

static void default_path(void **state)
{
	(void)state;
	char b[256];
	setenv("HOME", "/home/u", 1);
	setenv("XDG_CONFIG_HOME", "/cfg", 1);
	assert_true(settings_default_path(b, sizeof(b)));
	assert_string_equal(b, "/cfg/xgtop/xgtoprc");
	setenv("XDG_CONFIG_HOME", "rel/ative", 1);
	assert_true(settings_default_path(b, sizeof(b)));
	assert_string_equal(b, "/home/u/.config/xgtop/xgtoprc");
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("HOME");
	assert_false(settings_default_path(b, sizeof(b)));
}

/* Under sudo, HOME may still be a user's: root leaves a settings file
 * alone when a directory on its way (or the file) is someone else's. */
static void foreign_owner(void **state)
{
	(void)state;
	assert_int_equal(settings_foreign_owner("/etc/passwd", 0), -1);
	char d[64], f[96];
	snprintf(d, sizeof(d), "/tmp/xgtop-test-owner-XXXXXX");
	assert_non_null(mkdtemp(d));
	snprintf(f, sizeof(f), "%s/xgtop/xgtoprc", d);
	/* Ours (or root's) all the way, existing or not. */
	assert_int_equal(settings_foreign_owner(f, getuid()), -1);
	if (getuid() == 0) {
		assert_int_equal(chown(d, 65534, 65534), 0);
		assert_int_equal(settings_foreign_owner(f, 0), 65534);
		/* A symlink of another user's on the way counts, not its target. */
		char l[96];
		snprintf(l, sizeof(l), "%s/link", d);
		assert_int_equal(chown(d, 0, 0), 0);
		assert_int_equal(symlink("/etc", l), 0);
		assert_int_equal(lchown(l, 65534, 65534), 0);
		snprintf(f, sizeof(f), "%s/link/xgtoprc", d);
		assert_int_equal(settings_foreign_owner(f, 0), 65534);
		unlink(l);
	}
	rmdir(d);
}

static void load_apply(struct xg_settings *st, struct xg_view *v, const struct xg_config *cfg,
		       const char *path)
{
	settings_load(st, path);
	view_init(v, cfg);
	settings_apply(st, v, cfg);
}

/* Writes text (a string) to the file name, then loads and applies it. */
static void load_text(struct xg_settings *st, struct xg_view *v, const struct xg_config *cfg,
		      const char *name, const char *text)
{
	put(tmp(name), text, strlen(text));
	load_apply(st, v, cfg, tmp(name));
}

static void done(struct xg_settings *st, struct xg_view *v)
{
	view_free(v);
	settings_free(st);
}

static void apply_beneath_command_line(void **state)
{
	(void)state;
	load_text(&st, &v, &cfg, "a", "reverse = on\nsort = mem\ndelay = 2.5\ncolumns = name id -state mem\n"
		  "net = off\nmeters = off\nthreshold.wait_pct = 5 15\nthreshold.hit_pct = off\n");
	assert_int_equal(st.nwarn, 0);
	assert_int_equal(v.sort_col, XG_COL_MEM);
	assert_true(v.reverse);
	assert_true(v.delay_s == 2.5);
	/* HOST, which the list leaves out, stays in front (the pool view's). */
	assert_int_equal(v.col_order[0], XG_COL_HOST);
	assert_int_equal(v.col_order[1], XG_COL_NAME);
	assert_int_equal(v.col_order[4], XG_COL_MEM);
	assert_int_equal(v.col_order[5], XG_COL_CPU_PCT);
	assert_true(view_col_hidden(&v, XG_COL_STATE));
	assert_false(v.show_net || v.show_meters);
	assert_true(v.thr.warn[XG_RULE_WAIT] == 5 && v.thr.off[XG_RULE_HIT]);
	done(&st, &v);
	/* The command line wins: -d, --sort (and the file's reverse with it). */
	cfg.delay_given = true;
	cfg.delay_s = 3;
	cfg.sort = "wait";
	load_apply(&st, &v, &cfg, tmp("a"));
	assert_true(v.delay_s == 3);
	assert_int_equal(v.sort_col, XG_COL_WAIT);
	assert_false(v.reverse);
	assert_false(v.show_net);
	done(&st, &v);
}

static void warnings_and_broken(void **state)
{
	(void)state;
	/* Missing: no settings, no warning. */
	load_apply(&st, &v, &cfg, tmp("none"));
	assert_int_equal(st.nwarn, 0);
	assert_false(st.broken);
	done(&st, &v);
	load_text(&st, &v, &cfg, "w", "colour = blue\nsort = nosuch\ndelay = 0\ncolumns = id bogus\n"
		  "net = maybe\nthreshold.wait_pct = 30 10\nthreshold.nosuch = 1 2\n");
	assert_int_equal(st.nwarn, 7);
	assert_non_null(strstr(st.warn, "line 1: unknown key 'colour' (kept in the file)"));
	assert_int_equal(v.sort_col, XG_COL_CPU_PCT);
	assert_true(v.delay_s == 1 && v.show_net && v.col_order[2] == XG_COL_NAME);
	assert_true(v.thr.warn[XG_RULE_WAIT] == 10);
	done(&st, &v);
	/* Broken: one warning, the defaults, never written. */
	put(tmp("b"), "sort = mem\n\x7f\x45LF\x02\n", 12);
	load_apply(&st, &v, &cfg, tmp("b"));
	assert_true(st.broken);
	assert_int_equal(st.nwarn, 1);
	assert_non_null(strstr(st.warn, "line 2: control character"));
	assert_non_null(strstr(st.warn, "using the defaults"));
	assert_int_equal(v.sort_col, XG_COL_CPU_PCT);
	view_toggle(&v, XG_TOGGLE_NET);
	struct xg_err err = { 0 };
	assert_int_equal(settings_save(&st, &v, &err), -1);
	assert_non_null(strstr(err.msg, "not saved"));
	char *after = slurp(tmp("b"));
	assert_memory_equal(after, "sort = mem\n\x7f\x45LF\x02\n", 12);
	free(after);
	done(&st, &v);
}

static void save_what_changed(void **state)
{
	(void)state;
	struct xg_err err = { 0 };
	/* Nothing changed: nothing written, no file made. */
	const char *path = tmp("sub/dir/xgtoprc");
	load_apply(&st, &v, &cfg, path);
	assert_int_equal(settings_save(&st, &v, &err), 0);
	assert_int_equal(access(path, F_OK), -1);
	/* A change: a new file with a header and that setting only. */
	view_col_set_hidden(&v, XG_COL_MAXMEM, true);
	assert_int_equal(settings_save(&st, &v, &err), 1);
	char *t = slurp(path);
	assert_non_null(t);
	assert_true(t[0] == '#');
	assert_non_null(strstr(t, "\ncolumns = host id name state cpu_pct cpu_s vcpus mem_bytes mem_pct -maxmem_bytes "));
	assert_null(strstr(t, "sort ="));
	free(t);
	assert_int_equal(settings_save(&st, &v, &err), 0);   /* saved: nothing new */
	done(&st, &v);

	/* An existing file: comments, unknown keys and untouched settings
	 * stay; a setting the command line overrode is not saved. */
	cfg.nodisk = true;
	load_text(&st, &v, &cfg, "e", "# mine\nfuture = 1\ndelay = 5\nsort = mem\n");
	assert_int_equal(st.nwarn, 1);
	view_toggle(&v, XG_TOGGLE_SCHED);
	assert_int_equal(settings_save(&st, &v, &err), 1);
	t = slurp(tmp("e"));
	assert_string_equal(t, "# mine\nfuture = 1\ndelay = 5\nsort = mem\nsched = off\n");
	free(t);
	done(&st, &v);
	/* --no-config: no path, nothing saved. */
	settings_load(&st, NULL);
	view_init(&v, &cfg);
	settings_apply(&st, &v, &cfg);
	view_toggle(&v, XG_TOGGLE_NET);
	assert_int_equal(settings_save(&st, &v, &err), 0);
	done(&st, &v);
}

static int setup(void **state)
{
	(void)state;
	return tmpdir_make("settings");
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_lines),
		cmocka_unit_test(parse_broken),
		cmocka_unit_test(default_path),
		cmocka_unit_test(foreign_owner),
		cmocka_unit_test_setup(apply_beneath_command_line, setup_one),
		cmocka_unit_test_setup(warnings_and_broken, setup_one),
		cmocka_unit_test_setup(save_what_changed, setup_one),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
