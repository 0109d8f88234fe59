// SPDX-License-Identifier: GPL-2.0-or-later
/* What the settings file's keys mean: each key reads and writes one part
 * of the view. The text itself is rcfile.c's. */
#include "xgtop/settings/settings.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define THR_PREFIX "threshold."

struct key {
	const char *name;
	int (*set)(struct xg_view *v, int arg, const char *value, struct xg_err *err);
	void (*get)(const struct xg_view *v, int arg, char *buf, size_t n);
	bool (*given)(const struct xg_config *c, int arg);   /* the command line set it */
	int arg;
};

static int set_bool(const char *value, bool *out, struct xg_err *err)
{
	static const char *const yes[] = { "on", "yes", "true", "1" }, *const no[] = { "off", "no", "false", "0" };
	for (size_t i = 0; i < XG_ARRAY_LEN(yes); i++) {
		if (!strcasecmp(value, yes[i]) || !strcasecmp(value, no[i])) {
			*out = !strcasecmp(value, yes[i]);
			return 0;
		}
	}
	return xg_fail(err, "give on or off");
}

static int set_sort(struct xg_view *v, int arg, const char *value, struct xg_err *err)
{
	(void)arg;
	int c = col_lookup(value);
	if (c < 0)
		return xg_fail(err, "no such column");
	if (!view_sortable((enum xg_col)c))
		return xg_fail(err, "a drawing, not a sort key");
	v->sort_col = (enum xg_col)c;   /* the direction is reverse's, in any line order */
	return 0;
}

static void get_sort(const struct xg_view *v, int arg, char *buf, size_t n)
{
	(void)arg;
	snprintf(buf, n, "%s", xg_columns[v->sort_col].key);
}

static int set_reverse(struct xg_view *v, int arg, const char *value, struct xg_err *err)
{
	(void)arg;
	return set_bool(value, &v->reverse, err);
}

static void get_reverse(const struct xg_view *v, int arg, char *buf, size_t n)
{
	(void)arg;
	snprintf(buf, n, "%s", v->reverse ? "on" : "off");
}

static int set_delay(struct xg_view *v, int arg, const char *value, struct xg_err *err)
{
	(void)arg;
	double d;
	if (!xg_parse_double(value, &d) || !view_delay_valid(d))
		return xg_fail(err, "give seconds from " XG_DELAY_RANGE);
	v->delay_s = d;
	return 0;
}

static void get_delay(const struct xg_view *v, int arg, char *buf, size_t n)
{
	(void)arg;
	snprintf(buf, n, "%g", v->delay_s);
}

/* Column keys in display order, hidden ones marked with a leading '-'. */
static int set_columns(struct xg_view *v, int arg, const char *value, struct xg_err *err)
{
	(void)arg;
	enum xg_col list[XG_COL_COUNT];
	uint64_t hidden = 0;
	size_t n = 0;
	char word[64];
	for (const char *p = value; *p;) {
		size_t len = strcspn(p, " \t,");
		if (len && len < sizeof(word)) {
			memcpy(word, p, len);
			word[len] = 0;
			int c = col_lookup(word[0] == '-' ? word + 1 : word);
			if (c < 0 || n == XG_COL_COUNT)
				return xg_fail(err, "no such column '%s'", word);
			list[n++] = (enum xg_col)c;
			hidden |= word[0] == '-' && c != XG_COL_NAME ? 1ull << c : 0;
		} else if (len) {
			return xg_fail(err, "no such column '%.20s...'", p);
		}
		p += len + strspn(p + len, " \t,");
	}
	view_cols_order(v, list, n);
	for (int c = 0; c < XG_COL_COUNT; c++)
		view_col_set_hidden(v, (enum xg_col)c, (hidden >> c) & 1);
	return 0;
}

static void get_columns(const struct xg_view *v, int arg, char *buf, size_t n)
{
	(void)arg;
	size_t o = 0;
	buf[0] = 0;
	for (int k = 0; k < XG_COL_COUNT && o < n; k++) {
		enum xg_col c = v->col_order[k];
		o += (size_t)snprintf(buf + o, n - o, "%s%s%s", k ? " " : "", view_col_hidden(v, c) ? "-" : "",
				      xg_columns[c].key);
	}
}

static int set_toggle(struct xg_view *v, int arg, const char *value, struct xg_err *err)
{
	bool on;
	if (set_bool(value, &on, err) < 0)
		return -1;
	view_toggle_set(v, (enum xg_toggle)arg, on);
	return 0;
}

static void get_toggle(const struct xg_view *v, int arg, char *buf, size_t n)
{
	snprintf(buf, n, "%s", view_toggle_get(v, (enum xg_toggle)arg) ? "on" : "off");
}

static int set_stable(struct xg_view *v, int arg, const char *value, struct xg_err *err)
{
	(void)arg;
	return set_bool(value, &v->stable, err);
}

static void get_stable(const struct xg_view *v, int arg, char *buf, size_t n)
{
	(void)arg;
	snprintf(buf, n, "%s", v->stable ? "on" : "off");
}

static int set_theme(struct xg_view *v, int arg, const char *value, struct xg_err *err)
{
	(void)arg;
	if (!view_theme_name_ok(value))
		return xg_fail(err, "give a theme name (default, light, mono, safe, or a file's in the themes directory)");
	snprintf(v->theme, sizeof(v->theme), "%s", value);
	return 0;
}

static void get_theme(const struct xg_view *v, int arg, char *buf, size_t n)
{
	(void)arg;
	snprintf(buf, n, "%s", v->theme);
}

static int set_contention(struct xg_view *v, int arg, const char *value, struct xg_err *err)
{
	(void)arg;
	return susp_cfg_parse(&v->susp, value, err);
}

static void get_contention(const struct xg_view *v, int arg, char *buf, size_t n)
{
	(void)arg;
	susp_cfg_format(&v->susp, buf, n);
}

static bool given_stable(const struct xg_config *c, int arg) { (void)arg; return c->stable_order >= 0; }
static bool given_theme(const struct xg_config *c, int arg) { (void)arg; return c->theme; }
static bool given_sort(const struct xg_config *c, int arg) { (void)arg; return c->sort; }
/* A direction read with another sort column would be the wrong one. */
static bool given_reverse(const struct xg_config *c, int arg) { (void)arg; return c->reverse || c->sort; }
static bool given_delay(const struct xg_config *c, int arg) { (void)arg; return c->delay_given; }

/* --nodisk & co. turn a group off (and its collection); -v turns vCPU rows on. */
static bool given_toggle(const struct xg_config *c, int arg)
{
	switch ((enum xg_toggle)arg) {
	case XG_TOGGLE_DISK: return c->nodisk;
	case XG_TOGGLE_NET: return c->nonet;
	case XG_TOGGLE_CACHE: return c->nocache;
	case XG_TOGGLE_SUMCACHE: return c->nosumcache;
	case XG_TOGGLE_SCHED: return c->notrace;
	case XG_TOGGLE_VCPUS: return c->vcpus;
	default: return false;
	}
}

/* In the order the file lists them; the threshold.* keys follow. */
static const struct key keys[] = {
	{ "sort", set_sort, get_sort, given_sort, 0 },
	{ "reverse", set_reverse, get_reverse, given_reverse, 0 },
	{ "delay", set_delay, get_delay, given_delay, 0 },
	{ "columns", set_columns, get_columns, NULL, 0 },
	{ "disk", set_toggle, get_toggle, given_toggle, XG_TOGGLE_DISK },
	{ "net", set_toggle, get_toggle, given_toggle, XG_TOGGLE_NET },
	{ "cache", set_toggle, get_toggle, given_toggle, XG_TOGGLE_CACHE },
	{ "sumcache", set_toggle, get_toggle, given_toggle, XG_TOGGLE_SUMCACHE },
	{ "sched", set_toggle, get_toggle, given_toggle, XG_TOGGLE_SCHED },
	{ "vcpus", set_toggle, get_toggle, given_toggle, XG_TOGGLE_VCPUS },
	{ "meters", set_toggle, get_toggle, NULL, XG_TOGGLE_METERS },
	{ "trend", set_toggle, get_toggle, NULL, XG_TOGGLE_TREND },
	{ "stable-order", set_stable, get_stable, given_stable, 0 },
	{ "theme", set_theme, get_theme, given_theme, 0 },
	{ "contention", set_contention, get_contention, NULL, 0 },
};

static int set_threshold(struct xg_view *v, int arg, const char *value, struct xg_err *err)
{
	return threshold_parse(&v->thr, (enum xg_rule)arg, value, err);
}

static void get_threshold(const struct xg_view *v, int arg, char *buf, size_t n)
{
	threshold_format(&v->thr, (enum xg_rule)arg, buf, n);
}

/* The handler for name: a key of the table, or threshold.RULE (which
 * *tmp then describes). NULL for a key this xgtop does not know. */
static const struct key *key_find(const char *name, struct key *tmp)
{
	for (size_t i = 0; i < XG_ARRAY_LEN(keys); i++)
		if (!strcmp(name, keys[i].name))
			return &keys[i];
	if (strncmp(name, THR_PREFIX, strlen(THR_PREFIX)))
		return NULL;
	int r = threshold_lookup(name + strlen(THR_PREFIX));
	if (r < 0)
		return NULL;
	*tmp = (struct key){ name, set_threshold, get_threshold, NULL, r };
	return tmp;
}

/* Every setting of v as "key = value" entries, in file order. */
static void settings_from_view(const struct xg_view *v, struct xg_rc *out)
{
	char buf[1024], name[64];
	rc_free(out);
	for (size_t i = 0; i < XG_ARRAY_LEN(keys); i++) {
		keys[i].get(v, keys[i].arg, buf, sizeof(buf));
		rc_set(out, keys[i].name, buf);
	}
	for (int r = 0; r < XG_RULE_COUNT; r++) {
		snprintf(name, sizeof(name), THR_PREFIX "%s", xg_rules[r].key);
		threshold_format(&v->thr, (enum xg_rule)r, buf, sizeof(buf));
		rc_set(out, name, buf);
	}
}

bool settings_default_path(char *buf, size_t n)
{
	const char *x = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	int len;
	/* The XDG spec: a relative XDG_CONFIG_HOME is to be ignored. */
	if (x && x[0] == '/')
		len = snprintf(buf, n, "%s/xgtop/xgtoprc", x);
	else if (home && home[0])
		len = snprintf(buf, n, "%s/.config/xgtop/xgtoprc", home);
	else
		return false;
	return len > 0 && (size_t)len < n;
}

long settings_foreign_owner(const char *path, unsigned uid)
{
	size_t n = strlen(path);
	char *d = xg_strdup(path);
	long who = -1;
	/* Each directory on the way ("/home", "/home/u" ...), then the file. */
	for (size_t i = 1; i <= n && who < 0; i++) {
		if (i < n && path[i] != '/')
			continue;
		d[i] = 0;
		struct stat sb;
		if (lstat(d, &sb) == 0 && sb.st_uid != uid && sb.st_uid != 0)
			who = (long)sb.st_uid;
		d[i] = path[i];
	}
	free(d);
	return who;
}

XG_PRINTF(2, 3)
static void warn(struct xg_settings *st, const char *fmt, ...)
{
	if (st->nwarn++)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(st->warn, sizeof(st->warn), fmt, ap);
	va_end(ap);
}

void settings_load(struct xg_settings *st, const char *path)
{
	memset(st, 0, sizeof(*st));
	if (!path)
		return;
	st->path = xg_strdup(path);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		return;
	char *text = xg_malloc(XG_RC_SIZE_MAX + 1);
	ssize_t len = fd < 0 ? -1 : 0, r = 0;
	while (fd >= 0 && len <= XG_RC_SIZE_MAX &&
	       (r = read(fd, text + len, (size_t)(XG_RC_SIZE_MAX + 1 - len))) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		len += r;
	}
	int e = errno;
	struct xg_err err = { 0 };
	if (fd < 0 || r < 0)
		xg_fail_errno(&err, e, "cannot read it");
	if (fd >= 0)
		close(fd);
	if (!err.msg[0] && rc_parse(&st->file, text, (size_t)len, &err) == 0) {
		free(text);
		return;
	}
	free(text);
	st->broken = true;
	warn(st, "%s: %s; using the defaults (the file is left as it is)", path, err.msg);
}

void settings_apply(struct xg_settings *st, struct xg_view *v, const struct xg_config *cfg)
{
	for (size_t i = 0; i < st->file.n; i++) {
		const struct xg_rc_entry *e = &st->file.e[i];
		struct key tmp;
		struct xg_err err = { 0 };
		if (!e->key)
			continue;
		const struct key *k = key_find(e->key, &tmp);
		if (!k)
			warn(st, "%s: line %u: unknown key '%s' (kept in the file)", st->path, e->line, e->key);
		else if (k->given && k->given(cfg, k->arg))
			continue;   /* the command line wins */
		else if (k->set(v, k->arg, e->value, &err) < 0)
			warn(st, "%s: line %u: %s = %s: %s; the default stays", st->path, e->line, e->key, e->value,
			     err.msg);
	}
	settings_from_view(v, &st->start);
}

/* Creates the directories of path that are missing (private, as the XDG
 * spec asks of the config directory). */
static int make_dirs(const char *path, struct xg_err *err)
{
	char *d = xg_strdup(path);
	int rc = 0;
	for (char *p = strchr(d + 1, '/'); p && !rc; p = strchr(p + 1, '/')) {
		*p = 0;
		if (mkdir(d, 0700) < 0 && errno != EEXIST)
			rc = xg_fail_errno(err, errno, "cannot create %s", d);
		*p = '/';
	}
	free(d);
	return rc;
}

/* Writes text to a new file beside path and renames it over path, so a
 * crash or a full disk leaves the old file whole. */
static int write_replace(const char *path, const char *text, struct xg_err *err)
{
	if (make_dirs(path, err) < 0)
		return -1;
	size_t n = strlen(path) + 8;
	char *tmp = xg_malloc(n);
	snprintf(tmp, n, "%s.XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		xg_fail_errno(err, errno, "cannot create a file beside %s", path);
		free(tmp);
		return -1;
	}
	struct stat st;
	fchmod(fd, stat(path, &st) == 0 ? (st.st_mode & 07777) : 0644);
	size_t len = strlen(text), done = 0;
	ssize_t w = 0;
	while (done < len && ((w = write(fd, text + done, len - done)) > 0 || (w < 0 && errno == EINTR)))
		done += w > 0 ? (size_t)w : 0;
	int rc = done == len && fsync(fd) == 0 ? 0 : -1;
	if (rc < 0)
		xg_fail_errno(err, errno ? errno : EIO, "cannot write %s", tmp);
	if (close(fd) < 0 && !rc)
		rc = xg_fail_errno(err, errno, "cannot write %s", tmp);
	if (!rc && rename(tmp, path) < 0)
		rc = xg_fail_errno(err, errno, "cannot rename %s to %s", tmp, path);
	if (rc)
		unlink(tmp);
	free(tmp);
	return rc;
}

int settings_save(struct xg_settings *st, const struct xg_view *v, struct xg_err *err)
{
	struct xg_rc now = { 0 };
	settings_from_view(v, &now);
	bool changed = false;
	for (size_t i = 0; i < now.n; i++) {
		const struct xg_rc_entry *was = rc_find(&st->start, now.e[i].key);
		if (was && !strcmp(was->value, now.e[i].value))
			continue;
		if (!changed && !st->file.n)   /* a new file says what it is */
			rc_comment(&st->file, "# xgtop settings: key = value lines (man xgtop, FILES); xgtop "
				   "writes the settings you change, the others keep their defaults");
		rc_set(&st->file, now.e[i].key, now.e[i].value);
		changed = true;
	}
	rc_free(&now);
	if (!changed || !st->path)
		return 0;
	if (st->broken)
		return xg_fail(err, "settings not saved: %s could not be read at start (fix or remove it)",
			       st->path);
	char *text = rc_text(&st->file);
	int rc = write_replace(st->path, text, err);
	free(text);
	if (rc == 0)
		settings_from_view(v, &st->start);
	return rc < 0 ? -1 : 1;
}

void settings_free(struct xg_settings *st)
{
	rc_free(&st->file);
	rc_free(&st->start);
	free(st->path);
	memset(st, 0, sizeof(*st));
}
