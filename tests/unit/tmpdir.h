/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A unit test's private directory under /tmp: tmpdir_make("name") before
 * the tests, tmp("file") for a path in it (the last four stay valid),
 * tmpdir_write() to fill a file, tmpdir_remove() after. */
#ifndef XGTOP_TEST_TMPDIR_H
#define XGTOP_TEST_TMPDIR_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* Writes text to path, created or truncated in place (the same inode):
 * 0, or -1. */
static inline int tmpdir_write(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

static inline int tmpdir_remove(void)
{
	char cmd[160];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

#endif
