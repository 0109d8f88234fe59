// SPDX-License-Identifier: GPL-2.0-or-later
/* Runs a command as another uid/gid with no supplementary groups, so the
 * lab can show what an unprivileged user sees. Usage: xg-runas UID CMD... */
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: xg-runas UID CMD [ARG...]\n");
		return 2;
	}
	uid_t id = (uid_t)strtoul(argv[1], NULL, 10);
	if (setgroups(0, NULL) || setgid((gid_t)id) || setuid(id)) {
		perror("xg-runas");
		return 2;
	}
	execvp(argv[2], argv + 2);
	perror("xg-runas: exec");
	return 127;
}
