// SPDX-License-Identifier: GPL-2.0-or-later
/* The pool's own line, shared by the pool view and the Prometheus source:
 * this host's clocks and xgtop's own CPU, the hosts' pCPUs and memory
 * summed, and the columns that any host shows (VMs, pressure, waits). */
#include "remote_parts.h"

#include <stdio.h>

void rm_pool_line(struct xg_sample *out, const char *source, const char *hostname, const char *summary,
		  const char *pcpu_why)
{
	struct xg_host *h = &out->host;
	snprintf(h->source, sizeof(h->source), "%s", source);
	snprintf(h->hostname, sizeof(h->hostname), "%s", hostname);
	snprintf(h->hypervisor, sizeof(h->hypervisor), "%.63s", summary);
	h->mono_ns = xg_now_mono_ns();
	h->real_ns = xg_now_real_ns();
	h->self_cpu_ns = xg_self_cpu_ns();
	host_mark(h, XG_H_SELF_CPU);
	static const enum xg_host_field flag[] = { XG_H_VMS, XG_H_PSI, XG_H_WAITS };
	for (size_t i = 0; i < out->npeer; i++) {
		const struct xg_host *p = &out->peer[i].host;
		h->pcpus += p->pcpus;
		h->mem_total += p->mem_total;
		h->mem_free += p->mem_free;
		for (size_t k = 0; k < XG_ARRAY_LEN(flag); k++)
			if (host_has(p, flag[k]))
				host_mark(h, flag[k]);
	}
	host_mark(h, XG_H_PCPUS);
	host_mark(h, XG_H_MEM);
	/* The exporter publishes no per-pCPU times, and one meter per pCPU of
	 * every host would not fit anyway: the meters say why they are empty. */
	out->pcpu_why = sample_reason(out, pcpu_why);
}
