// SPDX-License-Identifier: GPL-2.0-or-later
/* Makes /proc entries vanish while a monitor is reading them, at exactly
 * the point asked for: it starts victim processes (three threads each),
 * runs the command under ptrace, and when the command is about to touch a
 * victim's file for the Nth time (2nd by default: a refresh with a
 * baseline, where files are opened and read each refresh), kills and reaps
 * that victim, or ends one of its threads, before letting the system call
 * go on. So the monitor's open or read meets a process that was there when
 * it listed /proc and is gone now.
 *   xg-vanish [-n N] SPEC... -- CMD [ARG...]
 * SPEC (one victim each), KIND:FILE or KIND:FILE@N (the Nth touch):
 *   open:FILE    the victim dies as its /proc/PID/FILE is opened
 *                (stat, task, io, cgroup, schedstat ...)
 *   read:FILE    ... as an open /proc/PID/FILE is read
 *   thread:FILE  one of its other threads ends as /proc/PID/task/TID/FILE
 *                is opened or read
 * Prints on stderr which specs fired and exits with the command's status,
 * or 3 when the command succeeded but a spec never fired (the monitor read
 * nothing of that victim: the test proves nothing). x86-64 only. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__)

#define NTHR 2   /* threads besides the main one */

struct victim {
	char kind[8], file[32];
	unsigned nth;        /* fires at this touch */
	pid_t pid;
	pid_t tid[NTHR];
	int wake[NTHR];      /* write end: that thread ends */
	unsigned seen;       /* matching events so far */
	bool fired;
};

static int thread_pipe[NTHR][2], report[2];

/* A victim's other thread: says its tid, then waits for its pipe. */
static void *thread_main(void *arg)
{
	int k = (int)(long)arg;
	pid_t me[2] = { k, (pid_t)syscall(SYS_gettid) };
	if (write(report[1], me, sizeof(me)) != sizeof(me))
		_exit(2);
	char c;
	while (read(thread_pipe[k][0], &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

static void victim_start(struct victim *v)
{
	if (pipe(report))
		exit(2);
	for (int k = 0; k < NTHR; k++)
		if (pipe(thread_pipe[k]))
			exit(2);
	v->pid = fork();
	if (v->pid < 0)
		exit(2);
	if (v->pid == 0) {
		for (int k = 0; k < NTHR; k++) {
			pthread_t t;
			if (pthread_create(&t, NULL, thread_main, (void *)(long)k))
				_exit(2);
		}
		for (;;)
			pause();
	}
	for (int k = 0; k < NTHR; k++) {
		pid_t got[2];
		if (read(report[0], got, sizeof(got)) != sizeof(got) || got[0] < 0 || got[0] >= NTHR)
			exit(2);
		v->tid[got[0]] = got[1];
	}
	close(report[0]);
	close(report[1]);
	for (int k = 0; k < NTHR; k++) {
		close(thread_pipe[k][0]);
		v->wake[k] = thread_pipe[k][1];
	}
}

static bool gone(const char *path)
{
	struct stat sb;
	for (int i = 0; i < 200; i++) {
		if (stat(path, &sb) && errno == ENOENT)
			return true;
		struct timespec ts = { 0, 5000000 };
		nanosleep(&ts, NULL);
	}
	return false;
}

static void fire(struct victim *v)
{
	char path[64];
	v->fired = true;
	if (!strcmp(v->kind, "thread")) {
		if (write(v->wake[0], "x", 1) != 1)
			return;
		snprintf(path, sizeof(path), "/proc/%d/task/%d", v->pid, v->tid[0]);
		gone(path);
		return;
	}
	kill(v->pid, SIGKILL);
	waitpid(v->pid, NULL, 0);
	v->pid = 0;
}

/* The path the tracee's file descriptor fd of process t names. */
static bool fd_path(pid_t t, long fd, char *out, size_t n)
{
	char link[64];
	snprintf(link, sizeof(link), "/proc/%d/fd/%ld", t, fd);
	ssize_t k = readlink(link, out, n - 1);
	if (k <= 0)
		return false;
	out[k] = 0;
	return true;
}

/* The absolute path of openat(dirfd, name) in the tracee. */
static bool open_path(pid_t t, const struct user_regs_struct *r, char *out, size_t n)
{
	char name[256];
	struct iovec local = { name, sizeof(name) - 1 }, remote = { (void *)r->rsi, sizeof(name) - 1 };
	ssize_t k = process_vm_readv(t, &local, 1, &remote, 1, 0);
	if (k <= 0)
		return false;
	name[k] = 0;
	if (name[0] == '/')
		return snprintf(out, n, "%s", name) < (int)n;
	char dir[192];
	if ((int)r->rdi == AT_FDCWD || !fd_path(t, (long)(int)r->rdi, dir, sizeof(dir)))
		return false;
	return snprintf(out, n, "%s/%s", dir, name) < (int)n;
}

static bool matches(const struct victim *v, const char *kind, const char *path)
{
	char want[96];
	if (!v->pid || v->fired || strcmp(v->kind, kind))
		return false;
	if (!strcmp(kind, "thread")) {
		snprintf(want, sizeof(want), "/proc/%d/task/%d/%s", v->pid, v->tid[0], v->file);
		return !strcmp(path, want);
	}
	snprintf(want, sizeof(want), "/proc/%d/%s", v->pid, v->file);
	return !strcmp(path, want);
}

/* At a system call's entry: does it touch a victim's file? */
static void on_syscall(pid_t t, struct victim *v, size_t nv)
{
	struct user_regs_struct r;
	if (ptrace(PTRACE_GETREGS, t, NULL, &r) || r.rax != (unsigned long long)-ENOSYS)
		return;   /* a syscall's exit */
	char path[256];
	const char *kind;
	if (r.orig_rax == SYS_openat && open_path(t, &r, path, sizeof(path)))
		kind = NULL;
	else if ((r.orig_rax == SYS_read || r.orig_rax == SYS_pread64) &&
		 fd_path(t, (long)r.rdi, path, sizeof(path)))
		kind = "read";
	else
		return;
	for (size_t i = 0; i < nv; i++) {
		bool hit = matches(&v[i], kind ? kind : "open", path) || matches(&v[i], "thread", path);
		if (hit && ++v[i].seen >= v[i].nth)
			fire(&v[i]);
	}
}

static int trace(char **cmd, struct victim *v, size_t nv)
{
	pid_t t = fork();
	if (t < 0)
		return 2;
	if (t == 0) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGSTOP);
		execvp(cmd[0], cmd);
		perror("xg-vanish: exec");
		_exit(127);
	}
	int st;
	waitpid(t, &st, 0);
	if (ptrace(PTRACE_SETOPTIONS, t, NULL, (void *)(PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEEXEC |
									PTRACE_O_EXITKILL))) {
		perror("xg-vanish: ptrace");
		kill(t, SIGKILL);
		return 77;
	}
	int sig = 0;
	for (;;) {
		if (ptrace(PTRACE_SYSCALL, t, NULL, (void *)(long)sig))
			break;
		if (waitpid(t, &st, __WALL) < 0)
			break;
		if (WIFEXITED(st))
			return WEXITSTATUS(st);
		if (WIFSIGNALED(st))
			return 128 + WTERMSIG(st);
		sig = 0;
		if (WSTOPSIG(st) == (SIGTRAP | 0x80))
			on_syscall(t, v, nv);
		else if (!(st >> 16))   /* not a ptrace event (the exec) */
			sig = WSTOPSIG(st);
	}
	return 2;
}

int main(int argc, char **argv)
{
	unsigned nth = 2;
	int i = 1;
	if (i + 1 < argc && !strcmp(argv[i], "-n")) {
		nth = (unsigned)atoi(argv[i + 1]);
		i += 2;
	}
	struct victim v[16];
	size_t nv = 0;
	for (; i < argc && strcmp(argv[i], "--") && nv < 16; i++, nv++) {
		memset(&v[nv], 0, sizeof(v[nv]));
		v[nv].nth = nth;
		if (sscanf(argv[i], "%7[a-z]:%31[^@]@%u", v[nv].kind, v[nv].file, &v[nv].nth) < 2 ||
		    !v[nv].nth ||
		    (strcmp(v[nv].kind, "open") && strcmp(v[nv].kind, "read") && strcmp(v[nv].kind, "thread"))) {
			fprintf(stderr, "xg-vanish: bad spec '%s'\n", argv[i]);
			return 2;
		}
	}
	if (i >= argc - 1 || !nv) {
		fprintf(stderr, "usage: xg-vanish [-n N] open:FILE|read:FILE|thread:FILE[@N]... -- CMD [ARG...]\n");
		return 2;
	}
	for (size_t k = 0; k < nv; k++)
		victim_start(&v[k]);
	int rc = trace(argv + i + 1, v, nv);
	size_t fired = 0;
	fprintf(stderr, "xg-vanish:");
	for (size_t k = 0; k < nv; k++) {
		fired += v[k].fired;
		fprintf(stderr, " %s:%s@%u=%s", v[k].kind, v[k].file, v[k].nth, v[k].fired ? "fired" : "NOT-FIRED");
		if (v[k].pid) {
			kill(v[k].pid, SIGKILL);
			waitpid(v[k].pid, NULL, 0);
		}
	}
	fprintf(stderr, " (%zu of %zu)\n", fired, nv);
	return rc == 0 && fired < nv ? 3 : rc;
}

#else
#include <stdio.h>
int main(void)
{
	fprintf(stderr, "xg-vanish: needs x86-64 (it reads system call registers)\n");
	return 77;
}
#endif
