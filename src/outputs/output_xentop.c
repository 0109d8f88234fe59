// SPDX-License-Identifier: GPL-2.0-or-later
/* xentop -b's layout (Xen 4.17): 19 right-aligned columns joined by one
 * space, the header printed once per iteration, names cut to 10 bytes,
 * state letters d s b c p r, memory in KiB, network in KiB (NETTX = what
 * the guest received, as netback counts), VBD sectors of 512 bytes. The six
 * counter columns widen to fit their largest value, as xentop's do. */
#include "xgtop/outputs/output.h"
#include "output_util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The columns after MAXMEM(%): whole numbers, right-aligned. The six
 * counters (grow) widen to fit their largest value, as xentop's do. */
static const struct {
	const char *name;
	int width;
	bool grow;
	enum xg_field f;
	uint64_t div;
} tail[] = {
	{ "VCPUS", 5, false, XG_F_VCPUS_MAX, 1 },
	{ "NETS", 4, false, XG_F_NETS, 1 },
	{ "NETTX(k)", 8, true, XG_F_NET_RX_BYTES, 1024 },   /* what the guest received */
	{ "NETRX(k)", 8, true, XG_F_NET_TX_BYTES, 1024 },
	{ "VBDS", 4, false, XG_F_VBDS, 1 },
	{ "VBD_OO", 8, false, XG_F_DISK_OO, 1 },
	{ "VBD_RD", 8, true, XG_F_DISK_RD_OPS, 1 },
	{ "VBD_WR", 8, true, XG_F_DISK_WR_OPS, 1 },
	{ "VBD_RSECT", 10, true, XG_F_DISK_RD_BYTES, 512 },
	{ "VBD_WSECT", 10, true, XG_F_DISK_WR_BYTES, 512 },
	{ "SSID", 4, false, XG_F_SSID, 1 },
};
#define NTAIL XG_ARRAY_LEN(tail)

/* xentop sizes a column for value + 1 (its INT_FIELD_WIDTH(n + 1)), so a
 * column of 99999999 already takes nine places; kept for identical output. */
static int width_for(uint64_t v)
{
	if (v == UINT64_MAX)
		return 20;
	v += 1;
	int w = 1;
	while (v >= 10) {
		v /= 10;
		w++;
	}
	return w;
}

struct xt_ctx {
	const struct xg_sample *s;
	int w[NTAIL];
};

static const struct xg_dom *row_dom(const struct xg_table *t, const struct xg_row *r)
{
	return r->dom_index < t->cur->ndom ? &t->cur->dom[r->dom_index] : NULL;
}

static void put_u64(FILE *f, int w, const struct xg_dom *d, enum xg_field fld, uint64_t div)
{
	if (dom_has(d, fld))
		fprintf(f, "%*" PRIu64, w, d->v[fld] / div);
	else
		fprintf(f, "%*s", w, "-");
}

static void put_pct(FILE *f, int w, const struct xg_sample *s, uint64_t bytes)
{
	if (s->host.mem_total && host_has(&s->host, XG_H_MEM))
		fprintf(f, "%*.1f", w, (double)bytes / (double)s->host.mem_total * 100);
	else
		fprintf(f, "%*s", w, "-");
}

static void put_header(FILE *f, const struct xt_ctx *c)
{
	fprintf(f, "%10s %6s %10s %6s %10s %6s %10s %9s", "NAME", "STATE", "CPU(sec)", "CPU(%)",
		"MEM(k)", "MEM(%)", "MAXMEM(k)", "MAXMEM(%)");
	for (size_t k = 0; k < NTAIL; k++)
		fprintf(f, " %*s", c->w[k], tail[k].name);
	fputc('\n', f);
}

static void put_row(FILE *f, const struct xt_ctx *c, const struct xg_row *r, const struct xg_dom *d)
{
	const struct xg_sample *s = c->s;
	char name[4 * XG_NAME_MAX];
	xg_escape_name(name, sizeof(name), d->name);
	fprintf(f, "%10.10s ", name);
	static const char letters[] = "dsbcpr";
	static const uint32_t bits[] = { XG_ST_DYING, XG_ST_SHUTDOWN, XG_ST_BLOCKED,
					 XG_ST_CRASHED, XG_ST_PAUSED, XG_ST_RUNNING };
	for (int i = 0; i < 6; i++)
		fputc(d->state & bits[i] ? letters[i] : '-', f);
	fputc(' ', f);
	put_u64(f, 10, d, XG_F_CPU_NS, 1000000000ull);
	/* xentop shows 0.0 where it has no previous sample; so do we. */
	double pct = row_has(r, XG_COL_CPU_PCT) ? r->v[XG_COL_CPU_PCT] : 0.0;
	fprintf(f, " %6.1f ", pct);
	put_u64(f, 10, d, XG_F_MEM, 1024);
	fputc(' ', f);
	if (dom_has(d, XG_F_MEM))
		put_pct(f, 6, s, d->v[XG_F_MEM]);
	else
		fprintf(f, "%6s", "-");
	fputc(' ', f);
	if (!dom_has(d, XG_F_MAXMEM))
		fprintf(f, "%10s %9s", "-", "-");
	else if (d->v[XG_F_MAXMEM] == UINT64_MAX)
		fprintf(f, "%10s %9s", "no limit", "n/a");
	else {
		fprintf(f, "%10" PRIu64 " ", d->v[XG_F_MAXMEM] / 1024);
		put_pct(f, 9, s, d->v[XG_F_MAXMEM]);
	}
	for (size_t k = 0; k < NTAIL; k++) {
		fputc(' ', f);
		put_u64(f, c->w[k], d, tail[k].f, tail[k].div);
	}
	fputc('\n', f);
}

/* xentop's -v line: online vCPUs only, a new line every five positions. */
static void put_vcpus(FILE *f, const struct xg_sample *s, const struct xg_dom *d)
{
	if (!d->vcpu_count)
		return;
	const struct xg_vcpu *v = sample_vcpus(s, d);
	fputs("VCPUs(sec): ", f);
	for (uint32_t i = 0; i < d->vcpu_count; i++) {
		if (!v[i].online)
			continue;
		if (i && i % 5 == 0)
			fputs("\n        ", f);
		if (vcpu_has_cpu(&v[i]))
			fprintf(f, " %2u: %10" PRIu64 "s", v[i].id, (uint64_t)(v[i].cpu_ns / 1000000000u));
		else
			fprintf(f, " %2u: %10s ", v[i].id, "-");
	}
	fputc('\n', f);
}

/* `-o xentop`: one iteration laid out exactly as `xentop -b` prints it, so
 * scripts written for xentop keep working (CPU(%) comes from the metrics
 * layer and is right on the first printed iteration). The header, then one
 * line per domain row that v selected, in v's order; with v->show_vcpus a
 * "VCPUs(sec):" line after each domain that has per-vCPU figures. Domains
 * without a name are left out, as xentop does; figures the sample does not
 * have print as "-". */
static int xentop_write(struct output *o, const struct xg_table *t, const struct xg_view *v,
			struct xg_err *err)
{
	FILE *f = o->f;
	if (!t || !t->cur)
		return xg_fail(err, "xentop output: no sample to print");
	/* The rows to print: domain rows with a name and a sample entry. */
	size_t n = v->norder;
	size_t *pick = xg_malloc((n ? n : 1) * sizeof(*pick));
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		size_t idx = v->order[i];
		if (idx >= t->n)
			continue;
		const struct xg_row *r = &t->rows[idx];
		const struct xg_dom *d = row_is_dom(r) ? row_dom(t, r) : NULL;
		if (d && d->name[0])
			pick[k++] = idx;
	}

	struct xt_ctx c = { .s = t->cur };
	for (size_t col = 0; col < NTAIL; col++)
		c.w[col] = tail[col].width;
	for (size_t i = 0; i < k; i++) {
		const struct xg_dom *d = row_dom(t, &t->rows[pick[i]]);
		for (size_t col = 0; col < NTAIL; col++) {
			if (!tail[col].grow || !dom_has(d, tail[col].f))
				continue;
			int w = width_for(d->v[tail[col].f] / tail[col].div);
			if (w > c.w[col])
				c.w[col] = w;
		}
	}
	if (k)
		put_header(f, &c);
	for (size_t i = 0; i < k; i++) {
		const struct xg_row *r = &t->rows[pick[i]];
		const struct xg_dom *d = row_dom(t, r);
		put_row(f, &c, r, d);
		if (v->show_vcpus)
			put_vcpus(f, t->cur, d);
	}
	free(pick);
	if (fflush(f) || ferror(f))
		return xg_fail_errno(err, errno, "xentop output: write failed");
	return 0;
}

const struct output_format output_xentop_format = { XG_OUT_XENTOP, "xentop", xentop_write };
