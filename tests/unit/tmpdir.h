/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A unit test's private directory under /tmp: tmpdir_make("name") before
 * the tests, tmp("file") for a path in it (the last four stay valid),
 * tmpdir_remove() after. */
#ifndef XGTOP_TEST_TMPDIR_H
#define XGTOP_TEST_TMPDIR_H

#include <stdio.h>
#include <stdlib.h>

static char dir[96];

static inline int tmpdir_make(const char *test)
{
	snprintf(dir, sizeof(dir), "/tmp/xgtop-test-%s-XXXXXX", test);
	return mkdtemp(dir) ? 0 : -1;
}

static inline const char *tmp(const char *name)
{
	static char b[4][256];
	static int i;
	i = (i + 1) % 4;
	snprintf(b[i], sizeof(b[i]), "%s/%s", dir, name);
	return b[i];
}

static inline int tmpdir_remove(void)
{
	char cmd[160];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

#endif
