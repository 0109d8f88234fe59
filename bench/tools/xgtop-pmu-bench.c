// SPDX-License-Identifier: GPL-2.0-or-later
/* Cost of one PMU refresh: N cgroup domains counted on every online CPU
 * (software events, so it runs anywhere), read through pmu_read as the
 * Linux source does. Prints milliseconds per refresh.
 *   xgtop-pmu-bench [--domains N] [--refreshes R] [--events LIST] CGROUP2_ROOT */
#include "xgtop/pmu/pmu.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	struct xg_config cfg;
	config_defaults(&cfg);
	cfg.events = "page-faults,context-switches";
	long ndom = 1000, nref = 30;
	static const struct option opts[] = {
		{ "domains", required_argument, NULL, 'd' },
		{ "refreshes", required_argument, NULL, 'r' },
		{ "events", required_argument, NULL, 'e' },
		{ NULL, 0, NULL, 0 },
	};
	for (int o; (o = getopt_long(argc, argv, "d:r:e:", opts, NULL)) != -1;) {
		switch (o) {
		case 'd': ndom = atol(optarg); break;
		case 'r': nref = atol(optarg); break;
		case 'e': cfg.events = optarg; break;
		default: return 2;
		}
	}
	if (optind >= argc || ndom < 1 || nref < 1) {
		fprintf(stderr, "usage: xgtop-pmu-bench [--domains N] [--refreshes R] [--events L] "
				"CGROUP2_ROOT\n");
		return 2;
	}
	const char *root = argv[optind];
	struct xg_err err = { 0 };
	struct xg_pmu *p = pmu_open(&cfg, &err);
	if (!p) {
		fprintf(stderr, "xgtop-pmu-bench: %s\n", err.msg);
		return 1;
	}
	char path[4096];
	int rc = 0;
	long made = 0;
	for (; made < ndom; made++) {
		snprintf(path, sizeof(path), "%s/xgtop-bench-%d-%ld", root, (int)getpid(), made);
		if (mkdir(path, 0755) && errno != EEXIST) {
			perror(path);
			rc = 1;
			break;
		}
		if (pmu_attach_cgroup_at(p, (uint64_t)made, AT_FDCWD, path, 0, &err)) {
			fprintf(stderr, "xgtop-pmu-bench: domain %ld: %s\n", made, err.msg);
			rc = 1;
			made++;
			break;
		}
	}
	struct xg_sample s;
	sample_init(&s);
	for (long i = 0; i < made; i++)
		sample_add_dom(&s, (uint32_t)i);
	uint64_t *t = xg_calloc((size_t)nref, sizeof(*t));
	size_t valid = 0;
	for (long r = 0; r < nref && !rc; r++) {
		uint64_t t0 = xg_now_mono_ns();
		for (long i = 0; i < made; i++)
			pmu_read(p, (uint64_t)i, &s, &s.dom[i]);
		t[r] = xg_now_mono_ns() - t0;
		usleep(10000);
	}
	for (long i = 0; i < made; i++)
		valid += dom_has(&s.dom[i], XG_F_LLC_REF);
	if (!rc) {
		qsort(t, (size_t)nref, sizeof(*t), cmp_u64);
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		printf("pmu refresh: %ld domains x %ld CPUs, %zu counter fds, %ld read()s per refresh: "
		       "median %.2f ms, max %.2f ms (%ld refreshes; %zu domains valid)\n",
		       made, cpus, pmu_nfds(p), made * cpus, (double)t[nref / 2] / 1e6,
		       (double)t[nref - 1] / 1e6, nref, valid);
		if (valid != (size_t)made)
			rc = 1;
	}
	free(t);
	sample_free(&s);
	pmu_close(p);
	for (long i = 0; i < made; i++) {
		snprintf(path, sizeof(path), "%s/xgtop-bench-%d-%ld", root, (int)getpid(), i);
		rmdir(path);
	}
	return rc;
}
