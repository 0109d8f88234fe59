// SPDX-License-Identifier: GPL-2.0-or-later
/* Process mode: which process heads the group (domain) of each process.
 *
 * A process starts its own group when it is init (pid 1), has no parent
 * (ppid 0: init, kthreadd), is a child of init, or is a child of a session
 * leader that is not itself a child of init. Otherwise it belongs to its
 * parent's group. So a daemon stays together with its workers, kernel
 * threads group under kthreadd, and every command started from a login
 * shell (a session leader below init) is a group of its own, children
 * included. */
#include "linux_scan.h"

static bool starts_group(const struct lx_proc *proc, const struct lx_index *idx, size_t i,
			 int64_t *parent)
{
	const struct lx_proc *p = &proc[i];
	*parent = -1;
	if (p->pid == 1 || p->ppid == 0 || p->ppid == 1)
		return true;
	int64_t q = lx_index_get(idx, p->ppid);
	if (q < 0)
		return true;   /* parent exited while we scanned */
	*parent = q;
	const struct lx_proc *pp = &proc[q];
	return pp->sid == pp->pid && pp->ppid > 1;
}

void lx_group_leaders(const struct lx_proc *proc, size_t nproc, int32_t *leader,
		      struct lx_index *idx)
{
	lx_index_reset(idx, nproc);
	for (size_t i = 0; i < nproc; i++) {
		lx_index_put(idx, proc[i].pid, (uint32_t)i);
		leader[i] = -1;
	}
	for (size_t i = 0; i < nproc; i++) {
		/* walk up to a process whose leader is known, then fill the
		 * chain back down; the depth bound guards against a parent
		 * loop in an inconsistent snapshot */
		size_t cur = i, depth = 0;
		int32_t found = -1;
		while (depth++ < 4096) {
			if (leader[cur] >= 0) {
				found = leader[cur];
				break;
			}
			int64_t par;
			if (starts_group(proc, idx, cur, &par) || par == (int64_t)cur) {
				found = (int32_t)cur;
				break;
			}
			cur = (size_t)par;
		}
		if (found < 0)
			found = (int32_t)i;
		for (size_t c = i; leader[c] < 0;) {
			leader[c] = found;
			if (c == (size_t)found)
				break;
			int64_t par;
			if (starts_group(proc, idx, c, &par) || par < 0)
				break;
			c = (size_t)par;
		}
	}
}
