// SPDX-License-Identifier: GPL-2.0-or-later
/* Runs a full-screen program on a pseudo-terminal and types keys at given
 * times, for lab checks of interactive exits (busybox has no `script`).
 *   xg-pty KEYS CMD [ARG...]     KEYS = "4:w,10:q" (seconds:key, ...)
 * A key written ^X is that control character (^C: the terminal sends
 * SIGINT); !TERM, !HUP or !INT sends that signal to the program instead of
 * typing; a time written u means "when xg-pty gets SIGUSR1" (each SIGUSR1
 * releases the next such key), for a script that waits for a state first.
 * The screen output is discarded except the last 4 KiB, written to stderr
 * when the program fails. After the program exits, one line on stderr
 * says whether it left the terminal as it found it:
 *   xg-pty: after exit: canonical=yes echo=yes screen-restored=yes
 * (line mode and echo back on, and the alternate screen left). Exits with
 * the program's status (124 when it has not exited 20 s after the last
 * key). */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

struct key { double at; char c; int sig; bool on_usr1; };

static int sig_named(const char *name)
{
	return !strcmp(name, "TERM") ? SIGTERM : !strcmp(name, "HUP") ? SIGHUP
	       : !strcmp(name, "INT") ? SIGINT : 0;
}

static volatile sig_atomic_t usr1;
static void on_usr1(int sig) { (void)sig; usr1++; }

/* Whether the terminal is back in line mode with echo, as a new pty is
 * (read through the slave side: that is the terminal the program set). */
static void report_tty(int master, const char *tail, size_t ntail)
{
	struct termios tio;
	const char *name = ptsname(master);
	int sfd = name ? open(name, O_RDWR | O_NOCTTY) : -1;
	bool got = sfd >= 0 && tcgetattr(sfd, &tio) == 0;
	if (sfd >= 0)
		close(sfd);
	bool left = memmem(tail, ntail, "\033[?1049l", 8) != NULL;
	fprintf(stderr, "xg-pty: after exit: canonical=%s echo=%s screen-restored=%s\n",
		!got ? "unknown" : tio.c_lflag & ICANON ? "yes" : "no",
		!got ? "unknown" : tio.c_lflag & ECHO ? "yes" : "no", left ? "yes" : "no");
}

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
		keys[nk].on_usr1 = tok[0] == 'u';
		keys[nk].at = keys[nk].on_usr1 ? 0 : atof(tok);
		keys[nk].sig = colon[1] == '!' ? sig_named(colon + 2) : 0;
		if (colon[1] == '!' && !keys[nk].sig) {
			fprintf(stderr, "xg-pty: bad signal '%s'\n", colon + 2);
			return 2;
		}
		keys[nk++].c = colon[1] == '^' && colon[2] ? (char)(colon[2] & 0x1f) : colon[1];
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
	signal(SIGUSR1, on_usr1);
	char tail[4096];
	size_t ntail = 0;
	double t0 = now_s(), end = t0 + 20;
	for (size_t i = 0; i < nk; i++)
		if (!keys[i].on_usr1 && t0 + keys[i].at + 20 > end)
			end = t0 + keys[i].at + 20;
	size_t next = 0;
	sig_atomic_t used = 0;
	int status = 0;
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			break;
		double t = now_s();
		/* A u key not signalled yet: the 20 s start when it is typed,
		 * and the signal may take 100 s to come. */
		bool pending = next < nk && keys[next].on_usr1;
		if (pending && usr1 == used && end < t + 20)
			end = t + 20 < t0 + 120 ? t + 20 : t0 + 120;
		if (t > end) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			fprintf(stderr, "xg-pty: still running 20 s after the last key%s\n",
				pending && usr1 == used ? " (no SIGUSR1 came)" : "");
			return 124;
		}
		if (pending ? usr1 > used : next < nk && t - t0 >= keys[next].at) {
			used += pending;
			if (keys[next].sig)
				kill(pid, keys[next].sig);
			else if (write(fd, &keys[next].c, 1) != 1)
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
	report_tty(fd, tail, ntail);
	if (rc)
		fwrite(tail, 1, ntail, stderr);
	return rc;
}
