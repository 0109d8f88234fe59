// SPDX-License-Identifier: GPL-2.0-or-later
/* The pool view's parsers of outside input: exporter text (exact counters,
 * escapes, hostile lines), HTTP answers (Content-Length, chunked, broken
 * ones), URLs and hosts files, and the mapping of an exporter's text onto a
 * host sample. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../../src/remote/remote_parts.h"

static void values_are_exact(void **state)
{
	(void)state;
	uint64_t v;
	assert_true(rm_value_u64("12.345678901", 12, 9, false, &v));
	assert_int_equal(v, 12345678901ull);
	assert_true(rm_value_u64("18446744073", 11, 0, false, &v));
	assert_int_equal(v, 18446744073ull);
	assert_true(rm_value_u64("1.5", 3, 9, false, &v));
	assert_int_equal(v, 1500000000ull);
	assert_true(rm_value_u64("1e+06", 5, 0, false, &v));
	assert_int_equal(v, 1000000);
	assert_true(rm_value_u64("+Inf", 4, 0, true, &v));
	assert_int_equal(v, UINT64_MAX);
	assert_false(rm_value_u64("+Inf", 4, 0, false, &v));
	assert_false(rm_value_u64("-1", 2, 0, false, &v));
	assert_false(rm_value_u64("NaN", 3, 0, false, &v));
	assert_false(rm_value_u64("99999999999999999999", 20, 0, false, &v));
	assert_false(rm_value_u64("1.2.3", 5, 0, false, &v));
	assert_false(rm_value_u64("", 0, 0, false, &v));
}

struct seen {
	int n;
	char name[64], dom[64];
	uint64_t v;
};

static int count(void *ctx, const struct rm_series *s, struct xg_err *err)
{
	(void)err;
	struct seen *x = ctx;
	x->n++;
	snprintf(x->name, sizeof(x->name), "%.*s", (int)s->nlen, s->name);
	const char *d = rm_label(s, "domain");
	snprintf(x->dom, sizeof(x->dom), "%s", d ? d : "");
	rm_value_u64(s->value, s->vlen, 0, false, &x->v);
	return 0;
}

static int parse(const char *text, struct seen *x)
{
	struct xg_err err = { 0 };
	memset(x, 0, sizeof(*x));
	return rm_prom_parse(text, strlen(text), count, x, &err);
}

static void text_format(void **state)
{
	(void)state;
	struct seen x;
	assert_int_equal(parse("# HELP a b\n# TYPE a counter\na_total{domain=\"q\\\"x\\\\y\\n\",} 7 1700000000000\r\n\n", &x), 0);
	assert_int_equal(x.n, 1);
	assert_string_equal(x.name, "a_total");
	assert_string_equal(x.dom, "q\"x\\y\n");
	assert_int_equal(x.v, 7);
	/* OpenMetrics: nothing after "# EOF" is read. */
	assert_int_equal(parse("a 1\n# EOF\nthis is not a sample\n", &x), 0);
	assert_int_equal(x.n, 1);
	/* No final newline; blanks around. */
	assert_int_equal(parse("  b{ domain = \"d\" }\t3", &x), 0);
	assert_int_equal(x.v, 3);
}

static void hostile_text(void **state)
{
	(void)state;
	struct seen x;
	static const char *const bad[] = {
		"a{domain=\"x} 1\n",            /* unterminated value */
		"a{domain=\"x\\q\"} 1\n",       /* unknown escape */
		"a{=\"x\"} 1\n",                /* no label name */
		"a{domain=\"x\"\n",             /* unclosed braces */
		"a{domain=\"x\"}\n",            /* no value */
		"a 1 2 3\n",                    /* junk after the timestamp */
		"9a 1\n",                       /* a name starts with a letter */
		"{domain=\"x\"} 1\n",           /* no name */
		"a{domain=\"x\" b=\"y\"} 1\n",  /* no comma */
	};
	for (size_t i = 0; i < XG_ARRAY_LEN(bad); i++)
		assert_int_equal(parse(bad[i], &x), -1);
	/* A NUL inside a line. */
	struct xg_err err = { 0 };
	assert_int_equal(rm_prom_parse("a 1\0b 2\n", 8, count, &x, &err), -1);
	/* More labels than allowed; a label value past the bound. */
	char big[4096] = "a{";
	for (int i = 0; i < RM_LABEL_MAX + 1; i++)
		snprintf(big + strlen(big), sizeof(big) - strlen(big), "l%d=\"v\",", i);
	strcat(big, "} 1\n");
	assert_int_equal(parse(big, &x), -1);
	char *huge = malloc(RM_LABEL_VALUE_MAX + 64);
	memset(huge, 'v', RM_LABEL_VALUE_MAX + 64);
	memcpy(huge, "a{d=\"", 5);
	memcpy(huge + RM_LABEL_VALUE_MAX + 40, "\"} 1\n", 6);
	assert_int_equal(parse(huge, &x), -1);
	free(huge);
}

static void names_round_trip(void **state)
{
	(void)state;
	char raw[64], back[64];
	const char name[] = "ctl\x1b[2J\x07-11 \\ utf8-\xc3(";
	xg_escape_name(raw, sizeof(raw), name);
	rm_unescape_name(back, sizeof(back), raw);
	assert_string_equal(back, name);
	rm_unescape_name(back, sizeof(back), "cut\\x4");   /* a broken escape stays text */
	assert_string_equal(back, "cut\\x4");
}

static int body(const char *ans, char *out, size_t n)
{
	char *b = strdup(ans), why[192];
	const char *p;
	size_t len;
	int rc = rm_http_body(b, strlen(b), &p, &len, why, sizeof(why));
	if (rc == 0)
		snprintf(out, n, "%.*s", (int)len, p);
	else
		snprintf(out, n, "%s", why);
	free(b);
	return rc;
}

static void http_answers(void **state)
{
	(void)state;
	char out[256];
	assert_int_equal(body("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello world", out, sizeof(out)), 0);
	assert_string_equal(out, "hello");
	assert_int_equal(body("HTTP/1.0 200 OK\nServer: x\n\nall of it", out, sizeof(out)), 0);
	assert_string_equal(out, "all of it");
	assert_int_equal(body("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n"
			      "5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\n\r\n", out, sizeof(out)), 0);
	assert_string_equal(out, "hello world");
	assert_int_equal(body("HTTP/1.1 404 Not Found\r\n\r\n", out, sizeof(out)), -1);
	assert_non_null(strstr(out, "404"));
	static const char *const bad[] = {
		"SSH-2.0-OpenSSH\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nshort",
		"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffff\r\nx",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nxx",
		"HTTP/1.1 200 OK\r\nX: y",
	};
	for (size_t i = 0; i < XG_ARRAY_LEN(bad); i++)
		assert_int_equal(body(bad[i], out, sizeof(out)), -1);
}

static void urls(void **state)
{
	(void)state;
	struct rm_target t;
	struct xg_err err = { 0 };
	assert_int_equal(rm_url_parse("http://xen1", NULL, &t, &err), 0);
	assert_string_equal(t.host, "xen1");
	assert_string_equal(t.port, "9717");
	assert_string_equal(t.path, "/metrics");
	assert_string_equal(t.name, "xen1");
	assert_int_equal(rm_url_parse("[::1]:9718/x/metrics", "v6", &t, &err), 0);
	assert_string_equal(t.host, "::1");
	assert_string_equal(t.port, "9718");
	assert_string_equal(t.path, "/x/metrics");
	assert_string_equal(t.name, "v6");
	assert_int_equal(rm_url_parse("https://x", NULL, &t, &err), 0);
	assert_true(t.https);
	assert_string_equal(t.port, "9717");
	assert_int_equal(rm_url_parse("ftp://x", NULL, &t, &err), -1);
	assert_int_equal(rm_url_parse("http://x:99999", NULL, &t, &err), -1);
	/* The port: a decimal from 1 to 65535, nothing else. */
	assert_int_equal(rm_url_parse("x:65535/m", NULL, &t, &err), 0);
	assert_string_equal(t.port, "65535");
	assert_int_equal(rm_url_parse("x:00080", NULL, &t, &err), 0);
	static const char *const bad_ports[] = { "x:0", "x:65536", "x:", "x:8a", "x:+80", "x: 80",
						 "x:080808", "[::1]:", "[::1]:-1" };
	for (size_t i = 0; i < sizeof(bad_ports) / sizeof(bad_ports[0]); i++)
		assert_int_equal(rm_url_parse(bad_ports[i], NULL, &t, &err), -1);
	assert_int_equal(rm_url_parse("http://a b", NULL, &t, &err), -1);
	assert_int_equal(rm_url_parse("http://x/\r\nEvil: 1", NULL, &t, &err), -1);
	assert_int_equal(rm_url_parse("http://x", "bad,name", &t, &err), -1);

	char path[] = "/tmp/xgtop-hosts-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	dprintf(fd, "# pool\nhttp://a:1 alpha\n\n b:2  # second\n");
	close(fd);
	struct rm_target *list = NULL;
	size_t n = 0;
	assert_int_equal(rm_url_file(path, &list, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(list[0].name, "alpha");
	assert_string_equal(list[1].name, "b:2");
	assert_int_equal(rm_url_list("c:3,a:1", &list, &n, &err), 0);
	assert_int_equal(n, 4);
	assert_int_equal(rm_url_list("c:3", &list, &n, &err), -1);   /* listed twice */
	free(list);

	/* Keys, and the default line for hosts without their own. */
	char secret[] = "/tmp/xgtop-secret-XXXXXX";
	int sfd = mkstemp(secret);
	assert_true(sfd >= 0);
	dprintf(sfd, "s3cret\nignored\n");
	close(sfd);
	fd = open(path, O_WRONLY | O_TRUNC);
	dprintf(fd, "https://a:1 alpha ca_file=/own.crt\ndefault ca_file=/ca.crt user=u password_file=%s\n"
		"https://b:2 cert_file=/c.crt key_file=/c.key\nhttp://c:3 gamma user=v password_file=%s\n",
		secret, secret);
	close(fd);
	list = NULL;
	n = 0;
	assert_int_equal(rm_url_file(path, &list, &n, &err), 0);
	assert_int_equal(n, 3);
	assert_string_equal(list[0].ca_file, "/own.crt");
	assert_string_equal(list[0].user, "u");
	assert_string_equal(list[0].password, "s3cret");
	assert_string_equal(list[1].name, "b:2");
	assert_string_equal(list[1].ca_file, "/ca.crt");
	assert_string_equal(list[1].cert_file, "/c.crt");
	assert_string_equal(list[2].user, "v");
	free(list);
	static const char *const bad_lines[] = {
		"http://a:1 alpha ca=/x\n",                       /* unknown key */
		"http://a:1 alpha cert_file=/c.crt\n",            /* no key_file */
		"http://a:1 alpha password_file=%s\n",            /* no user */
		"default user=u\ndefault user=v\nhttp://a:1\n",  /* two defaults */
		"http://a:1 alpha user=u bearer_token_file=%s\n", /* both */
		"http://a:1 alpha password_file=/nonexistent\n",
		"http://a:1 alpha user=\n",
	};
	for (size_t i = 0; i < XG_ARRAY_LEN(bad_lines); i++) {
		fd = open(path, O_WRONLY | O_TRUNC);
		dprintf(fd, bad_lines[i], secret);
		close(fd);
		list = NULL;
		n = 0;
		assert_int_equal(rm_url_file(path, &list, &n, &err), -1);
		assert_non_null(strstr(err.msg, "line"));
		free(list);
	}
	unlink(secret);
	unlink(path);
}

static const char exporter_text[] =
	"xgtop_host_info{source=\"xen\",hypervisor=\"Xen\",version=\"4.17\",hostname=\"h\"} 1\n"
	"xgtop_host_pcpus 8\n"
	"xgtop_host_memory_bytes 1000\n"
	"xgtop_sample_monotonic_seconds 12.000000001\n"
	"xgtop_domain_info{domain=\"web\",uuid=\"00112233-4455-6677-8899-aabbccddeeff\",domid=\"7\",source=\"xen\"} 1\n"
	"xgtop_domain_info{domain=\"db\",domid=\"9\"} 1\n"
	"xgtop_domain_state{domain=\"web\",uuid=\"00112233-4455-6677-8899-aabbccddeeff\",state=\"running\"} 1\n"
	"xgtop_domain_cpu_seconds_total{domain=\"web\",uuid=\"00112233-4455-6677-8899-aabbccddeeff\"} 3.000000007\n"
	"xgtop_domain_runstate_seconds_total{domain=\"web\",uuid=\"00112233-4455-6677-8899-aabbccddeeff\",state=\"runnable\"} 0.5\n"
	"xgtop_domain_memory_max_bytes{domain=\"db\"} +Inf\n"
	"xgtop_vcpu_cpu_seconds_total{domain=\"web\",uuid=\"00112233-4455-6677-8899-aabbccddeeff\",vcpu=\"1\"} 2\n"
	"xgtop_vcpu_cpu_seconds_total{domain=\"web\",uuid=\"00112233-4455-6677-8899-aabbccddeeff\",vcpu=\"0\"} 1\n"
	"xgtop_domain_llc_misses_by_mode_total{domain=\"db\",mode=\"host\"} 5\n"
	"xgtop_collector_up{collector=\"source\"} 1\n";

static void maps_onto_a_sample(void **state)
{
	(void)state;
	struct xg_sample s;
	struct xg_err err = { 0 };
	sample_init(&s);
	assert_int_equal(rm_map_text(exporter_text, strlen(exporter_text), &s, &err), 0);
	assert_int_equal(s.host.mono_ns, 12000000001ull);
	assert_int_equal(s.host.pcpus, 8);
	assert_string_equal(s.host.hypervisor, "Xen 4.17");
	assert_int_equal(s.ndom, 2);
	const struct xg_dom *web = &s.dom[0], *db = &s.dom[1];   /* sorted by id */
	assert_int_equal(web->id, 7);
	assert_string_equal(web->name, "web");
	assert_int_equal(web->handle[15], 0xff);
	assert_true(web->state & XG_ST_RUNNING);
	assert_int_equal(web->v[XG_F_CPU_NS], 3000000007ull);
	assert_true(dom_has(web, XG_F_WAIT_NS));
	assert_int_equal(web->v[XG_F_WAIT_NS], 500000000ull);
	assert_false(dom_has(web, XG_F_RUN_NS));
	assert_non_null(dom_why(&s, web, XG_F_RUN_NS));
	assert_int_equal(web->vcpu_count, 2);
	assert_int_equal(sample_vcpus(&s, web)[0].id, 0);
	assert_int_equal(sample_vcpus(&s, web)[1].cpu_ns, 2000000000ull);
	assert_int_equal(db->id, 9);
	assert_int_equal(db->v[XG_F_MAXMEM], UINT64_MAX);
	assert_int_equal(db->pmu[XG_PMU_HOST][XG_PMU_MISS], 5);
	assert_false(host_has(&s.host, XG_H_VMS));
	/* VM figures (a KVM host's --group vm) mark its domains as VMs. */
	const char kvm[] = "xgtop_sample_monotonic_seconds 1\n"
			   "xgtop_domain_info{domain=\"guest\",domid=\"3\"} 1\n"
			   "xgtop_domain_emulator_cpu_seconds_total{domain=\"guest\"} 0.25\n"
			   "xgtop_domain_swap_bytes{domain=\"guest\"} 4096\n";
	sample_clear(&s);
	assert_int_equal(rm_map_text(kvm, strlen(kvm), &s, &err), 0);
	assert_true(host_has(&s.host, XG_H_VMS));
	assert_int_equal(s.dom[0].v[XG_F_EMU_NS], 250000000ull);
	assert_int_equal(s.dom[0].v[XG_F_SWAP], 4096);
	assert_false(dom_has(&s.dom[0], XG_F_VM_EXITS));
	sample_clear(&s);
	/* Not an exporter: no sample clock. A bad value names the line. */
	assert_int_equal(rm_map_text("foo 1\n", 6, &s, &err), -1);
	const char bad[] = "xgtop_sample_monotonic_seconds 1\nxgtop_domain_cpu_seconds_total{domain=\"a\"} -5\n";
	sample_clear(&s);
	assert_int_equal(rm_map_text(bad, strlen(bad), &s, &err), -1);
	assert_non_null(strstr(err.msg, "line 2"));
	sample_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(values_are_exact),
		cmocka_unit_test(text_format),
		cmocka_unit_test(hostile_text),
		cmocka_unit_test(names_round_trip),
		cmocka_unit_test(http_answers),
		cmocka_unit_test(urls),
		cmocka_unit_test(maps_onto_a_sample),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
