// SPDX-License-Identifier: GPL-2.0-or-later
/* Drives the PMU module on its own, as the Linux source will: attaches a
 * cgroup, a process's threads, or a command it starts, runs for a while,
 * reads, and prints the sample fields as key=value lines for the tests.
 *
 *   xgtop-pmu-probe [--events LIST] [--nosumcache] [--vm] [--inherit]
 *                   [--ms N] [--reads N] (--cgroup DIR | --pid PID) [-- CMD...]
 *   xgtop-pmu-probe [options] -- CMD...     counts CMD (its main thread,
 *                                          plus descendants with --inherit)
 * With --cgroup and a command, the command runs inside DIR. Without a
 * command, the probe sleeps --ms between reads. Output: label=, event.X=,
 * X= (a number or '-'), why.X=, breakdown W.X=, fds=. */
#include "xgtop/pmu/pmu.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *const evname[XG_PMU_EVENT_COUNT] = { "ref", "miss", "instr", "cycles" };
static const char *const wname[XG_PMU_WHERE_COUNT] = { "guest_user", "guest_kernel", "host" };

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static size_t list_tids(pid_t pid, pid_t **out, size_t *cap)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *dir = opendir(path);
	size_t n = 0;
	if (!dir)
		return 0;
	for (struct dirent *de; (de = readdir(dir));) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		xg_grow(out, cap, n + 1, sizeof(**out));
		(*out)[n++] = (pid_t)atoi(de->d_name);
	}
	closedir(dir);
	return n;
}

/* breakdown: --nosumcache asked for the slices, so a missing one prints '-'. */
static void print_sample(const struct xg_pmu *p, struct xg_sample *s, struct xg_dom *d, bool breakdown)
{
	printf("label=%s\n", pmu_label(p));
	for (int ev = 0; ev < XG_PMU_EVENT_COUNT; ev++) {
		const char *n = pmu_event_name(p, ev);
		printf("event.%s=%s\n", evname[ev], n ? n : "-");
		if (!n)
			printf("eventwhy.%s=%s\n", evname[ev], pmu_event_why(p, ev));
	}
	for (int ev = 0; ev < XG_PMU_EVENT_COUNT; ev++) {
		enum xg_field f = XG_F_LLC_REF + ev;
		if (dom_has(d, f)) {
			printf("%s=%llu\n", evname[ev], (unsigned long long)d->v[f]);
		} else {
			const char *why = dom_why(s, d, f);
			printf("%s=-\nwhy.%s=%s\n", evname[ev], evname[ev], why ? why : "(none)");
		}
	}
	for (int w = 0; w < XG_PMU_WHERE_COUNT; w++)
		for (int ev = 0; ev < XG_PMU_EVENT_COUNT; ev++) {
			if ((d->pmu_valid >> (w * XG_PMU_EVENT_COUNT + ev)) & 1)
				printf("%s.%s=%llu\n", wname[w], evname[ev],
				       (unsigned long long)d->pmu[w][ev]);
			else if (breakdown)
				printf("%s.%s=-\n", wname[w], evname[ev]);
		}
	printf("fds=%zu\n", pmu_nfds(p));
}

/* Starts argv held on a pipe; the child joins cgroup (if any) first. */
static pid_t spawn_held(char **argv, const char *cgroup, int *release)
{
	int go[2];
	if (pipe(go))
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		char c;
		close(go[1]);
		if (cgroup) {
			char path[4096];
			snprintf(path, sizeof(path), "%s/cgroup.procs", cgroup);
			int fd = open(path, O_WRONLY);
			if (fd < 0 || write(fd, "0", 1) != 1) {
				perror(path);
				_exit(126);
			}
			close(fd);
		}
		if (read(go[0], &c, 1) != 1)
			_exit(126);
		execvp(argv[0], argv);
		perror(argv[0]);
		_exit(127);
	}
	close(go[0]);
	*release = go[1];
	return pid;
}

int main(int argc, char **argv)
{
	struct xg_config cfg;
	config_defaults(&cfg);
	const char *cgroup = NULL;
	pid_t pid = 0;
	unsigned flags = 0;
	long ms = 200, reads = 1;
	static const struct option opts[] = {
		{ "events", required_argument, NULL, 'e' }, { "nosumcache", no_argument, NULL, 'b' },
		{ "vm", no_argument, NULL, 'v' },           { "inherit", no_argument, NULL, 'i' },
		{ "cgroup", required_argument, NULL, 'c' }, { "pid", required_argument, NULL, 'p' },
		{ "ms", required_argument, NULL, 'm' },     { "reads", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	for (int o; (o = getopt_long(argc, argv, "+e:bvic:p:m:r:", opts, NULL)) != -1;) {
		switch (o) {
		case 'e': cfg.events = optarg; break;
		case 'b': cfg.nosumcache = true; break;
		case 'v': flags |= XG_PMU_VM; break;
		case 'i': flags |= XG_PMU_INHERIT; break;
		case 'c': cgroup = optarg; break;
		case 'p': pid = (pid_t)atoi(optarg); break;
		case 'm': ms = atol(optarg); break;
		case 'r': reads = atol(optarg); break;
		default:
			fprintf(stderr, "usage: %s [--events L] [--nosumcache] [--vm] [--inherit] [--ms N] "
				"[--reads N] (--cgroup DIR | --pid PID) [-- CMD...]\n", argv[0]);
			return 2;
		}
	}
	char **cmd = optind < argc ? argv + optind : NULL;
	if (!cgroup && !pid && !cmd) {
		fprintf(stderr, "xgtop-pmu-probe: give --cgroup, --pid or a command\n");
		return 2;
	}

	struct xg_err err = { 0 };
	struct xg_pmu *p = pmu_open(&cfg, &err);
	if (!p) {
		fprintf(stderr, "xgtop-pmu-probe: %s\n", err.msg);
		return 1;
	}
	const uint64_t key = 1;
	pid_t *tids = NULL, child = 0;
	size_t tcap = 0;
	int release = -1;
	if (cmd && (child = spawn_held(cmd, cgroup, &release)) < 0) {
		perror("fork");
		return 1;
	}
	if (cgroup) {
		if (pmu_attach_cgroup_at(p, key, AT_FDCWD, cgroup, flags, &err))
			fprintf(stderr, "attach: %s\n", err.msg);
	} else {
		pid_t target = pid ? pid : child;
		size_t n = list_tids(target, &tids, &tcap);
		if (pmu_sync_tasks(p, key, tids, n, flags, &err))
			fprintf(stderr, "attach: %s\n", err.msg);
	}

	struct xg_sample s;
	sample_init(&s);
	struct xg_dom *d = sample_add_dom(&s, (uint32_t)key);
	if (child) {
		int st;
		if (write(release, "x", 1) != 1)
			return 1;
		close(release);
		waitpid(child, &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			fprintf(stderr, "xgtop-pmu-probe: workload failed (status %d)\n", st);
			return 1;
		}
	}
	for (long r = 0; r < reads; r++) {
		if (!child || r)
			sleep_ms(ms);
		if (pid) {
			size_t n = list_tids(pid, &tids, &tcap);
			if (pmu_sync_tasks(p, key, tids, n, flags, &err))
				fprintf(stderr, "attach: %s\n", err.msg);
		}
		d = &s.dom[0];
		pmu_read(p, key, &s, d);
	}
	print_sample(p, &s, d, cfg.nosumcache);
	sample_free(&s);
	free(tids);
	pmu_close(p);
	return 0;
}
