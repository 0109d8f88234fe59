// SPDX-License-Identifier: GPL-2.0-or-later
/* State files of attached CMT monitoring IDs (xen_cmt_state.h). One line
 * per domain, "dom ID HANDLE" (the handle as 32 hex digits), after a
 * comment that says what the file is for an administrator who finds it. */
#include "xen_cmt_state.h"
#include "xgtop/core/common.h"
#include "xgtop/xen/xen_rundir.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void parse(FILE *f, struct xen_cmt_left **v, size_t *n, size_t *cap)
{
	char line[128], hex[40];
	unsigned id;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "dom %u %32s", &id, hex) != 2 || strlen(hex) != 32)
			continue;
		struct xen_cmt_left e = { .id = id };
		bool ok = true;
		for (int i = 0; i < 16 && ok; i++)
			ok = sscanf(hex + 2 * i, "%2hhx", &e.handle[i]) == 1;
		if (!ok)
			continue;
		xg_grow(v, cap, *n + 1, sizeof(**v));
		(*v)[(*n)++] = e;
	}
}

void xen_cmts_claim(const char *dir, struct xen_cmt_left **v, size_t *n)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	size_t cap = *n;
	struct dirent *de;
	while ((de = readdir(d))) {
		long pid;
		int end = 0;
		if (sscanf(de->d_name, "cmt.%ld.state%n", &pid, &end) != 1 || de->d_name[end] ||
		    !xen_rundir_owner_gone(pid))
			continue;
		/* Renamed first: of two starts at once, one takes it. */
		char from[512], to[512];
		snprintf(from, sizeof(from), "%s/%s", dir, de->d_name);
		snprintf(to, sizeof(to), "%s/cmt.%ld.claim", dir, (long)getpid());
		if (rename(from, to))
			continue;
		FILE *f = fopen(to, "re");
		if (f) {
			parse(f, v, n, &cap);
			fclose(f);
		}
		unlink(to);
	}
	closedir(d);
}

void xen_cmts_write(const char *path, const struct xen_cmt_left *v, size_t n, char **last)
{
	size_t cap = 160 + n * 48, len = 0;
	char *text = xg_malloc(cap);
	len += (size_t)snprintf(text, cap, "# xgtop pid %ld attached CMT monitoring IDs to these domains; "
				"the next xgtop start detaches them if that run is gone\n", (long)getpid());
	for (size_t i = 0; i < n; i++) {
		len += (size_t)snprintf(text + len, cap - len, "dom %u ", v[i].id);
		for (int k = 0; k < 16; k++)
			len += (size_t)snprintf(text + len, cap - len, "%02x", v[i].handle[k]);
		text[len++] = '\n';
		text[len] = 0;
	}
	if (*last && !strcmp(*last, n ? text : "")) {
		free(text);
		return;
	}
	free(*last);
	*last = n ? text : xg_strdup("");
	if (!n) {
		free(text);
		unlink(path);
		return;
	}
	char tmp[512];
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	bool ok = fd >= 0 && write(fd, text, len) == (ssize_t)len;
	if (fd >= 0)
		close(fd);
	if (!ok || rename(tmp, path)) {
		unlink(tmp);
		free(*last);
		*last = NULL;   /* tried again at the next change */
	}
}
