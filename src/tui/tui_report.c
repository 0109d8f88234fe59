// SPDX-License-Identifier: GPL-2.0-or-later
/* The `W` key: the current view as a text report in a new file in the
 * current directory. The status line says where, or why not. */
#include "tui_state.h"
#include "xgtop/outputs/output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void tui_write_report(struct tui *t)
{
	char name[96], stamp[48];
	time_t now = time(NULL);
	struct tm tm;
	int fd = -1;

	if (!localtime_r(&now, &tm) || !strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm))
		snprintf(stamp, sizeof(stamp), "%lld", (long long)now);
	int oerr = 0;
	for (int i = 1; i < 100 && fd < 0; i++) {
		if (i == 1)
			snprintf(name, sizeof(name), "xgtop-report-%s.txt", stamp);
		else
			snprintf(name, sizeof(name), "xgtop-report-%s-%d.txt", stamp, i);
		fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		oerr = errno;
		if (fd < 0 && oerr != EEXIST)
			break;
	}
	if (fd < 0) {
		tui_set_msg(t, true, "cannot write %s: %s", name, strerror(oerr));
		return;
	}
	FILE *f = fdopen(fd, "w");
	if (!f) {
		tui_set_msg(t, true, "cannot write %s: %s", name, strerror(errno));
		close(fd);
		return;
	}
	int rc = output_write_report(f, engine_rows_complete(t->e), &t->e->view);
	int werr = ferror(f) ? errno : 0;
	if (fclose(f) != 0 && !werr)
		werr = errno ? errno : EIO;
	if (rc < 0 || werr)
		tui_set_msg(t, true, "cannot write %s: %s", name, strerror(werr ? werr : EIO));
	else
		tui_set_msg(t, false, "report written to %s", name);
}
