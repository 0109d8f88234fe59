// SPDX-License-Identifier: GPL-2.0-or-later
/* Small-file reads: openat() relative to an open directory, one read() into
 * the caller's (stack) buffer. procfs, sysfs and cgroupfs build the whole
 * text on the first read when it fits, so one read is the whole file. */
#include "xgtop/core/osread.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

ssize_t xg_read_at(int dirfd, const char *name, char *buf, size_t cap)
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
