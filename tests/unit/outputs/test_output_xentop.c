// SPDX-License-Identifier: GPL-2.0-or-later
/* -o xentop against lines real xentop 4.17 printed (a capture from an
 * XCP-ng 8.3 host, second iteration of `xentop -b -i 2 -d 1`, and the -v
 * vCPU wrap of the same host): same header, widths, truncation, units. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xgtop/outputs/output.h"

struct fixture {
	struct xg_sample s;
	struct xg_table t;
	struct xg_view v;
};

/* One domain of the capture: name, state bits, CPU s, CPU%, MEM k,
 * MAXMEM k, VCPUS, VBDS, VBD_RD, VBD_WR, VBD_RSECT, VBD_WSECT. */
struct cap_dom {
	const char *name;
	uint32_t state;
	uint64_t cpu_s;
	double pct;
	uint64_t mem_k, max_k, vcpus, vbds, rd, wr, rsect, wsect;
};

static const struct cap_dom capture[] = {
	{ "xvm", XG_ST_BLOCKED, 76038, 2.2, 2097140, 2098164, 2, 1, 169903, 4889431, 5231610, 66013528 },
	{ "Domain-0", XG_ST_RUNNING, 330256, 10.6, 6078464, 6078464, 12, 0, 0, 0, 0, 0 },
	{ "f-vm-02", XG_ST_BLOCKED, 38107, 0.5, 4194292, 4195316, 2, 2, 9093848, 13998648, 685047429, 424867416 },
	{ "h-vm-03-sample", XG_ST_BLOCKED, 4069, 2.9, 4196328, 4197352, 2, 1, 317002, 347166, 9036992, 8414737 },
	{ "b-vm-01", XG_ST_BLOCKED, 30479, 1.6, 8388596, 8389620, 4, 2, 1333757, 8634521, 112690741, 87614100 },
	{ "i-vm04", XG_ST_BLOCKED, 19, 1.3, 8390632, 8391656, 8, 1, 24163, 1357, 1008055, 28920 },
	{ "n-vm-05-x", XG_ST_BLOCKED, 10482, 0.3, 4194292, 4195316, 2, 2, 1603173, 2990090, 33136282, 29349388 },
	{ "r-vm-06 proxy", XG_ST_BLOCKED, 13749, 0.4, 2097140, 2098164, 2, 1, 19961, 1436385, 858542, 19087516 },
	{ "s-vm 007", XG_ST_BLOCKED, 40174, 1.6, 8388596, 8389620, 4, 2, 1206680, 3036140, 64463369, 220737293 },
};

static const char golden[] =
"      NAME  STATE   CPU(sec) CPU(%)     MEM(k) MEM(%)  MAXMEM(k) MAXMEM(%) VCPUS NETS NETTX(k) NETRX(k) VBDS   VBD_OO   VBD_RD   VBD_WR  VBD_RSECT  VBD_WSECT SSID\n"
"   b-vm-01 --b---      30479    1.6    8388596    8.4    8389620       8.4     4    0        0        0    2        0  1333757  8634521  112690741   87614100    0\n"
"  Domain-0 -----r     330256   10.6    6078464    6.1    6078464       6.1    12    0        0        0    0        0        0        0          0          0    0\n"
"   f-vm-02 --b---      38107    0.5    4194292    4.2    4195316       4.2     2    0        0        0    2        0  9093848 13998648  685047429  424867416    0\n"
"h-vm-03-sa --b---       4069    2.9    4196328    4.2    4197352       4.2     2    0        0        0    1        0   317002   347166    9036992    8414737    0\n"
"    i-vm04 --b---         19    1.3    8390632    8.4    8391656       8.4     8    0        0        0    1        0    24163     1357    1008055      28920    0\n"
" n-vm-05-x --b---      10482    0.3    4194292    4.2    4195316       4.2     2    0        0        0    2        0  1603173  2990090   33136282   29349388    0\n"
"r-vm-06 pr --b---      13749    0.4    2097140    2.1    2098164       2.1     2    0        0        0    1        0    19961  1436385     858542   19087516    0\n"
"  s-vm 007 --b---      40174    1.6    8388596    8.4    8389620       8.4     4    0        0        0    2        0  1206680  3036140   64463369  220737293    0\n"
"       xvm --b---      76038    2.2    2097140    2.1    2098164       2.1     2    0        0        0    1        0   169903  4889431    5231610   66013528    0\n";

static struct xg_dom *add(struct fixture *fx, uint32_t id, const struct cap_dom *c)
{
	struct xg_dom *d = sample_add_dom(&fx->s, id);
	snprintf(d->name, sizeof(d->name), "%s", c->name);
	d->state = c->state;
	/* half a second more than shown: CPU(sec) truncates */
	dom_set(d, XG_F_CPU_NS, c->cpu_s * 1000000000ull + 500000000ull);
	dom_set(d, XG_F_MEM, c->mem_k * 1024);
	dom_set(d, XG_F_MAXMEM, c->max_k * 1024);
	dom_set(d, XG_F_VCPUS_MAX, c->vcpus);
	dom_set(d, XG_F_VCPUS, c->vcpus);
	dom_set(d, XG_F_NETS, 0);
	dom_set(d, XG_F_NET_RX_BYTES, 0);
	dom_set(d, XG_F_NET_TX_BYTES, 0);
	dom_set(d, XG_F_VBDS, c->vbds);
	dom_set(d, XG_F_DISK_OO, 0);
	dom_set(d, XG_F_DISK_RD_OPS, c->rd);
	dom_set(d, XG_F_DISK_WR_OPS, c->wr);
	dom_set(d, XG_F_DISK_RD_BYTES, c->rsect * 512 + 511);
	dom_set(d, XG_F_DISK_WR_BYTES, c->wsect * 512);
	dom_set(d, XG_F_SSID, 0);
	return d;
}

/* Rows as the metrics layer makes them: one per domain, CPU% valid. */
static void make_rows(struct fixture *fx, const double *pct)
{
	fx->t.cur = &fx->s;
	fx->t.n = fx->t.ndom_rows = fx->s.ndom;
	fx->t.rows = calloc(fx->s.ndom, sizeof(*fx->t.rows));
	for (size_t i = 0; i < fx->s.ndom; i++) {
		struct xg_row *r = &fx->t.rows[i];
		r->id = fx->s.dom[i].id;
		r->vcpu = -1;
		r->dom_index = (uint32_t)i;
		r->name = fx->s.dom[i].name;
		if (pct && pct[i] >= 0) {
			r->v[XG_COL_CPU_PCT] = pct[i];
			r->valid |= 1ull << XG_COL_CPU_PCT;
		}
	}
}

static void capture_fixture(struct fixture *fx)
{
	memset(fx, 0, sizeof(*fx));
	sample_init(&fx->s);
	fx->s.host.mem_total = 100000000ull * 1024;
	fx->s.host.valid = 1ull << XG_H_MEM;
	double pct[XG_ARRAY_LEN(capture)];
	for (size_t i = 0; i < XG_ARRAY_LEN(capture); i++) {
		add(fx, (uint32_t)i + 1, &capture[i]);
		pct[i] = capture[i].pct;
	}
	make_rows(fx, pct);
}

static void fixture_free(struct fixture *fx)
{
	free(fx->t.rows);
	free(fx->v.order);
	sample_free(&fx->s);
}

static int by_name(const void *a, const void *b, void *arg)
{
	const struct fixture *fx = arg;
	return strcasecmp(fx->s.dom[*(const size_t *)a].name, fx->s.dom[*(const size_t *)b].name);
}

/* One iteration of -o xentop of the rows v selects; with v NULL, every row
 * in name order, as xentop sorts them. */
static char *render(const struct fixture *fx, const struct xg_view *v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct xg_err err = { 0 };
	struct xg_view all;
	if (!v) {
		memset(&all, 0, sizeof(all));
		all.order = calloc(fx->t.n + 1, sizeof(*all.order));
		for (size_t i = 0; i < fx->t.n; i++)
			all.order[all.norder++] = i;
		qsort_r(all.order, all.norder, sizeof(*all.order), by_name, (void *)fx);
	}
	struct output *o = output_open(XG_OUT_XENTOP, f);
	assert_int_equal(output_write(o, &fx->t, v ? v : &all, &err), 0);
	output_close(o);
	fclose(f);
	if (!v)
		free(all.order);
	return buf;
}

static void matches_real_xentop(void **state)
{
	(void)state;
	struct fixture fx;
	capture_fixture(&fx);
	char *out = render(&fx, NULL);
	assert_string_equal(out, golden);
	free(out);
	fixture_free(&fx);
}

/* The view's order and filter win over xentop's name order. */
static void follows_view_order(void **state)
{
	(void)state;
	struct fixture fx;
	capture_fixture(&fx);
	size_t order[] = { 1, 0 };   /* Domain-0, then xvm */
	fx.v.order = malloc(sizeof(order));
	memcpy(fx.v.order, order, sizeof(order));
	fx.v.norder = 2;
	char *out = render(&fx, &fx.v);
	char *l1 = strchr(out, '\n') + 1, *l2 = strchr(l1, '\n') + 1;
	assert_memory_equal(l1, "  Domain-0 -----r", 17);
	assert_memory_equal(l2, "       xvm --b---", 17);
	assert_null(strchr(l2, '\n')[1] ? "third line" : NULL);
	free(out);
	fixture_free(&fx);
}

/* xentop widens the six counter columns for value + 1; "no limit",
 * "n/a", '-' for figures the sample lacks, NETTX = what the guest got. */
static void widths_and_blanks(void **state)
{
	(void)state;
	struct fixture fx;
	memset(&fx, 0, sizeof(fx));
	sample_init(&fx.s);
	fx.s.host.mem_total = 4ull << 30;
	fx.s.host.valid = 1ull << XG_H_MEM;
	struct cap_dom c = { "big", XG_ST_RUNNING | XG_ST_PAUSED, 5, 0, 1024, 0, 1, 1, 99999999, 5, 1, 2 };
	struct xg_dom *d = add(&fx, 3, &c);
	dom_set(d, XG_F_MAXMEM, UINT64_MAX);
	dom_set(d, XG_F_NETS, 2);
	dom_set(d, XG_F_NET_RX_BYTES, 123456789ull * 1024);   /* guest received */
	dom_set(d, XG_F_NET_TX_BYTES, 7 * 1024);
	struct cap_dom e = { "nodisk", XG_ST_DYING | XG_ST_SHUTDOWN | XG_ST_CRASHED, 1, 0, 1024, 2048, 1, 1, 0, 0, 0, 0 };
	d = add(&fx, 4, &e);
	d->valid &= ~(1ull << XG_F_DISK_RD_OPS | 1ull << XG_F_DISK_WR_OPS | 1ull << XG_F_DISK_RD_BYTES |
		      1ull << XG_F_DISK_WR_BYTES | 1ull << XG_F_DISK_OO);
	struct cap_dom g = { "", 0, 1, 0, 1024, 2048, 1, 0, 0, 0, 0, 0 };
	add(&fx, 5, &g);   /* no name yet: xentop leaves it out */
	double pct[] = { 12.345, -1, 0 };
	make_rows(&fx, pct);
	char *out = render(&fx, NULL);
	const char *want =
"      NAME  STATE   CPU(sec) CPU(%)     MEM(k) MEM(%)  MAXMEM(k) MAXMEM(%) VCPUS NETS  NETTX(k) NETRX(k) VBDS   VBD_OO    VBD_RD   VBD_WR  VBD_RSECT  VBD_WSECT SSID\n"
"       big ----pr          5   12.3       1024    0.0   no limit       n/a     1    2 123456789        7    1        0  99999999        5          1          2    0\n"
"    nodisk ds-c--          1    0.0       1024    0.0       2048       0.0     1    0         0        0    1        -         -        -          -          -    0\n";
	assert_string_equal(out, want);
	free(out);
	fixture_free(&fx);
}

/* -v: online vCPUs, a new line every five positions (xentop's layout). */
static void vcpu_lines(void **state)
{
	(void)state;
	static const uint64_t secs[] = { 35561, 28451, 28624, 27217, 27311, 27001, 26425,
					 25828, 25779, 26134, 25617, 26306 };
	struct fixture fx;
	capture_fixture(&fx);
	/* rebuild with per-vCPU figures for Domain-0 only */
	fixture_free(&fx);
	memset(&fx, 0, sizeof(fx));
	sample_init(&fx.s);
	fx.s.host.mem_total = 100000000ull * 1024;
	fx.s.host.valid = 1ull << XG_H_MEM;
	struct xg_dom *d = add(&fx, 0, &capture[1]);
	struct xg_vcpu *v = sample_add_vcpus(&fx.s, d, 12);
	for (int i = 0; i < 12; i++) {
		v[i].id = (uint32_t)i;
		v[i].online = 1;
		v[i].valid = XG_VCPU_CPU_VALID;
		v[i].cpu_ns = secs[i] * 1000000000ull + 999;
	}
	d = add(&fx, 7, &capture[5]);
	v = sample_add_vcpus(&fx.s, d, 4);
	for (int i = 0; i < 4; i++) {
		v[i].id = (uint32_t)i;
		v[i].online = i != 1;
		v[i].valid = XG_VCPU_CPU_VALID;
		v[i].cpu_ns = 3000000000ull;
	}
	make_rows(&fx, NULL);
	fx.v.show_vcpus = true;
	fx.v.order = malloc(2 * sizeof(size_t));
	fx.v.order[0] = 0;
	fx.v.order[1] = 1;
	fx.v.norder = 2;
	char *out = render(&fx, &fx.v);
	const char *want_d0 =
"VCPUs(sec):   0:      35561s  1:      28451s  2:      28624s  3:      27217s  4:      27311s\n"
"          5:      27001s  6:      26425s  7:      25828s  8:      25779s  9:      26134s\n"
"         10:      25617s 11:      26306s\n";
	assert_non_null(strstr(out, want_d0));
	assert_non_null(strstr(out, "\nVCPUs(sec):   0:          3s  2:          3s  3:          3s\n"));
	free(out);
	fixture_free(&fx);
}

static void nothing_to_print(void **state)
{
	(void)state;
	struct fixture fx;
	memset(&fx, 0, sizeof(fx));
	sample_init(&fx.s);
	make_rows(&fx, NULL);
	char *out = render(&fx, NULL);
	assert_string_equal(out, "");
	free(out);
	fixture_free(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(matches_real_xentop),
		cmocka_unit_test(follows_view_order),
		cmocka_unit_test(widths_and_blanks),
		cmocka_unit_test(vcpu_lines),
		cmocka_unit_test(nothing_to_print),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
