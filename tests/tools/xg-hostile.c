// SPDX-License-Identifier: GPL-2.0-or-later
/* A hostile guest for the Xen lab: runs inside a domU and writes into its
 * own xenstore data/xgtop/ (where `xgtop --agent` publishes) what a
 * malicious or broken guest could, one behaviour at a time, as dom0 asks:
 * dom0 writes a phase name to the guest's data/xglab/cmd, the tool sets it
 * up and answers in data/xglab/ack ("PHASE DETAIL"), then keeps at it
 * until the next phase:
 *   good       a well-formed publication every 200 ms (counters rising)
 *   huge       every key as long as xenstored accepts (ack: the length)
 *   many       a good publication plus thousands of other keys under
 *              data/xgtop/junk/ (ack: how many xenstore took, and why it
 *              refused more)
 *   malformed  good times, counters that are not decimal numbers
 *   escape     good numbers, terminal escape sequences in events and why
 *   churn      a good publication whose time_ns is rewritten every
 *              millisecond
 *   vanish     the publication written and deleted, over and over
 *   spoof      tries to rename itself and to write dom0's data (ack: the
 *              error of each attempt; the guest's own data are untouched)
 *   quit       removes data/xgtop and exits
 * Progress lines go to stdout ("xg-hostile: ..."), the guest console. */
#ifdef HAVE_XEN
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#undef __STRICT_ANSI__
#include <xenstore.h>

#define DIR "data/xgtop"
#define CMD "data/xglab/cmd"
#define ACK "data/xglab/ack"

static struct xs_handle *h;
static uint64_t epoch, ref, miss, writes;

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;
	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static bool put(xs_transaction_t t, const char *key, const char *val, size_t len)
{
	char path[128];
	snprintf(path, sizeof(path), DIR "/%s", key);
	writes++;
	return xs_write(h, t, path, val, (unsigned)len);
}

static bool puts_(xs_transaction_t t, const char *key, const char *val)
{
	return put(t, key, val, strlen(val));
}

static void num(xs_transaction_t t, const char *key, uint64_t v)
{
	char b[24];
	snprintf(b, sizeof(b), "%llu", (unsigned long long)v);
	puts_(t, key, b);
}

/* One publication as the agent writes it (in one transaction), with the
 * counters the phase asks for: NULL values are written as numbers. */
static void publish(const char *bad_ref, const char *bad_miss, const char *events, const char *why)
{
	ref += 1000;
	miss += 100;
	for (int attempt = 0; attempt < 5; attempt++) {
		xs_transaction_t t = xs_transaction_start(h);
		if (t == XBT_NULL)
			return;
		puts_(t, "version", "1");
		num(t, "epoch", epoch);
		num(t, "time_ns", now_ns(CLOCK_MONOTONIC));
		puts_(t, "interval_ms", "200");
		if (bad_ref)
			puts_(t, "llc_ref", bad_ref);
		else
			num(t, "llc_ref", ref);
		if (bad_miss)
			puts_(t, "llc_miss", bad_miss);
		else
			num(t, "llc_miss", miss);
		puts_(t, "events", events ? events : "xg-hostile counts");
		puts_(t, "why", why ? why : "instr: not counted by xg-hostile");
		if (xs_transaction_end(h, t, false) || errno != EAGAIN)
			return;
	}
}

static void ack(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void ack(const char *fmt, ...)
{
	char b[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	xs_write(h, XBT_NULL, ACK, b, (unsigned)strlen(b));
	printf("xg-hostile: %s\n", b);
	fflush(stdout);
}

/* Every key at the greatest length xenstored takes from a guest. */
static void huge(void)
{
	static const size_t sizes[] = { 4096, 3072, 2048, 1024, 512 };
	static const char *const keys[] = { "version", "epoch", "time_ns", "interval_ms", "llc_ref",
					    "llc_miss", "instr", "cycles", "events", "why" };
	char *v = malloc(4096);
	size_t got = 0;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]) && !got; i++) {
		memset(v, '9', sizes[i]);
		if (put(XBT_NULL, "version", v, sizes[i]))
			got = sizes[i];
	}
	for (size_t k = 1; got && k < sizeof(keys) / sizeof(keys[0]); k++) {
		if (k >= 8)   /* the labels: escapes, over and over */
			for (size_t j = 0; j + 8 <= got; j += 8)
				memcpy(v + j, "\033[2J\033]0;", 8);
		put(XBT_NULL, keys[k], v, got);
	}
	free(v);
	ack("huge %zu", got);
}

static void many(void)
{
	publish(NULL, NULL, NULL, NULL);
	int n = 0, e = 0;
	for (; n < 5000; n++) {
		char k[32];
		snprintf(k, sizeof(k), "junk/%d", n);
		if (!puts_(XBT_NULL, k, "0")) {
			e = errno;
			break;
		}
	}
	ack("many %d %s", n, e ? strerror(e) : "no refusal");
}

static const char *attempt(const char *path)
{
	static char r[4][64];
	static int i;
	i = (i + 1) % 4;
	if (xs_write(h, XBT_NULL, path, "owned", 5))
		snprintf(r[i], sizeof(r[i]), "WRITTEN");
	else
		snprintf(r[i], sizeof(r[i]), "%s", strerror(errno));
	return r[i];
}

static void spoof(void)
{
	unsigned len = 0;
	char *dom = xs_read(h, XBT_NULL, "domid", &len);
	const char *self = attempt("name");
	const char *d0data = attempt("/local/domain/0/data/xgtop/llc_ref");
	const char *d0name = attempt("/local/domain/0/name");
	ack("spoof domid=%s name=%s dom0-data=%s dom0-name=%s", dom ? dom : "?", self, d0data, d0name);
	free(dom);
}

/* Sets the phase up; returns the step period in ms (-1: none). */
static int begin(const char *p)
{
	if (!strcmp(p, "huge")) {
		huge();
		return -1;
	}
	xs_rm(h, XBT_NULL, DIR);
	writes = 0;
	if (!strcmp(p, "many")) {
		many();
		return 200;
	}
	if (!strcmp(p, "spoof")) {
		spoof();
		return -1;
	}
	static const char *const known[] = { "good", "malformed", "escape", "churn", "vanish", "quit" };
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(p, known[i])) {
			/* Churn rewrites time_ns of a whole publication. */
			if (!strcmp(p, "churn"))
				publish(NULL, NULL, NULL, NULL);
			ack("%s", p);
			return !strcmp(p, "churn") || !strcmp(p, "vanish") ? 1 : 200;
		}
	ack("unknown %s", p);
	return -1;
}

static void step(const char *p)
{
	if (!strcmp(p, "good") || !strcmp(p, "many"))
		publish(NULL, NULL, NULL, NULL);
	else if (!strcmp(p, "malformed"))
		publish("1e9", "-12", NULL, NULL);
	else if (!strcmp(p, "escape"))
		publish(NULL, NULL, "\033]0;owned\007\033[2J\033[31m", "\033[5mblink");
	else if (!strcmp(p, "churn"))
		num(XBT_NULL, "time_ns", now_ns(CLOCK_MONOTONIC));
	else if (!strcmp(p, "vanish")) {
		publish(NULL, NULL, NULL, NULL);
		xs_rm(h, XBT_NULL, DIR);
	}
}

int main(void)
{
	h = xs_open(0);
	if (!h) {
		perror("xg-hostile: xs_open");
		return 2;
	}
	epoch = now_ns(CLOCK_REALTIME);
	if (!xs_watch(h, CMD, "cmd")) {
		perror("xg-hostile: xs_watch");
		return 2;
	}
	printf("xg-hostile: waiting for %s\n", CMD);
	fflush(stdout);
	char phase[32] = "";
	int period = -1;
	uint64_t since = now_ns(CLOCK_MONOTONIC);
	for (;;) {
		struct pollfd pf = { .fd = xs_fileno(h), .events = POLLIN };
		if (poll(&pf, 1, period) > 0) {
			unsigned n;
			char **ev = xs_read_watch(h, &n);
			free(ev);
			unsigned len = 0;
			char *c = xs_read(h, XBT_NULL, CMD, &len);
			if (c && len && len < sizeof(phase) && strncmp(c, phase, len)) {
				if (phase[0] && writes)
					printf("xg-hostile: %s: %llu writes in %.1f s\n", phase,
					       (unsigned long long)writes,
					       (double)(now_ns(CLOCK_MONOTONIC) - since) / 1e9);
				memcpy(phase, c, len);
				phase[len] = 0;
				since = now_ns(CLOCK_MONOTONIC);
				period = begin(phase);
			}
			free(c);
			if (!strcmp(phase, "quit"))
				break;
			continue;
		}
		step(phase);
	}
	xs_rm(h, XBT_NULL, DIR);
	xs_close(h);
	return 0;
}
#else
#include <stdio.h>
int main(void)
{
	fprintf(stderr, "xg-hostile: built without the Xen libraries\n");
	return 77;
}
#endif
