// SPDX-License-Identifier: GPL-2.0-or-later
/* The batch outputs on a hand-built table: exact CSV/JSON/text lines, hostile
 * names, `-`/null with reasons, sort order, vCPU rows, JSON validity. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xgtop/outputs/explain.h"
#include "xgtop/outputs/json.h"
#include "xgtop/outputs/output.h"
#include "../../../src/outputs/output_util.h"

#define T0_NS (1796006218ull * 1000000000ull + 123456789ull) /* 2026-11-30T02:36:58.123Z */
#define NO_PERF "no perf_event access (perf_event_paranoid=3)"
#define NDOM 5

/* Golden CSV headers: scripts depend on these names. Change them only
 * together with doc/outputs.md. */
#define GOLDEN_BASE "time,interval_s,id,name,state,cpu_pct,cpu_s,vcpus,mem_bytes,mem_pct," \
	"maxmem_bytes"
#define GOLDEN_MID GOLDEN_BASE ",net_rx_bps,net_tx_bps,net_rx_pps,net_tx_pps,disk_rd_iops," \
	"disk_wr_iops,disk_rd_bps,disk_wr_bps,run_pct,wait_pct,blk_pct,off_pct"
#define GOLDEN_MID_AFTER_ID ",name,state,cpu_pct,cpu_s,vcpus,mem_bytes,mem_pct,maxmem_bytes," \
	"net_rx_bps,net_tx_bps,net_rx_pps,net_tx_pps,disk_rd_iops," \
	"disk_wr_iops,disk_rd_bps,disk_wr_bps,run_pct,wait_pct,blk_pct,off_pct"
#define GOLDEN_ALL GOLDEN_MID ",llc_ref_ps,llc_miss_ps,hit_pct,mpki,l3_occ_bytes,mem_bw_bps"
/* The breakdown (--nosumcache) adds socket rows, so a `socket` field after
 * `id`; every other name and its order stay. */
#define GOLDEN_BREAKDOWN "time,interval_s,id,socket" GOLDEN_MID_AFTER_ID \
	",l3_occ_bytes,mem_bw_bps,miss_guest_user_ps," \
	"miss_guest_kernel_ps,miss_host_ps,hit_guest_user_pct,hit_guest_kernel_pct,hit_host_pct"

struct fx {
	struct xg_sample s;
	struct xg_table t;
	struct xg_view v;
	char longname[XG_NAME_MAX];
};

static struct xg_row *add_row(struct fx *x, uint32_t id, int32_t vcpu, uint32_t dom,
			      const char *name)
{
	xg_grow(&x->t.rows, &x->t.cap, x->t.n + 1, sizeof(*x->t.rows));
	struct xg_row *r = &x->t.rows[x->t.n++];
	memset(r, 0, sizeof(*r));
	r->id = id;
	r->vcpu = vcpu;
	r->dom_index = dom;
	r->name = name;
	memcpy(r->state, "-b----", 7);
	if (vcpu < 0)
		x->t.ndom_rows++;
	return r;
}

static void set(struct xg_row *r, enum xg_col c, double v)
{
	r->v[c] = v;
	r->valid |= 1ull << c;
}

/* Every row has id/name/state (valid), CPU% and MEM; the cache figures are
 * missing for a known reason; net is missing without one. */
static struct fx *fx_new(bool vcpus)
{
	struct fx *x = xg_calloc(1, sizeof(*x));
	sample_init(&x->s);
	struct xg_host *h = &x->s.host;
	snprintf(h->source, sizeof(h->source), "linux");
	snprintf(h->hypervisor, sizeof(h->hypervisor), "Linux 6.1.0 (KVM)");
	snprintf(h->hostname, sizeof(h->hostname), "lab\"1");
	h->real_ns = T0_NS;
	h->pcpus = 4;
	h->cpu_khz = 2400000;
	h->mem_total = 16ull << 30;
	h->mem_free = 8ull << 30;
	h->valid = 1u << XG_H_PCPUS | 1u << XG_H_CPU_KHZ | 1u << XG_H_MEM;
	uint8_t noperf = sample_reason(&x->s, NO_PERF);

	memset(x->longname, 'L', sizeof(x->longname) - 1);
	static const char *names[NDOM] = {
		"Domain-0", "web,\"prod\"", "esc\x1b[2J\nnl", "bad\xff\xc3(", NULL,
	};
	for (uint32_t i = 0; i < NDOM; i++) {
		struct xg_row *r = add_row(x, i * 2, -1, i, names[i] ? names[i] : x->longname);
		r->valid = 1ull << XG_COL_ID | 1ull << XG_COL_NAME | 1ull << XG_COL_STATE;
		set(r, XG_COL_ID, i * 2);
		set(r, XG_COL_CPU_PCT, 10.5 * i);
		set(r, XG_COL_MEM, (double)(i + 1) * 1048576);
		for (int c = XG_COL_LLC_REF; c < XG_COL_COUNT; c++)
			r->why[c] = noperf;
	}
	x->t.rows[0].state[5] = 'r';
	x->t.rows[1].valid &= ~(1ull << XG_COL_CPU_PCT);
	x->t.rows[1].why[XG_COL_CPU_PCT] = XG_WHY_FIRST;
	set(&x->t.rows[2], XG_COL_MEM_PCT, NAN);   /* a broken figure must not leak */
	if (vcpus) {
		for (int32_t k = 0; k < 2; k++) {
			struct xg_row *r = add_row(x, 0, k, 0, "Domain-0");
			memcpy(r->state, "online", 7);
			for (int c = 0; c < XG_COL_COUNT; c++)
				r->why[c] = XG_WHY_DOMONLY;
			set(r, XG_COL_ID, 0);
			set(r, XG_COL_CPU_PCT, 1.5 + k);
		}
	}
	x->t.cur = &x->s;
	x->t.sum.interval_s = 1.0;
	x->t.sum.self_cpu_ms = 0.25;
	x->t.sum.ndom = NDOM;
	x->t.sum.nrunning = 1;
	x->t.sum.nblocked = NDOM - 1;
	x->t.sum.cpu_pct_total = 105;

	view_cols_reset(&x->v);
	x->v.sort_col = XG_COL_CPU_PCT;
	x->v.sumcache = true;
	x->v.show_vcpus = vcpus;
	x->v.show_cache = true;
	/* CPU% descending, `-` last, vCPU rows after their domain. */
	static const size_t plain[] = { 4, 3, 2, 0, 1 };
	static const size_t with_vcpu[] = { 4, 3, 2, 0, 5, 6, 1 };
	x->v.norder = vcpus ? 7 : 5;
	x->v.order = xg_calloc(x->v.norder, sizeof(size_t));
	memcpy(x->v.order, vcpus ? with_vcpu : plain, x->v.norder * sizeof(size_t));
	return x;
}

/* Two socket rows under Domain-0 (the breakdown on): socket 0 fully
 * measured, socket 1 with its bandwidth missing for a new baseline. The
 * order puts them right under their domain, before its vCPU rows. */
static void fx_add_sockets(struct fx *x)
{
	for (uint32_t k = 0; k < 2; k++) {
		struct xg_row *r = add_row(x, 0, -1, 0, "Domain-0");
		x->t.ndom_rows--;
		r->sock_row = 1;
		r->socket = k;
		r->state[0] = 0;
		set(r, XG_COL_ID, 0);
		set(r, XG_COL_L3_OCC, (double)(k + 1) * 1048576);
		if (k == 0)
			set(r, XG_COL_MEM_BW, 2.5e6);
		else
			r->why[XG_COL_MEM_BW] = XG_WHY_SOCKFIRST;
	}
	x->v.sumcache = false;
	size_t n = x->t.n;   /* rows: 5 domains, [2 vCPUs], 2 sockets */
	size_t order[] = { 4, 3, 2, 0, n - 2, n - 1, 5, 6, 1 };
	size_t norder = x->v.show_vcpus ? 9 : 7;
	if (!x->v.show_vcpus)
		order[6] = 1;
	free(x->v.order);
	x->v.order = xg_calloc(norder, sizeof(size_t));
	memcpy(x->v.order, order, norder * sizeof(size_t));
	x->v.norder = norder;
}

static void fx_free(struct fx *x)
{
	free(x->v.order);
	free(x->t.rows);
	sample_free(&x->s);
	free(x);
}

struct out {
	char *buf;
	size_t len;
	FILE *f;
};

static void out_open(struct out *o)
{
	o->buf = NULL;
	o->f = open_memstream(&o->buf, &o->len);
	assert_non_null(o->f);
}

static char *out_close(struct out *o)
{
	fclose(o->f);
	return o->buf;
}

/* Line i (0-based) of s, in a static buffer. */
static const char *line(const char *s, int i)
{
	static char b[65536];
	while (i-- > 0) {
		s = strchr(s, '\n');
		assert_non_null(s);
		s++;
	}
	size_t n = strcspn(s, "\n");
	assert_true(n < sizeof(b));
	memcpy(b, s, n);
	b[n] = 0;
	return b;
}

static int count_lines(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static char *run_output(enum xg_output fmt, struct fx *x, int iterations)
{
	struct out o;
	struct xg_err err = { 0 };
	out_open(&o);
	struct output *s = output_open(fmt, o.f);
	for (int i = 0; i < iterations; i++)
		assert_int_equal(output_write(s, &x->t, &x->v, &err), 0);
	output_close(s);
	return out_close(&o);
}

/* ---- a strict JSON checker: syntax, escapes, UTF-8, no NaN/Inf ---- */

static const char *js_value(const char *p, int depth);

static const char *js_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static const char *js_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p != '"') {
		unsigned char c = (unsigned char)*p;
		if (c < 0x20)
			return NULL;
		if (c == '\\') {
			p++;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
						return NULL;
				p += 5;
			} else if (*p && strchr("\"\\/bfnrt", *p)) {
				p++;
			} else {
				return NULL;
			}
			continue;
		}
		int n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
			: (c & 0xf8) == 0xf0 ? 4 : 0;
		if (!n || (n == 2 && c < 0xc2))
			return NULL;
		for (int i = 1; i < n; i++)
			if (((unsigned char)p[i] & 0xc0) != 0x80)
				return NULL;
		p += n;
	}
	return p + 1;
}

static const char *js_number(const char *p)
{
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*p >= '0' && *p <= '9')
			p++;
	else
		return NULL;
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return NULL;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (*p < '0' || *p > '9')
			return NULL;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return p;
}

static const char *js_value(const char *p, int depth)
{
	if (depth > 32)
		return NULL;
	p = js_ws(p);
	if (*p == '{' || *p == '[') {
		char close = *p == '{' ? '}' : ']';
		bool obj = *p == '{';
		p = js_ws(p + 1);
		if (*p == close)
			return p + 1;
		for (;;) {
			if (obj) {
				p = js_string(js_ws(p));
				if (!p)
					return NULL;
				p = js_ws(p);
				if (*p++ != ':')
					return NULL;
			}
			p = js_value(p, depth + 1);
			if (!p)
				return NULL;
			p = js_ws(p);
			if (*p == close)
				return p + 1;
			if (*p++ != ',')
				return NULL;
		}
	}
	if (*p == '"')
		return js_string(p);
	if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4))
		return p + 4;
	if (!strncmp(p, "false", 5))
		return p + 5;
	return js_number(p);
}

static bool json_valid(const char *s)
{
	const char *p = js_value(s, 0);
	return p && !*js_ws(p);
}

static void json_checker_rejects(void **state)
{
	(void)state;
	assert_true(json_valid("{\"a\":[1,-2.5e+3,null,\"x\\u001b\"]}"));
	assert_false(json_valid("{\"a\":nan}"));
	assert_false(json_valid("{\"a\":1,}"));
	assert_false(json_valid("{\"a\":\"\x1b\"}"));
	assert_false(json_valid("{\"a\":\"\xff\"}"));
	assert_false(json_valid("{\"a\":01}"));
	assert_false(json_valid("{\"a\":1}}"));
}

/* ---- CSV ---- */

static void csv_header_is_stable(void **state)
{
	(void)state;
	struct fx *x = fx_new(false);
	x->v.show_net = x->v.show_disk = x->v.show_sched = true;
	char *out = run_output(XG_OUT_CSV, x, 1);
	/* Golden: scripts depend on these names. Change only with the docs. */
	assert_string_equal(line(out, 0), GOLDEN_ALL);
	free(out);
	x->v.sumcache = false;
	out = run_output(XG_OUT_CSV, x, 1);
	assert_string_equal(line(out, 0), GOLDEN_BREAKDOWN);
	free(out);
	x->v.show_net = x->v.show_disk = x->v.show_sched = x->v.show_cache = false;
	out = run_output(XG_OUT_CSV, x, 1);
	assert_string_equal(line(out, 0), GOLDEN_BASE);
	free(out);
	fx_free(x);
}

static void csv_rows_exact(void **state)
{
	(void)state;
	struct fx *x = fx_new(false);
	x->v.show_cache = false;
	char *out = run_output(XG_OUT_CSV, x, 2);
	/* header once, then the rows in view order, twice */
	assert_int_equal(count_lines(out), 1 + 2 * NDOM);
	assert_string_equal(line(out, 0), GOLDEN_BASE);
	char exp[512];
	snprintf(exp, sizeof(exp), "2026-11-30T02:36:58.123Z,1.000000,8,%s,-b----,42.000,,,5242880,,",
		 x->longname);
	assert_string_equal(line(out, 1), exp);
	assert_string_equal(line(out, 2), "2026-11-30T02:36:58.123Z,1.000000,6,"
			    "\"bad\\xff\\xc3(\",-b----,31.500,,,4194304,,");
	assert_string_equal(line(out, 3), "2026-11-30T02:36:58.123Z,1.000000,4,"
			    "\"esc\\x1b[2J\\x0anl\",-b----,21.000,,,3145728,,");
	assert_string_equal(line(out, 4), "2026-11-30T02:36:58.123Z,1.000000,0,"
			    "Domain-0,-b---r,0.000,,,1048576,,");
	assert_string_equal(line(out, 5), "2026-11-30T02:36:58.123Z,1.000000,2,"
			    "\"web,\"\"prod\"\"\",-b----,,,,2097152,,");
	assert_string_equal(line(out, 6), line(out, 1));
	free(out);
	fx_free(x);
}

static int csv_fields(const char *l)
{
	int n = 1;
	bool q = false;
	for (; *l; l++) {
		if (*l == '"')
			q = !q;
		else if (*l == ',' && !q)
			n++;
	}
	return n;
}

static void csv_vcpu_rows(void **state)
{
	(void)state;
	struct fx *x = fx_new(true);
	char *out = run_output(XG_OUT_CSV, x, 1);
	assert_int_equal(count_lines(out), 1 + NDOM + 2);
	assert_non_null(strstr(line(out, 0), "time,interval_s,id,vcpu,name,"));
	int nf = csv_fields(line(out, 0));
	for (int i = 1; i <= NDOM + 2; i++)
		assert_int_equal(csv_fields(line(out, i)), nf);
	assert_non_null(strstr(line(out, 4), ",0,,Domain-0,"));
	assert_non_null(strstr(line(out, 5), ",0,0,Domain-0,"));
	assert_non_null(strstr(line(out, 6), ",0,1,Domain-0,"));
	assert_non_null(strstr(line(out, 7), ",2,,\"web,"));
	free(out);
	fx_free(x);
}

static void csv_socket_rows(void **state)
{
	(void)state;
	struct fx *x = fx_new(true);
	fx_add_sockets(x);
	char *out = run_output(XG_OUT_CSV, x, 1);
	assert_int_equal(count_lines(out), 1 + NDOM + 2 + 2);
	assert_non_null(strstr(line(out, 0), "time,interval_s,id,vcpu,socket,name,"));
	int nf = csv_fields(line(out, 0));
	for (int i = 1; i <= NDOM + 4; i++)
		assert_int_equal(csv_fields(line(out, i)), nf);
	/* the domain row: both sub-row fields empty */
	assert_non_null(strstr(line(out, 4), ",0,,,Domain-0,-b---r,"));
	/* socket rows: the socket number, an empty state and, of all the
	 * figures, only occupancy and bandwidth (empty when not measured) */
	const char *l = line(out, 5);
	assert_non_null(strstr(l, ",0,,0,Domain-0,,,"));
	assert_non_null(strstr(l, ",1048576,2500000.000,"));
	l = line(out, 6);
	assert_non_null(strstr(l, ",0,,1,Domain-0,,,"));
	assert_non_null(strstr(l, ",2097152,,"));
	assert_null(strstr(l, "2500000"));
	/* then the vCPU rows, socket field empty */
	assert_non_null(strstr(line(out, 7), ",0,0,,Domain-0,online,"));
	free(out);
	/* socket rows not shown (summed cache): no field, no rows */
	x->v.sumcache = true;
	out = run_output(XG_OUT_CSV, x, 1);
	assert_null(strstr(line(out, 0), "socket"));
	assert_int_equal(count_lines(out), 1 + NDOM + 2);
	free(out);
	fx_free(x);
}

/* ---- JSON ---- */

static void json_exact_and_valid(void **state)
{
	(void)state;
	struct fx *x = fx_new(false);
	x->v.show_cache = false;
	char *out = run_output(XG_OUT_JSON, x, 2);
	assert_int_equal(count_lines(out), 2);
	assert_true(json_valid(line(out, 0)));
	assert_string_equal(line(out, 0), line(out, 1));
	const char *l = line(out, 0);
	static const char head[] = "{\"time\":\"2026-11-30T02:36:58.123Z\",\"interval_s\":1.000000,"
			     "\"host\":{\"source\":\"linux\",\"hypervisor\":\"Linux 6.1.0 (KVM)\","
			     "\"hostname\":\"lab\\\"1\",\"pcpus\":4,\"cpu_khz\":2400000,"
			     "\"mem_total_bytes\":17179869184,\"mem_free_bytes\":8589934592,"
			     "\"self_cpu_ms\":0.250},\"domains\":[{\"id\":8,";
	assert_memory_equal(l, head, sizeof(head) - 1);
	/* hostile names: control bytes as \u00XX, a stray byte as U+FFFD */
	assert_non_null(strstr(l, "\"name\":\"esc\\u001b[2J\\u000anl\""));
	assert_non_null(strstr(l, "\"name\":\"bad\xef\xbf\xbd\xef\xbf\xbd(\""));
	assert_non_null(strstr(l, "\"name\":\"web,\\\"prod\\\"\""));
	/* not measured: null, with the reason when one is known; NaN is null */
	char exp[256];
	snprintf(exp, sizeof(exp), "\"cpu_pct\":null,\"cpu_s\":null,\"vcpus\":null,"
		 "\"mem_bytes\":2097152,\"mem_pct\":null,\"maxmem_bytes\":null,"
		 "\"why\":{\"cpu_pct\":\"%s\"}}]}",
		 row_why(&x->t, &x->t.rows[1], XG_COL_CPU_PCT));
	assert_non_null(strstr(l, exp));
	assert_non_null(strstr(l, "\"mem_pct\":null"));
	/* the order the view chose */
	const char *p8 = strstr(l, "\"id\":8,"), *p6 = strstr(l, "\"id\":6,");
	const char *p4 = strstr(l, "\"id\":4,"), *p0 = strstr(l, "\"id\":0,");
	const char *p2 = strstr(l, "\"id\":2,");
	assert_true(p8 && p6 && p4 && p0 && p2);
	assert_true(p8 < p6 && p6 < p4 && p4 < p0 && p0 < p2);
	free(out);
	fx_free(x);
}

static void json_vcpus_nested(void **state)
{
	(void)state;
	struct fx *x = fx_new(true);
	char *out = run_output(XG_OUT_JSON, x, 1);
	const char *l = line(out, 0);
	assert_true(json_valid(l));
	assert_non_null(strstr(l, "\"id\":0,\"name\":\"Domain-0\",\"state\":\"-b---r\""));
	assert_non_null(strstr(l, "\"vcpu_rows\":[{\"vcpu\":0,\"state\":\"online\",\"cpu_pct\":1.500,"));
	assert_non_null(strstr(l, "{\"vcpu\":1,\"state\":\"online\",\"cpu_pct\":2.500,"));
	/* a vCPU's null says the figure exists per domain only */
	char exp[256];
	snprintf(exp, sizeof(exp), "\"mem_bytes\":null,\"mem_pct\":null,\"maxmem_bytes\":null,");
	assert_non_null(strstr(l, exp));
	snprintf(exp, sizeof(exp), "\"why\":{\"cpu_s\":\"%s\",",
		 row_why(&x->t, &x->t.rows[NDOM], XG_COL_CPU_S));
	assert_non_null(strstr(l, exp));
	/* domains without vCPU rows get an empty list: same keys everywhere */
	assert_non_null(strstr(l, "\"vcpu_rows\":[]}"));
	/* the cache figures are null with the source's reason */
	assert_non_null(strstr(l, "\"llc_miss_ps\":\"" NO_PERF "\""));
	free(out);
	fx_free(x);
}

static void json_sockets_nested(void **state)
{
	(void)state;
	struct fx *x = fx_new(true);
	fx_add_sockets(x);
	char *out = run_output(XG_OUT_JSON, x, 1);
	const char *l = line(out, 0);
	assert_true(json_valid(l));
	/* under the domain, before its vCPU rows: socket, occupancy, bandwidth
	 * (null with its reason), and nothing that does not apply to a socket */
	char exp[512];
	snprintf(exp, sizeof(exp), "\"sockets\":[{\"socket\":0,\"l3_occ_bytes\":1048576,"
		 "\"mem_bw_bps\":2500000.000,\"why\":{}},{\"socket\":1,\"l3_occ_bytes\":2097152,"
		 "\"mem_bw_bps\":null,\"why\":{\"mem_bw_bps\":\"%s\"}}],\"vcpu_rows\":[{\"vcpu\":0,",
		 row_why(&x->t, &x->t.rows[x->t.n - 1], XG_COL_MEM_BW));
	assert_non_null(strstr(l, exp));
	assert_non_null(strstr(row_why(&x->t, &x->t.rows[x->t.n - 1], XG_COL_MEM_BW), "socket"));
	/* other domains: an empty list, the same keys everywhere */
	assert_non_null(strstr(l, "\"sockets\":[],\"vcpu_rows\":[]}"));
	free(out);
	/* summed: no list at all */
	x->v.sumcache = true;
	out = run_output(XG_OUT_JSON, x, 1);
	assert_null(strstr(out, "\"sockets\""));
	assert_null(strstr(out, "\"socket\""));
	free(out);
	fx_free(x);
}

static size_t width(const char *s);

static void text_socket_rows(void **state)
{
	(void)state;
	struct fx *x = fx_new(false);
	fx_add_sockets(x);
	char *out = run_output(XG_OUT_TEXT, x, 1);
	/* header at line 5; rows 8 4 2 0, then Domain-0's sockets, then 6 */
	static char hdr[65536], s0[65536], s1[65536];
	snprintf(hdr, sizeof(hdr), "%s", line(out, 5));
	snprintf(s0, sizeof(s0), "%s", line(out, 10));
	snprintf(s1, sizeof(s1), "%s", line(out, 11));
	assert_non_null(strstr(line(out, 9), "Domain-0"));
	assert_non_null(strstr(s0, "  socket 0"));
	assert_non_null(strstr(s1, "  socket 1"));
	assert_int_equal(width(s0), width(hdr));
	/* the figures under their headers; every other cell blank, not `-` */
	const char *occ = strstr(hdr, "L3-OCC"), *bw = strstr(hdr, "MEM-BW");
	assert_true(occ && bw);
	size_t occ_end = (size_t)(occ - hdr) + 6, bw_end = (size_t)(bw - hdr) + 6;
	assert_memory_equal(s0 + occ_end - 4, "1.0M", 4);
	assert_memory_equal(s0 + bw_end - 4, "2.4M", 4);
	assert_memory_equal(s1 + occ_end - 4, "2.0M", 4);
	assert_int_equal(s1[bw_end - 1], '-');
	assert_null(strchr(s0, '-'));
	size_t name_at = (size_t)(strstr(s0, "  socket 0") - s0);
	for (size_t i = 0; i < name_at; i++)
		assert_int_equal(s0[i], ' ');     /* no id on a sub-row */
	free(out);
	/* the report lists the socket row's reason apart from the domains' */
	struct out o;
	out_open(&o);
	assert_int_equal(output_write_report(o.f, &x->t, &x->v), 0);
	out = out_close(&o);
	char exp[256];
	snprintf(exp, sizeof(exp), "\n  MEM-BW (mem_bw_bps): %s [1 of 2 socket rows]\n",
		 row_why(&x->t, &x->t.rows[x->t.n - 1], XG_COL_MEM_BW));
	assert_non_null(strstr(out, exp));
	/* blank cells of socket rows are not reported as missing: the one
	 * socket reason is the only one */
	const char *p = strstr(out, "socket rows]");
	assert_non_null(p);
	assert_null(strstr(p + 1, "socket rows]"));
	free(out);
	fx_free(x);
}

static void json_string_escapes(void **state)
{
	(void)state;
	static const char *cases[][2] = {
		{ "plain", "\"plain\"" },
		{ "a\"b\\c", "\"a\\\"b\\\\c\"" },
		{ "\t\x01\x7f", "\"\\u0009\\u0001\\u007f\"" },
		{ "caf\xc3\xa9", "\"caf\xc3\xa9\"" },
		{ "\xc2\x9b" "x", "\"\\u009bx\"" },          /* C1 CSI */
		{ "\xe0\x80\xaf", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"" }, /* overlong */
		{ "\xed\xa0\x80", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"" }, /* surrogate */
		{ "\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"" },
		{ "end\xe2\x82", "\"end\xef\xbf\xbd\xef\xbf\xbd\"" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct out o;
		out_open(&o);
		json_write_string(o.f, cases[i][0]);
		char *s = out_close(&o);
		assert_string_equal(s, cases[i][1]);
		assert_true(json_valid(s));
		free(s);
	}
}

/* ---- text ---- */

/* Width in characters (UTF-8 aware) of a line. */
static size_t width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* The column chooser's order and hidden columns shape the text output;
 * CSV keeps table order and every field its groups show. */
static void chooser_text_not_csv(void **state)
{
	(void)state;
	struct fx *x = fx_new(false);
	char *csv0 = run_output(XG_OUT_CSV, x, 1);
	static char want[65536];
	snprintf(want, sizeof(want), "%s", line(csv0, 0));
	free(csv0);
	enum xg_col first[] = { XG_COL_MEM, XG_COL_NAME };
	view_cols_order(&x->v, first, 2);
	assert_true(view_col_set_hidden(&x->v, XG_COL_STATE, true));
	char *out = run_output(XG_OUT_TEXT, x, 1);
	static char h[65536];
	snprintf(h, sizeof(h), "%s", line(out, 5));
	assert_true(!strncmp(h + strspn(h, " "), "MEM NAME", 8));
	assert_null(strstr(h, "STATE"));
	assert_non_null(strstr(h, " ID "));
	free(out);
	out = run_output(XG_OUT_CSV, x, 1);
	assert_string_equal(line(out, 0), want);
	free(out);
	fx_free(x);
}

static void text_block_aligned(void **state)
{
	(void)state;
	struct fx *x = fx_new(true);
	x->v.show_net = true;
	char *out = run_output(XG_OUT_TEXT, x, 2);
	assert_string_equal(line(out, 0), "xgtop - 2026-11-30 02:36:58 UTC - source linux, "
			    "Linux 6.1.0 (KVM), host lab\"1");
	assert_string_equal(line(out, 1), "Domains: 5 total, 1 running, 4 blocked, 0 paused, "
			    "0 crashed, 0 dying, 0 shutdown");
	assert_string_equal(line(out, 2), "pCPUs: 4 @ 2400 MHz, domains 105.0%   "
			    "Mem: 16.0G total, 8.0G free");
	assert_string_equal(line(out, 3), "Interval: 1.00 s, xgtop used 0.2 ms CPU per refresh");
	assert_string_equal(line(out, 4), "");
	/* header + 7 rows, all the same width (the last column is numeric,
	 * right-aligned), every header word ending where its column ends */
	const char *hdr = line(out, 5);
	static char h[65536];
	snprintf(h, sizeof(h), "%s", hdr);
	assert_non_null(strstr(h, "ID NAME"));
	size_t w = width(h);
	for (int i = 6; i < 13; i++) {
		const char *l = line(out, i);
		assert_int_equal(width(l), w);
		assert_null(strchr(l, '\x1b'));
	}
	assert_non_null(strstr(line(out, 6), x->longname));
	assert_non_null(strstr(line(out, 8), "esc\\x1b[2J\\x0anl"));
	/* a blank line, then the second iteration */
	assert_string_equal(line(out, 13), "");
	assert_true(!strncmp(line(out, 14), "xgtop - ", 8));
	assert_int_equal(count_lines(out), 2 * 13 + 1);
	free(out);
	fx_free(x);
}

static void text_dash_and_report(void **state)
{
	(void)state;
	struct fx *x = fx_new(false);
	struct out o;
	out_open(&o);
	assert_int_equal(output_write_report(o.f, &x->t, &x->v), 0);
	char *out = out_close(&o);
	const char *why = strstr(out, "\nWhy '-':\n");
	assert_non_null(why);
	char exp[256];
	snprintf(exp, sizeof(exp), "\n  CPU%% (cpu_pct): %s [1 of 5 domains]\n",
		 row_why(&x->t, &x->t.rows[1], XG_COL_CPU_PCT));
	assert_non_null(strstr(why, exp));
	assert_non_null(strstr(why, "\n  LLC-MISS/s (llc_miss_ps): " NO_PERF " [5 of 5 domains]\n"));
	/* a column with no `-` is not listed */
	assert_null(strstr(why, "(mem_bytes)"));
	/* without a reason from the source, the report still says something */
	assert_non_null(strstr(why, "\n  MAXMEM (maxmem_bytes): "));
	/* the row with the missing CPU% shows `-` in that column */
	static char hdr[65536], dom1[65536];
	snprintf(hdr, sizeof(hdr), "%s", line(out, 5));
	snprintf(dom1, sizeof(dom1), "%s", line(out, 10));
	const char *cp = strstr(hdr, "CPU%");
	assert_non_null(cp);
	size_t end = (size_t)(cp - hdr) + 4;
	assert_true(strstr(dom1, "web,\"prod\"") != NULL);
	assert_int_equal(dom1[end - 1], '-');
	assert_int_equal(dom1[end - 2], ' ');
	free(out);
	fx_free(x);
}

/* --explain prints host strings and reasons that a recording or another
 * host may carry: escaped like names, never a raw control byte. */
static void explain_escapes(void **state)
{
	(void)state;
	struct fx *x = fx_new(false);
	snprintf(x->s.host.hypervisor, sizeof(x->s.host.hypervisor), "Xen\x1b]0;t\x07");
	x->t.rows[1].why[XG_COL_CPU_PCT] = sample_reason(&x->s, "gone\x1b[2J");
	struct out o;
	out_open(&o);
	explain_write(o.f, &x->t, &x->v);
	char *out = out_close(&o);
	assert_null(strchr(out, '\x1b'));
	assert_null(strchr(out, '\x07'));
	assert_non_null(strstr(out, "(Xen\\x1b]0;t\\x07)"));
	assert_non_null(strstr(out, "1 domain: gone\\x1b[2J\n"));
	free(out);
	fx_free(x);
}

static void report_when_all_measured(void **state)
{
	(void)state;
	struct fx *x = fx_new(false);
	x->v.show_cache = false;
	for (size_t i = 0; i < x->t.n; i++)
		for (int c = 0; c < XG_COL_LLC_REF; c++)
			if (c != XG_COL_MEM_PCT)
				set(&x->t.rows[i], (enum xg_col)c, x->t.rows[i].v[c]);
	for (size_t i = 0; i < x->t.n; i++)
		set(&x->t.rows[i], XG_COL_MEM_PCT, 1);
	struct out o;
	out_open(&o);
	assert_int_equal(output_write_report(o.f, &x->t, &x->v), 0);
	char *out = out_close(&o);
	assert_non_null(strstr(out, "\nWhy '-':\n  every figure shown was measured\n"));
	free(out);
	fx_free(x);
}

/* ---- numbers ---- */

static void raw_numbers_are_json_numbers(void **state)
{
	(void)state;
	struct xg_row r;
	char buf[OUTPUT_NUM_MAX];
	memset(&r, 0, sizeof(r));
	set(&r, XG_COL_MEM, 1e300);          /* %.0f: 301 digits */
	assert_true(output_raw_number(XG_COL_MEM, &r, buf, sizeof(buf)));
	assert_int_equal(strlen(buf), 301);
	assert_true(json_valid(buf));
	set(&r, XG_COL_CPU_PCT, -2.5);
	assert_true(output_raw_number(XG_COL_CPU_PCT, &r, buf, sizeof(buf)));
	assert_true(json_valid(buf));
	assert_true(strtod(buf, NULL) == -2.5);
	set(&r, XG_COL_CPU_PCT, INFINITY);
	assert_false(output_raw_number(XG_COL_CPU_PCT, &r, buf, sizeof(buf)));
	assert_string_equal(buf, "");
	r.valid &= ~(1ull << XG_COL_MEM_PCT);
	assert_false(output_raw_number(XG_COL_MEM_PCT, &r, buf, sizeof(buf)));
	/* cut short by a small buffer: a different number, so not written */
	assert_false(output_raw_number(XG_COL_MEM, &r, buf, 8));
}

/* ---- the documented keys are the real ones ---- */

static void doc_lists_every_key(void **state)
{
	(void)state;
	/* tests/run.sh runs unit tests from the top of the tree */
	FILE *f = fopen("doc/outputs.md", "r");
	assert_non_null(f);
	static char doc[1 << 16];
	size_t n = fread(doc, 1, sizeof(doc) - 1, f);
	fclose(f);
	doc[n] = 0;
	for (int c = 0; c < XG_COL_COUNT; c++) {
		char row[128];
		snprintf(row, sizeof(row), "\n| `%s` | %s | ", xg_columns[c].key, xg_columns[c].header);
		if (!strstr(doc, row))
			fail_msg("doc/outputs.md has no table row starting \"%s\"", row + 1);
	}
}

/* ---- the registry ---- */

static void registry_names(void **state)
{
	(void)state;
	char buf[128];
	output_names(buf, sizeof(buf));
	assert_string_equal(buf, "text, csv, json or xentop");
	static const struct { const char *name; enum xg_output id; } known[] = {
		{ "text", XG_OUT_TEXT }, { "csv", XG_OUT_CSV }, { "json", XG_OUT_JSON },
		{ "xentop", XG_OUT_XENTOP },
	};
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		const struct output_format *f = output_find(known[i].name);
		assert_non_null(f);
		assert_int_equal(f->id, known[i].id);
		assert_string_equal(f->name, known[i].name);
	}
	assert_null(output_find("yaml"));
	assert_null(output_find("CSV"));
	assert_null(output_find(""));
}

/* ---- errors ---- */

static void write_error_is_reported(void **state)
{
	(void)state;
	struct fx *x = fx_new(false);
	FILE *f = fopen("/dev/full", "w");
	if (!f)
		skip();
	struct xg_err err = { 0 };
	struct output *s = output_open(XG_OUT_JSON, f);
	assert_int_equal(output_write(s, &x->t, &x->v, &err), -1);
	assert_non_null(strstr(err.msg, "cannot write the output"));
	output_close(s);
	fclose(f);
	fx_free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(json_checker_rejects),
		cmocka_unit_test(csv_header_is_stable),
		cmocka_unit_test(csv_rows_exact),
		cmocka_unit_test(csv_vcpu_rows),
		cmocka_unit_test(csv_socket_rows),
		cmocka_unit_test(json_sockets_nested),
		cmocka_unit_test(text_socket_rows),
		cmocka_unit_test(json_exact_and_valid),
		cmocka_unit_test(json_vcpus_nested),
		cmocka_unit_test(json_string_escapes),
		cmocka_unit_test(registry_names),
		cmocka_unit_test(chooser_text_not_csv),
		cmocka_unit_test(text_block_aligned),
		cmocka_unit_test(text_dash_and_report),
		cmocka_unit_test(explain_escapes),
		cmocka_unit_test(report_when_all_measured),
		cmocka_unit_test(write_error_is_reported),
		cmocka_unit_test(doc_lists_every_key),
		cmocka_unit_test(raw_numbers_are_json_numbers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
