// SPDX-License-Identifier: GPL-2.0-or-later
/* The state directory of runs that change the hypervisor (xen_rundir.h). */
#include "xgtop/xen/xen_rundir.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool xen_rundir_make(const char *dir)
{
	return mkdir(dir, 0700) == 0 || errno == EEXIST;
}

static bool comm_of(const char *pid, char *buf, size_t n)
{
	char path[48];
	snprintf(path, sizeof(path), "/proc/%s/comm", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t k = read(fd, buf, n - 1);
	close(fd);
	if (k <= 0)
		return false;
	buf[k] = 0;
	return true;
}

bool xen_rundir_owner_gone(long pid)
{
	if (pid <= 0 || pid == (long)getpid())
		return true;
	if (kill((pid_t)pid, 0) && errno == ESRCH)
		return true;
	char other[32], self[32], num[24];
	snprintf(num, sizeof(num), "%ld", pid);
	/* Gone between the two looks, or someone else's program now. */
	if (!comm_of(num, other, sizeof(other)))
		return true;
	return comm_of("self", self, sizeof(self)) && strcmp(other, self) != 0;
}
