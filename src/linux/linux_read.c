// SPDX-License-Identifier: GPL-2.0-or-later
/* Small-file reads for /proc and cgroupfs: openat() relative to an open
 * directory, one read() into the caller's (stack) buffer. procfs and
 * cgroupfs build the whole text on the first read when it fits, so a result
 * of cap - 1 bytes means the text was cut (callers that need all of it use a
 * big enough buffer and check). */
#include "xgtop/linux/linux.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

ssize_t lx_read_at(int dirfd, const char *name, char *buf, size_t cap)
{
	if (cap < 2)
		return -EINVAL;
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	ssize_t r;
	do
		r = read(fd, buf, cap - 1);
	while (r < 0 && errno == EINTR);
	if (r < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	size_t n = (size_t)r;
	close(fd);
	buf[n] = 0;
	return (ssize_t)n;
}

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
