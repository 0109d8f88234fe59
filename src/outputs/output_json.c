// SPDX-License-Identifier: GPL-2.0-or-later
/* JSON lines: one object per iteration with the host facts and every
 * selected domain. Always valid JSON: strings are escaped byte by byte,
 * and a figure that is not a finite measured number is null, with the
 * reason under "why" when one is known. */
#include "xgtop/outputs/json.h"
#include "output_util.h"

#include <math.h>
#include <string.h>

/* The per-vCPU rows of a domain. Not "vcpus": that key is the vCPU count
 * column. */
#define VCPU_ROWS_KEY "vcpu_rows"
/* The per-socket CMT/MBM rows of a domain (--nosumcache). */
#define SOCKET_ROWS_KEY "sockets"

static void put_double(FILE *f, double v, const char *fmt, bool valid)
{
	if (valid && isfinite(v))
		fprintf(f, fmt, v);
	else
		fputs("null", f);
}

static void put_u64(FILE *f, uint64_t v, bool valid)
{
	if (valid)
		fprintf(f, "%llu", (unsigned long long)v);
	else
		fputs("null", f);
}

static void put_host(FILE *f, const struct xg_table *t)
{
	const struct xg_host *h = t->cur ? &t->cur->host : NULL;
	static const struct xg_host none;
	if (!h)
		h = &none;
	fputs("\"host\":{\"source\":", f);
	json_write_string(f, h->source);
	fputs(",\"hypervisor\":", f);
	json_write_string(f, h->hypervisor);
	fputs(",\"hostname\":", f);
	json_write_string(f, h->hostname);
	fputs(",\"pcpus\":", f);
	put_u64(f, h->pcpus, host_has(h, XG_H_PCPUS));
	fputs(",\"cpu_khz\":", f);
	put_u64(f, h->cpu_khz, host_has(h, XG_H_CPU_KHZ));
	fputs(",\"mem_total_bytes\":", f);
	put_u64(f, h->mem_total, host_has(h, XG_H_MEM));
	fputs(",\"mem_free_bytes\":", f);
	put_u64(f, h->mem_free, host_has(h, XG_H_MEM));
	fputs(",\"self_cpu_ms\":", f);
	put_double(f, t->sum.self_cpu_ms, "%.3f", t->sum.self_cpu_ms >= 0);
	if (host_has(h, XG_H_LOST)) {   /* only where a trace consumer counts them */
		fputs(",\"trace_lost_records\":", f);
		put_u64(f, h->lost_records, true);
	}
	fputc('}', f);
}

static bool is_named(enum xg_col c)
{
	return (xg_columns[c].unit == XG_UNIT_TEXT && c != XG_COL_BEHIND) || c == XG_COL_ID;
}

/* The numeric fields of a row (those that apply to it: a socket row has
 * L3 occupancy and memory bandwidth only) and the reasons for its nulls. */
static void put_values(FILE *f, const struct output_cols *oc, const struct xg_table *t,
		       const struct xg_row *r)
{
	char buf[OUTPUT_NUM_MAX];
	bool null[XG_COL_COUNT] = { false };
	bool first_why = true;

	for (size_t k = 0; k < oc->n; k++) {
		enum xg_col c = oc->c[k];
		if (is_named(c) || !row_col_applies(r, c))
			continue;
		fprintf(f, ",\"%s\":", xg_columns[c].key);
		if (c == XG_COL_BEHIND && row_has(r, c)) {
			char id[16];
			json_write_string(f, row_behind_name(r, id, sizeof(id)));
		} else if (c == XG_COL_BEHIND) {
			fputs("null", f);
			null[c] = true;
		} else if (c == XG_COL_VICTIM && output_raw_number(c, r, buf, sizeof(buf))) {
			fprintf(f, "%s,\"victim_windows\":%.0f", buf, r->v[c]);
		} else if (c == XG_COL_VICTIM) {
			fputs("null,\"victim_windows\":null", f);
			null[c] = true;
		} else if (output_raw_number(c, r, buf, sizeof(buf))) {
			fputs(buf, f);
		} else {
			fputs("null", f);
			null[c] = true;
		}
	}
	fputs(",\"why\":{", f);
	for (size_t k = 0; k < oc->n; k++) {
		enum xg_col c = oc->c[k];
		const char *why = null[c] ? row_why(t, r, c) : NULL;
		if (!why || !*why)
			continue;
		fprintf(f, "%s\"%s\":", first_why ? "" : ",", xg_columns[c].key);
		json_write_string(f, why);
		first_why = false;
	}
	fputc('}', f);
}

static void put_state(FILE *f, const struct xg_row *r)
{
	char st[sizeof(r->state) + 1];
	memcpy(st, r->state, sizeof(r->state));
	st[sizeof(r->state)] = 0;
	json_write_string(f, st);
}

static void put_domain(FILE *f, const struct output_cols *oc, const struct xg_table *t,
		       const struct xg_row *r)
{
	fprintf(f, "{\"id\":%u", (unsigned)r->id);
	if (r->vcpu >= 0)           /* a vCPU row whose domain row was not selected */
		fprintf(f, ",\"vcpu\":%d", (int)r->vcpu);
	if (r->sock_row)            /* the same for a socket row */
		fprintf(f, ",\"socket\":%u", (unsigned)r->socket);
	if (r->host) {              /* pool view */
		fputs(",\"host\":", f);
		json_write_string(f, r->host);
		if (r->host_stale)
			fputs(",\"host_stale\":true", f);
	}
	fputs(",\"name\":", f);
	json_write_string(f, r->name);
	fputs(",\"state\":", f);
	put_state(f, r);
	if (r->guest_reported)
		fputs(",\"cache_guest_reported\":true", f);
	put_values(f, oc, t, r);
}

static void put_vcpu(FILE *f, const struct output_cols *oc, const struct xg_table *t,
		     const struct xg_row *r)
{
	fprintf(f, "{\"vcpu\":%d,\"state\":", (int)r->vcpu);
	put_state(f, r);
	put_values(f, oc, t, r);
	fputc('}', f);
}

static void put_socket(FILE *f, const struct output_cols *oc, const struct xg_table *t,
		       const struct xg_row *r)
{
	fprintf(f, "{\"socket\":%u", (unsigned)r->socket);
	put_values(f, oc, t, r);
	fputc('}', f);
}

/* Writes the sub-rows of one kind among order[from, to) as a list. */
static void put_subrows(FILE *f, const struct output_cols *oc, const struct xg_table *t,
			const struct xg_view *v, size_t from, size_t to, bool sockets)
{
	bool first = true;
	fputs(sockets ? ",\"" SOCKET_ROWS_KEY "\":[" : ",\"" VCPU_ROWS_KEY "\":[", f);
	for (size_t j = from; j < to; j++) {
		const struct xg_row *r = &t->rows[v->order[j]];
		if (sockets ? !r->sock_row : r->vcpu < 0)
			continue;
		fputs(first ? "" : ",", f);
		first = false;
		if (sockets)
			put_socket(f, oc, t, r);
		else
			put_vcpu(f, oc, t, r);
	}
	fputc(']', f);
}

static int json_write(struct output *o, const struct xg_table *t, const struct xg_view *v,
		      struct xg_err *err)
{
	const struct output_cols *oc = &o->cols;
	FILE *f = o->f;
	char when[40];
	bool first = true;

	fputs("{\"time\":", f);
	if (t->cur) {
		output_time_iso(when, sizeof(when), t->cur->host.real_ns);
		json_write_string(f, when);
	} else {
		fputs("null", f);
	}
	fputs(",\"interval_s\":", f);
	put_double(f, t->sum.interval_s, "%.6f", t->sum.interval_s > 0);
	fputc(',', f);
	put_host(f, t);
	fputs(",\"domains\":[", f);
	/* view_apply puts each domain's sub-rows right after it. */
	for (size_t i = 0; i < v->norder;) {
		const struct xg_row *r = &t->rows[v->order[i]];
		size_t end = i + 1;
		if (row_is_dom(r))
			while (end < v->norder && !row_is_dom(&t->rows[v->order[end]]) &&
			       t->rows[v->order[end]].dom_index == r->dom_index)
				end++;
		if ((r->vcpu >= 0 && !oc->vcpus) || (r->sock_row && !oc->socks)) {
			i = end;
			continue;
		}
		fputs(first ? "" : ",", f);
		first = false;
		put_domain(f, oc, t, r);
		if (row_is_dom(r) && oc->socks)
			put_subrows(f, oc, t, v, i + 1, end, true);
		if (row_is_dom(r) && oc->vcpus)
			put_subrows(f, oc, t, v, i + 1, end, false);
		fputc('}', f);
		i = end;
	}
	fputs("]}\n", f);
	return output_flush(f, err);
}

const struct output_format output_json_format = { XG_OUT_JSON, "json", json_write };
