/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `xgtop trace`'s wait sections, for trace_cmd.c: who each domain and
 * vCPU waited behind (--behind) and the run-queue latency per domain. */
#ifndef XGTOP_APP_TRACE_WAITS_H
#define XGTOP_APP_TRACE_WAITS_H

#include <stdio.h>

#include "xgtop/trace/xentrace_account.h"

/* The vCPUs [i, j) of one domain, after xt_acct_sort. */
struct waits_dom {
	const struct xt_acct *a;
	size_t i, j;
	double hz;
};

/* --behind -o text: the domain's line and its vCPUs' lines. */
void waits_behind_text(FILE *f, const struct waits_dom *d);
/* --behind -o csv: the header (once), then the domain's rows. */
void waits_behind_csv_header(FILE *f);
void waits_behind_csv(FILE *f, const struct waits_dom *d);
/* JSON: ,"behind":[...] of the domain's or one vCPU's WAIT (k < 0: the
 * domain's). */
void waits_behind_json(FILE *f, const struct waits_dom *d, long k);
/* The run-queue latency of the domain: text line, JSON member
 * (,"wait_latency":{...}). */
void waits_latency_text_header(FILE *f);
void waits_latency_text(FILE *f, const struct waits_dom *d);
void waits_latency_json(FILE *f, const struct waits_dom *d);

#endif
