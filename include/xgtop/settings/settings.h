/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The settings file (xgtoprc): sort, columns (order, hidden), toggles,
 * delay and thresholds of the view. Read at start, beneath the command
 * line; written on quit only with what the user changed in the session,
 * so options given once and defaults that later versions improve do not
 * get frozen into the file. Every other line of the file (unknown keys,
 * comments) is kept. */
#ifndef XGTOP_SETTINGS_H
#define XGTOP_SETTINGS_H

#include "xgtop/model/config.h"
#include "xgtop/settings/rcfile.h"
#include "xgtop/view/view.h"

struct xg_settings {
	char *path;           /* the file; NULL when there is none to use */
	struct xg_rc file;    /* its lines as read */
	struct xg_rc start;   /* the view's settings once applied */
	bool broken;          /* unreadable: the defaults were used; never written */
	char warn[512];       /* one line for the user ("" = all well) */
	unsigned nwarn;       /* problems found (the first is in warn) */
};

/* $XDG_CONFIG_HOME/xgtop/xgtoprc (an absolute XDG_CONFIG_HOME only), else
 * $HOME/.config/xgtop/xgtoprc. false when neither variable says where. */
bool settings_default_path(char *buf, size_t n);
/* Root reads and writes its default settings file only along a path of
 * root's: under `sudo` HOME may still be a user's, whose directories (a
 * symlink put there) would choose where root writes. Returns the owner of
 * the first existing part of path (itself or a directory above, not
 * followed through symlinks) that belongs neither to uid nor to root, or
 * -1 when there is none. */
long settings_foreign_owner(const char *path, unsigned uid);
/* Reads path (NULL: no file). A missing file is no settings at all; a
 * file that cannot be used leaves a warning, the defaults and broken. */
void settings_load(struct xg_settings *st, const char *path);
/* Applies what the file sets to v, except where the command line (cfg)
 * said otherwise; a bad value or unknown key adds a warning and leaves
 * that setting as it was. Remembers the result as the session's start. */
void settings_apply(struct xg_settings *st, struct xg_view *v, const struct xg_config *cfg);
/* Writes the file when v differs from the start: the settings that
 * changed take v's value, every other line stays as read. Writes a
 * temporary file beside it and renames it over. Returns 1 when written,
 * 0 when there was nothing to write, -1 with err. */
int settings_save(struct xg_settings *st, const struct xg_view *v, struct xg_err *err);
void settings_free(struct xg_settings *st);

#endif
