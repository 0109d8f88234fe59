// SPDX-License-Identifier: GPL-2.0-or-later
/* Opens the Xen source, collects N samples (default 2) D seconds apart and
 * prints every raw value, invalid ones as "-(reason)". Used in the QEMU
 * lab to check the source against xentop and the guests' own counters.
 * Usage: xgtop-xen-dump [-n N] [-d SECONDS] [-v] [--nonet] [--nodisk] [-t]
 *   -t: print only "self_cpu_ns" per collect (cost measurement). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "xgtop/model/config.h"
#include "xgtop/model/sample.h"
#include "xgtop/model/source.h"

#ifdef HAVE_XEN
extern const struct xg_source_ops source_xen_ops;

static void print_field(const struct xg_sample *s, const struct xg_dom *d, enum xg_field f)
{
	if (dom_has(d, f)) {
		printf(" %s=%llu", field_name(f), (unsigned long long)d->v[f]);
	} else {
		const char *why = dom_why(s, d, f);
		printf(" %s=-(%s)", field_name(f), why ? why : "?");
	}
}

static void dump(const struct xg_sample *s, int iter)
{
	const struct xg_host *h = &s->host;
	printf("sample %d source=%s hv=\"%s\" sched=%s pcpus=%u cpu_khz=%llu mem_total=%llu "
	       "mem_free=%llu ndom=%zu mono_ns=%llu\n",
	       iter, h->source, h->hypervisor, h->sched, h->pcpus, (unsigned long long)h->cpu_khz,
	       (unsigned long long)h->mem_total, (unsigned long long)h->mem_free, s->ndom,
	       (unsigned long long)h->mono_ns);
	for (size_t i = 0; i < s->ndom; i++) {
		const struct xg_dom *d = &s->dom[i];
		char name[4 * XG_NAME_MAX];
		xg_escape_name(name, sizeof(name), d->name);
		printf("dom %u name=%s gen=%u state=0x%x handle=", d->id, name, d->gen, d->state);
		for (int k = 0; k < 16; k++)
			printf("%02x", d->handle[k]);
		for (int f = 0; f < XG_F_COUNT; f++)
			print_field(s, d, (enum xg_field)f);
		printf("\n");
		const struct xg_vcpu *v = sample_vcpus(s, d);
		for (uint32_t k = 0; k < d->vcpu_count; k++)
			printf("  vcpu %u online=%u valid=0x%x cpu_ns=%llu\n", v[k].id, v[k].online,
			       v[k].valid, (unsigned long long)v[k].cpu_ns);
	}
}

int main(int argc, char **argv)
{
	struct xg_config cfg;
	config_defaults(&cfg);
	cfg.batch = true;
	long n = 2;
	double delay = 1.0;
	bool cost = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-n") && i + 1 < argc)
			n = atol(argv[++i]);
		else if (!strcmp(argv[i], "-d") && i + 1 < argc)
			delay = atof(argv[++i]);
		else if (!strcmp(argv[i], "-v"))
			cfg.vcpus = true;
		else if (!strcmp(argv[i], "--nonet"))
			cfg.nonet = true;
		else if (!strcmp(argv[i], "--nodisk"))
			cfg.nodisk = true;
		else if (!strcmp(argv[i], "-t"))
			cost = true;
		else {
			fprintf(stderr, "usage: %s [-n N] [-d S] [-v] [--nonet] [--nodisk] [-t]\n", argv[0]);
			return 2;
		}
	}
	printf("probe=%d\n", source_xen_ops.probe());
	struct xg_err err = { 0 };
	struct xg_source *src;
	if (source_xen_ops.open(&src, &cfg, &err)) {
		fprintf(stderr, "xgtop-xen-dump: %s\n", err.msg);
		return 1;
	}
	struct xg_sample s;
	sample_init(&s);
	int rc = 0;
	for (long i = 0; i < n; i++) {
		if (i) {
			struct timespec ts = { (time_t)delay, (long)((delay - (time_t)delay) * 1e9) };
			nanosleep(&ts, NULL);
		}
		sample_clear(&s);
		uint64_t c0 = xg_self_cpu_ns();
		if (source_xen_ops.collect(src, &s, &err) != XG_COLLECT_OK) {
			fprintf(stderr, "xgtop-xen-dump: %s\n", err.msg);
			rc = 1;
			break;
		}
		uint64_t c1 = xg_self_cpu_ns();
		if (cost)
			printf("collect %ld self_cpu_ns=%llu ndom=%zu\n", i,
			       (unsigned long long)(c1 - c0), s.ndom);
		else
			dump(&s, (int)i);
	}
	sample_free(&s);
	source_xen_ops.close(src);
	return rc;
}
#else
int main(void)
{
	printf("xgtop-xen-dump: built without the Xen libraries\n");
	return 77;
}
#endif
