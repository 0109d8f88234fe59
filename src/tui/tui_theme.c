// SPDX-License-Identifier: GPL-2.0-or-later
/* Colour themes: what each part of the screen looks like (the header, the
 * meters, the warn and crit levels, the selection, graphs, error text), as
 * xterm-256 colour numbers and attributes. tui_color.c fits them to the
 * terminal's colours. Four are built in; a user theme is a file
 * $XDG_CONFIG_HOME/xgtop/themes/NAME of `key = value` lines (the settings
 * file's format):
 *
 *   base = light               # start from a built-in theme (default: default)
 *   warn = 214 bold            # colour [on colour] [bold] [reverse] [underline] [dim]
 *   crit = white on 160 bold   # colours: 0..255, default, black .. white, bright-black ..
 *
 * A file that cannot be read or says something unknown gives one line of
 * warning and the default theme. */
#include "tui_state.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "xgtop/settings/rcfile.h"

#define D (-1)   /* the terminal's own colour */
#define S(fg, bg, at) { (fg), (bg), (at) }

static const struct {
	const char *name;
	struct tui_style el[TUI_EL_COUNT];
} builtin[] = {
	/* Today's look: colour only where a level asks for attention;
	 * orange and red-orange (214, 166) avoid the red/green pairs. */
	{ "default", {
		[TUI_EL_HEADER] = S(D, D, A_REVERSE),
		[TUI_EL_METER] = S(D, D, 0),
		[TUI_EL_WARN] = S(214, D, A_BOLD),
		[TUI_EL_CRIT] = S(166, D, A_REVERSE | A_BOLD),
		[TUI_EL_SELECT] = S(D, D, A_REVERSE),
		[TUI_EL_GRAPH] = S(D, D, 0),
		[TUI_EL_ERR] = S(1, D, A_BOLD),
	} },
	/* Light backgrounds: dark colours that keep their contrast on white. */
	{ "light", {
		[TUI_EL_HEADER] = S(D, D, A_REVERSE),
		[TUI_EL_METER] = S(25, D, 0),
		[TUI_EL_WARN] = S(130, D, A_BOLD),
		[TUI_EL_CRIT] = S(124, D, A_REVERSE | A_BOLD),
		[TUI_EL_SELECT] = S(D, D, A_REVERSE),
		[TUI_EL_GRAPH] = S(25, D, 0),
		[TUI_EL_ERR] = S(124, D, A_BOLD),
	} },
	/* Attributes only, as with NO_COLOR. */
	{ "mono", {
		[TUI_EL_HEADER] = S(D, D, A_REVERSE),
		[TUI_EL_METER] = S(D, D, 0),
		[TUI_EL_WARN] = S(D, D, A_UNDERLINE),
		[TUI_EL_CRIT] = S(D, D, A_REVERSE | A_BOLD),
		[TUI_EL_SELECT] = S(D, D, A_REVERSE),
		[TUI_EL_GRAPH] = S(D, D, 0),
		[TUI_EL_ERR] = S(D, D, A_BOLD),
	} },
	/* For the common colour-vision deficiencies: blue and yellow (an
	 * axis every one of them keeps), and levels that differ in lightness
	 * and form as well: warn is light underlined text, crit a dark block
	 * with white text. */
	{ "safe", {
		[TUI_EL_HEADER] = S(D, D, A_REVERSE),
		[TUI_EL_METER] = S(32, D, 0),
		[TUI_EL_WARN] = S(220, D, A_BOLD | A_UNDERLINE),
		[TUI_EL_CRIT] = S(231, 20, A_BOLD),
		[TUI_EL_SELECT] = S(D, D, A_REVERSE),
		[TUI_EL_GRAPH] = S(32, D, 0),
		[TUI_EL_ERR] = S(220, D, A_BOLD),
	} },
};

/* The user file's keys, by element. */
static const char *const el_key[TUI_EL_COUNT] = {
	[TUI_EL_HEADER] = "header", [TUI_EL_METER] = "meters", [TUI_EL_WARN] = "warn",
	[TUI_EL_CRIT] = "crit", [TUI_EL_SELECT] = "selection", [TUI_EL_GRAPH] = "graphs",
	[TUI_EL_ERR] = "error",
};

static const char *const color_name[16] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
	"bright-black", "bright-red", "bright-green", "bright-yellow", "bright-blue",
	"bright-magenta", "bright-cyan", "bright-white",
};

static bool builtin_theme(const char *name, struct tui_theme *th)
{
	for (size_t i = 0; i < XG_ARRAY_LEN(builtin); i++)
		if (!strcmp(name, builtin[i].name)) {
			memcpy(th->el, builtin[i].el, sizeof(th->el));
			snprintf(th->name, sizeof(th->name), "%s", name);
			return true;
		}
	return false;
}

/* A colour word: 0..255, default or a name; -2 when it is none. */
static int parse_color(const char *w)
{
	uint64_t u;
	if (xg_parse_u64(w, &u))
		return u <= 255 ? (int)u : -2;
	if (!strcasecmp(w, "default"))
		return D;
	if (!strcasecmp(w, "gray") || !strcasecmp(w, "grey"))
		return 8;
	for (int c = 0; c < 16; c++)
		if (!strcasecmp(w, color_name[c]))
			return c;
	return -2;
}

/* "colour [on colour] [bold] [reverse] [underline] [dim]" (any order of
 * the attributes; "none" for no colour and no attribute). */
static int parse_style(const char *value, struct tui_style *st, struct xg_err *err)
{
	static const struct { const char *w; attr_t a; } attrs[] = {
		{ "bold", A_BOLD }, { "reverse", A_REVERSE }, { "underline", A_UNDERLINE }, { "dim", A_DIM },
	};
	struct tui_style out = { D, D, 0 };
	char buf[256], *save = NULL;
	snprintf(buf, sizeof(buf), "%s", value);
	int colors = 0;
	bool on = false;
	for (char *w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		bool known = false;
		for (size_t i = 0; i < XG_ARRAY_LEN(attrs); i++)
			if (!strcasecmp(w, attrs[i].w)) {
				out.attr |= attrs[i].a;
				known = true;
			}
		if (known || !strcasecmp(w, "none"))
			continue;
		if (!strcasecmp(w, "on")) {
			on = true;
			continue;
		}
		int c = parse_color(w);
		if (c == -2)
			return xg_fail(err, "'%s' is no colour or attribute (man xgtop, THEMES)", w);
		if (on) {
			out.bg = (short)c;
			on = false;
		} else if (colors++ == 0) {
			out.fg = (short)c;
		} else {
			return xg_fail(err, "two colours without 'on' between them");
		}
	}
	if (on)
		return xg_fail(err, "'on' without a colour after it");
	*st = out;
	return 0;
}

/* $XDG_CONFIG_HOME/xgtop/themes/NAME (an absolute XDG_CONFIG_HOME), else
 * $HOME/.config/xgtop/themes/NAME. */
static bool theme_path(const char *name, char *buf, size_t n)
{
	const char *x = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	int len;
	if (x && x[0] == '/')
		len = snprintf(buf, n, "%s/xgtop/themes/%s", x, name);
	else if (home && home[0])
		len = snprintf(buf, n, "%s/.config/xgtop/themes/%s", home, name);
	else
		return false;
	return len > 0 && (size_t)len < n;
}

/* Reads the theme file at path into th (over the default theme). */
static int theme_file(const char *path, struct tui_theme *th, struct xg_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return xg_fail_errno(err, errno, "cannot read it");
	char *text = xg_malloc(XG_RC_SIZE_MAX + 1);
	ssize_t len = 0, r;
	while (len <= XG_RC_SIZE_MAX && (r = read(fd, text + len, (size_t)(XG_RC_SIZE_MAX + 1 - len))) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			close(fd);
			free(text);
			return xg_fail_errno(err, e, "cannot read it");
		}
		len += r;
	}
	close(fd);
	struct xg_rc rc = { 0 };
	int res = len > XG_RC_SIZE_MAX ? xg_fail(err, "larger than %d bytes", XG_RC_SIZE_MAX)
				       : rc_parse(&rc, text, (size_t)len, err);
	free(text);
	/* base first, wherever it stands: the other lines change it. */
	for (size_t i = 0; !res && i < rc.n; i++)
		if (rc.e[i].key && !strcmp(rc.e[i].key, "base") && !builtin_theme(rc.e[i].value, th))
			res = xg_fail(err, "line %u: base = %s: not a built-in theme (default, light, mono, safe)",
				      rc.e[i].line, rc.e[i].value);
	for (size_t i = 0; !res && i < rc.n; i++) {
		const struct xg_rc_entry *e = &rc.e[i];
		if (!e->key || !strcmp(e->key, "base"))
			continue;
		int k = -1;
		for (int q = 0; q < TUI_EL_COUNT; q++)
			if (!strcmp(e->key, el_key[q]))
				k = q;
		struct xg_err why = { 0 };
		if (k < 0)
			res = xg_fail(err, "line %u: unknown key '%s' (base, header, meters, warn, crit, "
				      "selection, graphs, error)", e->line, e->key);
		else if (parse_style(e->value, &th->el[k], &why) < 0)
			res = xg_fail(err, "line %u: %s = %s: %s", e->line, e->key, e->value, why.msg);
	}
	rc_free(&rc);
	return res;
}

void tui_theme_load(const char *name, struct tui_theme *th, char *warn, size_t n)
{
	warn[0] = 0;
	builtin_theme("default", th);
	if (!name || !name[0] || builtin_theme(name, th))
		return;
	char path[4096];
	struct xg_err err = { 0 };
	if (!theme_path(name, path, sizeof(path))) {
		snprintf(warn, n, "theme %s not used (the default theme): no themes directory (neither "
			 "XDG_CONFIG_HOME nor HOME is set)", name);
		return;
	}
	if (access(path, F_OK) < 0 && errno == ENOENT) {
		snprintf(warn, n, "theme %s not used (the default theme): no such theme (built in: default, "
			 "light, mono, safe; or a file %s)", name, path);
		return;
	}
	if (theme_file(path, th, &err) < 0) {
		builtin_theme("default", th);
		snprintf(warn, n, "theme %s not used (the default theme): %s: %s", name, path, err.msg);
		return;
	}
	snprintf(th->name, sizeof(th->name), "%s", name);
}

void tui_theme_mono(struct tui_theme *th)
{
	builtin_theme("mono", th);
}
