// SPDX-License-Identifier: GPL-2.0-or-later
/* Writes synthetic xentrace files for tests, in the layout xentrace uses:
 * TRC_TRACE_CPU_CHANGE chunk headers followed by raw t_rec records.
 *
 *   xentrace-gen OUT < SCRIPT       one directive per line:
 *     cpu P                     start a chunk for pCPU P
 *     rs TSC DOM VCPU OLD NEW   runstate change, states 0 run 1 runnable 2 blocked 3 offline
 *     cont TSC DOM VCPU         continue running
 *     rs5 TSC DOM VCPU OLD NEW  runstate change with two u64 perf counters (5 words)
 *     lost TSC FIRST COUNT DOM VCPU   TRC_LOST_RECORDS, 4 words
 *     lost1 TSC COUNT           TRC_LOST_RECORDS in a 1-word layout
 *     wrap N                    TRC_TRACE_WRAP_BUFFER padding, no TSC, N garbage words
 *     infprev TSC DOM VCPU NS   TRC_SCHED_SWITCH_INFPREV, 3 words (Xen >= 4.8)
 *     infprev2 TSC DOM NS       the same, older 2-word layout
 *     rec EVENT TSC|- W...      any record (TSC '-' = none)
 *     truncate N                drop the last N bytes of the file
 *     window N                  give the open chunk a size of N bytes (a lie)
 *     raw W                     close the chunk and write word W outside any chunk
 *   xentrace-gen stitch IN COPIES OUT
 *     COPIES copies of IN with TSCs shifted past each other and one
 *     TRC_LOST_RECORDS per pCPU at each seam, so that vCPU states
 *     resynchronise the way xenalyze expects. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t *out;
static size_t nout, capout;
static size_t chunk_hdr = (size_t)-1;   /* offset of the open chunk header */

static void put(const void *p, size_t n)
{
	if (nout + n > capout) {
		capout = (nout + n) * 2 + 4096;
		out = realloc(out, capout);
		if (!out) {
			perror("xentrace-gen");
			exit(1);
		}
	}
	memcpy(out + nout, p, n);
	nout += n;
}

static void put32(uint32_t v) { put(&v, 4); }

static long window_override = -1;

static void close_chunk(void)
{
	if (chunk_hdr != (size_t)-1) {
		uint32_t len = (uint32_t)(nout - chunk_hdr - 12);
		if (window_override >= 0)
			len = (uint32_t)window_override;
		memcpy(out + chunk_hdr + 8, &len, 4);
	}
	chunk_hdr = (size_t)-1;
	window_override = -1;
}

static void open_chunk(uint32_t cpu)
{
	close_chunk();
	chunk_hdr = nout;
	put32(0x0001f003u | 2u << 28);
	put32(cpu);
	put32(0);
}

static void rec(uint32_t ev, int has_tsc, uint64_t tsc, const uint32_t *w, unsigned n)
{
	put32(ev | (uint32_t)n << 28 | (has_tsc ? 1u << 31 : 0));
	if (has_tsc) {
		put32((uint32_t)tsc);
		put32((uint32_t)(tsc >> 32));
	}
	put(w, 4u * n);
}

static uint64_t num(const char *s)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *end) {
		fprintf(stderr, "xentrace-gen: bad number '%s'\n", s);
		exit(2);
	}
	return v;
}

static int script(const char *path)
{
	char line[512];
	size_t truncate = 0;
	int lineno = 0;
	while (fgets(line, sizeof(line), stdin)) {
		char *tok[16];
		int nt = 0;
		lineno++;
		for (char *t = strtok(line, " \t\r\n"); t && nt < 16; t = strtok(NULL, " \t\r\n"))
			tok[nt++] = t;
		if (!nt || tok[0][0] == '#')
			continue;
#define NEED(k) do { if (nt != (k)) { fprintf(stderr, "xentrace-gen: line %d: %s takes %d arguments\n", lineno, tok[0], (k) - 1); return 2; } } while (0)
		uint32_t w[7] = { 0 };
		if (!strcmp(tok[0], "cpu")) {
			NEED(2);
			open_chunk((uint32_t)num(tok[1]));
		} else if (!strcmp(tok[0], "rs") || !strcmp(tok[0], "rs5")) {
			NEED(6);
			uint32_t ev = 0x00021001u | (uint32_t)num(tok[4]) << 8 | (uint32_t)num(tok[5]) << 4;
			w[0] = (uint32_t)num(tok[2]) << 16 | (uint32_t)num(tok[3]);
			for (int i = 1; i < 5; i++)
				w[i] = 1000u * (uint32_t)i;   /* perf counter payload */
			rec(ev, 1, num(tok[1]), w, tok[0][2] ? 5 : 1);
		} else if (!strcmp(tok[0], "cont")) {
			NEED(4);
			w[0] = (uint32_t)num(tok[2]) << 16 | (uint32_t)num(tok[3]);
			rec(0x00021002u, 1, num(tok[1]), w, 1);
		} else if (!strcmp(tok[0], "lost")) {
			NEED(6);
			uint64_t first = num(tok[2]);
			w[0] = (uint32_t)num(tok[3]);
			w[1] = (uint32_t)num(tok[4]) | (uint32_t)num(tok[5]) << 16;
			w[2] = (uint32_t)first;
			w[3] = (uint32_t)(first >> 32);
			rec(0x0001f001u, 1, num(tok[1]), w, 4);
		} else if (!strcmp(tok[0], "lost1")) {
			NEED(3);
			w[0] = (uint32_t)num(tok[2]);
			rec(0x0001f001u, 1, num(tok[1]), w, 1);
		} else if (!strcmp(tok[0], "wrap")) {
			NEED(2);
			for (int i = 0; i < 7; i++)
				w[i] = 0xdeadbeefu;
			rec(0x0001f002u, 0, 0, w, (unsigned)num(tok[1]) & 7);
		} else if (!strcmp(tok[0], "infprev")) {
			NEED(5);
			w[0] = (uint32_t)num(tok[2]);
			w[1] = (uint32_t)num(tok[3]);
			w[2] = (uint32_t)num(tok[4]);
			rec(0x0002800eu, 1, num(tok[1]), w, 3);
		} else if (!strcmp(tok[0], "infprev2")) {
			NEED(4);
			w[0] = (uint32_t)num(tok[2]);
			w[1] = (uint32_t)num(tok[3]);
			rec(0x0002800eu, 1, num(tok[1]), w, 2);
		} else if (!strcmp(tok[0], "rec")) {
			if (nt < 3 || nt > 10) {
				fprintf(stderr, "xentrace-gen: line %d: rec EVENT TSC|- [up to 7 words]\n", lineno);
				return 2;
			}
			for (int i = 3; i < nt; i++)
				w[i - 3] = (uint32_t)num(tok[i]);
			int has = strcmp(tok[2], "-") != 0;
			rec((uint32_t)num(tok[1]) & 0x0fffffffu, has, has ? num(tok[2]) : 0, w, (unsigned)nt - 3);
		} else if (!strcmp(tok[0], "window")) {
			NEED(2);
			window_override = (long)num(tok[1]);
		} else if (!strcmp(tok[0], "raw")) {
			NEED(2);
			close_chunk();
			put32((uint32_t)num(tok[1]));
		} else if (!strcmp(tok[0], "truncate")) {
			NEED(2);
			truncate = (size_t)num(tok[1]);
		} else {
			fprintf(stderr, "xentrace-gen: line %d: unknown directive %s\n", lineno, tok[0]);
			return 2;
		}
	}
	close_chunk();
	if (truncate > nout)
		truncate = nout;
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(out, 1, nout - truncate, f) != nout - truncate || fclose(f)) {
		perror(path);
		return 1;
	}
	return 0;
}

/* ---- stitch ---- */

static uint8_t *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(1);
	}
	size_t cap = 1 << 20, len = 0;
	uint8_t *buf = malloc(cap);
	size_t r;
	while (buf && (r = fread(buf + len, 1, cap - len, f)) > 0) {
		len += r;
		if (len == cap)
			buf = realloc(buf, cap *= 2);
	}
	fclose(f);
	if (!buf) {
		perror("xentrace-gen");
		exit(1);
	}
	*n = len;
	return buf;
}

static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static size_t rsize(uint32_t h) { return 4 + ((h >> 31) ? 8 : 0) + 4 * ((h >> 28) & 7); }

#define MAXP 4096
struct pinfo { uint64_t first, last; int has; uint32_t dom, vcpu; int who; };

static int stitch(const char *in, long copies, const char *path)
{
	size_t n;
	uint8_t *buf = slurp(in, &n);
	static struct pinfo pi[MAXP];
	uint64_t gfirst = UINT64_MAX, glast = 0;
	/* Pass 1: per-pCPU first/last TSC and who is running at its start. */
	for (size_t o = 0; o + 12 <= n;) {
		uint32_t cpu = rd32(buf + o + 4), win = rd32(buf + o + 8);
		if (rd32(buf + o) != (0x0001f003u | 2u << 28) || cpu >= MAXP || o + 12 + win > n) {
			fprintf(stderr, "xentrace-gen: %s is not a clean xentrace file at byte %zu\n", in, o);
			return 1;
		}
		for (size_t r = o + 12; r < o + 12 + win; r += rsize(rd32(buf + r))) {
			uint32_t h = rd32(buf + r);
			if (!(h >> 31))
				continue;
			uint64_t t = rd32(buf + r + 4) | (uint64_t)rd32(buf + r + 8) << 32;
			if (!pi[cpu].has)
				pi[cpu].first = t;
			pi[cpu].has = 1;
			pi[cpu].last = t;
			gfirst = t < gfirst ? t : gfirst;
			glast = t > glast ? t : glast;
			uint32_t ev = h & 0x0ffff00fu;
			if (!pi[cpu].who && (ev == 0x00021001u || ev == 0x00021002u) && ((h >> 28) & 7) >= 1) {
				uint32_t old = (h >> 8) & 0xf;
				uint32_t w = rd32(buf + r + 12);
				pi[cpu].who = 1;
				/* Running at the seam: the vCPU leaving/continuing, else idle. */
				pi[cpu].dom = (ev == 0x00021002u || old == 0) ? w >> 16 : 32767;
				pi[cpu].vcpu = (ev == 0x00021002u || old == 0) ? (w & 0xffff) : cpu;
			}
		}
		o += 12 + win;
	}
	uint64_t shift = glast - gfirst + 2400000;   /* + ~1 ms between copies */
	for (long k = 0; k < copies; k++) {
		static int started[MAXP];
		memset(started, 0, sizeof(started));
		for (size_t o = 0; o + 12 <= n;) {
			uint32_t cpu = rd32(buf + o + 4), win = rd32(buf + o + 8);
			open_chunk(cpu);
			if (k > 0 && !started[cpu] && pi[cpu].has) {
				/* Records "lost" between the copies. */
				uint32_t w[4];
				uint64_t first = pi[cpu].last + (uint64_t)(k - 1) * shift + 1;
				w[0] = 1;
				w[1] = pi[cpu].dom | pi[cpu].vcpu << 16;
				w[2] = (uint32_t)first;
				w[3] = (uint32_t)(first >> 32);
				rec(0x0001f001u, 1, pi[cpu].first + (uint64_t)k * shift - 1, w, 4);
			}
			started[cpu] = 1;
			for (size_t r = o + 12; r < o + 12 + win;) {
				uint32_t h = rd32(buf + r);
				size_t s = rsize(h);
				size_t at = nout;
				put(buf + r, s);
				if (h >> 31) {
					uint64_t t = rd32(buf + r + 4) | (uint64_t)rd32(buf + r + 8) << 32;
					t += (uint64_t)k * shift;
					memcpy(out + at + 4, &t, 8);
					if ((h & 0x0fffffffu) == 0x0001f001u && ((h >> 28) & 7) == 4) {
						uint64_t f = rd32(buf + r + 20) | (uint64_t)rd32(buf + r + 24) << 32;
						f += (uint64_t)k * shift;
						memcpy(out + at + 20, &f, 8);
					}
				}
				r += s;
			}
			o += 12 + win;
		}
	}
	close_chunk();
	free(buf);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(out, 1, nout, f) != nout || fclose(f)) {
		perror(path);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "stitch"))
		return stitch(argv[2], strtol(argv[3], NULL, 10), argv[4]);
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: xentrace-gen OUT < SCRIPT | xentrace-gen stitch IN COPIES OUT\n");
		return 2;
	}
	return script(argv[1]);
}
