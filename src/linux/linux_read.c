// SPDX-License-Identifier: GPL-2.0-or-later
/* Directories of /proc and cgroupfs opened relative to an open directory
 * (the files in them are read with core's xg_read_at). */
#include "linux_text.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

DIR *lx_opendir_at(int dirfd, const char *path)
{
	int fd = dirfd < 0 ? -1 : openat(dirfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	if (!d && fd >= 0) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return d;
}
