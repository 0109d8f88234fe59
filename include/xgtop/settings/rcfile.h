/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The settings file's text: `key = value` lines, `#` comment lines and
 * blank lines. Kept apart from what the keys mean (settings.c) because it
 * reads a file anyone may have edited, and is fuzzed: every line is
 * bounded, nothing recurses, and any text gives either entries or an
 * error naming the line, never a crash. */
#ifndef XGTOP_RCFILE_H
#define XGTOP_RCFILE_H

#include "xgtop/core/common.h"

#define XG_RC_LINE_MAX 1024         /* bytes per line, newline excluded */
#define XG_RC_LINES_MAX 1024
#define XG_RC_SIZE_MAX (64 * 1024)  /* a larger file is not a settings file */

/* One line: a setting (key set), or a comment or blank line kept as it
 * was (key NULL, text in value) so that writing the file back keeps it. */
struct xg_rc_entry {
	char *key;
	char *value;
	unsigned line;        /* 1-based line in the file read, 0 = added */
};

struct xg_rc {
	struct xg_rc_entry *e;
	size_t n, cap;
};

/* Parses len bytes of text into rc (emptied first). Returns 0, or -1 with
 * err saying which line is wrong ("line 3: expected 'key = value'"); rc
 * is then empty. */
int rc_parse(struct xg_rc *rc, const char *text, size_t len, struct xg_err *err);
/* The setting named key (the last one when the key repeats), or NULL. */
struct xg_rc_entry *rc_find(const struct xg_rc *rc, const char *key);
/* Sets key to value: changes the setting in place, or appends one. */
void rc_set(struct xg_rc *rc, const char *key, const char *value);
/* Appends a comment line (text as written, '#' included). */
void rc_comment(struct xg_rc *rc, const char *text);
/* rc as file text (one line per entry), into a new string. */
char *rc_text(const struct xg_rc *rc);
void rc_free(struct xg_rc *rc);

#endif
