// SPDX-License-Identifier: GPL-2.0-or-later
/* Runs a full-screen program on a pseudo-terminal and types keys at given
 * times, for lab checks of interactive exits (busybox has no `script`).
 *   xg-pty KEYS CMD [ARG...]     KEYS = "4:w,10:q" (seconds:key, ...)
 * The screen output is discarded except the last 4 KiB, written to stderr
 * when the program fails. Exits with the program's status (124 when it
 * has not exited 20 s after the last key). */
#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct key { double at; char c; };

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: xg-pty SECONDS:KEY[,SECONDS:KEY...] CMD [ARG...]\n");
		return 2;
	}
	struct key keys[32];
	size_t nk = 0;
	for (char *tok = strtok(argv[1], ","); tok && nk < 32; tok = strtok(NULL, ",")) {
		char *colon = strchr(tok, ':');
		if (!colon || !colon[1]) {
			fprintf(stderr, "xg-pty: bad key '%s'\n", tok);
			return 2;
		}
		keys[nk].at = atof(tok);
		keys[nk++].c = colon[1];
	}
	struct winsize ws = { .ws_row = 40, .ws_col = 160 };
	int fd;
	pid_t pid = forkpty(&fd, NULL, NULL, &ws);
	if (pid < 0) {
		perror("xg-pty: forkpty");
		return 2;
	}
	if (pid == 0) {
		if (!getenv("TERM"))
			setenv("TERM", "xterm", 1);
		execvp(argv[2], argv + 2);
		perror("xg-pty: exec");
		_exit(127);
	}
	char tail[4096];
	size_t ntail = 0;
	double t0 = now_s(), end = t0 + (nk ? keys[nk - 1].at : 0) + 20;
	size_t next = 0;
	int status = 0;
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			break;
		double t = now_s();
		if (t > end) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			fprintf(stderr, "xg-pty: still running 20 s after the last key\n");
			return 124;
		}
		if (next < nk && t - t0 >= keys[next].at) {
			if (write(fd, &keys[next].c, 1) != 1)
				perror("xg-pty: write");
			next++;
		}
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		if (poll(&pf, 1, 50) > 0) {
			char buf[4096];
			ssize_t n = read(fd, buf, sizeof(buf));
			if (n > 0) {
				if ((size_t)n >= sizeof(tail)) {
					memcpy(tail, buf + n - sizeof(tail), sizeof(tail));
					ntail = sizeof(tail);
				} else {
					if (ntail + (size_t)n > sizeof(tail)) {
						size_t drop = ntail + (size_t)n - sizeof(tail);
						memmove(tail, tail + drop, ntail - drop);
						ntail -= drop;
					}
					memcpy(tail + ntail, buf, (size_t)n);
					ntail += (size_t)n;
				}
			} else if (n < 0 && errno != EINTR && errno != EAGAIN) {
				struct timespec ts = { 0, 50 * 1000000 };
				nanosleep(&ts, NULL);   /* EIO once the child closed the pty */
			}
		}
	}
	int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (rc)
		fwrite(tail, 1, ntail, stderr);
	return rc;
}
