/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The portable build's compatibility header: forced into every source
 * (gcc -include) when compiling against the glibc 2.17 sysroot, whose libc
 * predates some calls the sources make. Each entry only fills a gap, with
 * the raw system call the newer glibc's wrapper makes, so the calls behave
 * as in the normal build: a kernel that lacks one answers ENOSYS, which the
 * sources already handle. The normal build never sees this file. */
#ifndef XG_PORTABLE_COMPAT_H
#define XG_PORTABLE_COMPAT_H

#include <features.h>
#include <sys/types.h>
#include <sys/syscall.h>
#include <unistd.h>

/* glibc's SYS_ names stop at the calls it knew in 2.17; the numbers are
 * the kernel's (asm/unistd_64.h; since Linux 5.1 one number on every
 * architecture). */
#if !defined(SYS_pidfd_open) && defined(__NR_pidfd_open)
#define SYS_pidfd_open __NR_pidfd_open
#endif
#if !defined(SYS_pidfd_getfd) && defined(__NR_pidfd_getfd)
#define SYS_pidfd_getfd __NR_pidfd_getfd
#endif

/* getdents64(): a glibc wrapper since 2.30; struct dirent64 has the
 * kernel's linux_dirent64 layout. */
#if defined(__GLIBC__) && !__GLIBC_PREREQ(2, 30)
static inline ssize_t xg_compat_getdents64(int fd, void *buf, size_t len)
{
	return syscall(SYS_getdents64, fd, buf, len);
}
#define getdents64 xg_compat_getdents64
#endif

#endif
