// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer harness for the recording reader. The first input byte picks
 * the layer: odd = the bytes are the file itself (gzip framing, torn
 * tails); even = the bytes are the decompressed text, gzipped here, so the
 * line parser is reached (built with FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
 * the reader skips the per-sample CRC the fuzzer cannot compute). The file
 * is read to its end, then read again from the gzip member the middle
 * sample came from, as a replay stepping back does. Check: the second read
 * gives the first one's samples from that member's start on, and stops
 * where the first stopped. */
#include "fuzz.h"

#include <zlib.h>

#include "xgtop/record/record.h"

#define MAX_SAMPLES 1000

struct pass {
	size_t n;
	int rc;                          /* how reading ended */
	uint64_t mono[MAX_SAMPLES];
	uint64_t member[MAX_SAMPLES];    /* where each sample's member starts */
};

static void read_from(const char *path, bool at, uint64_t off, struct pass *p)
{
	struct xg_err err;
	struct xg_reader *r = at ? reader_open_at(path, off, &err) : reader_open(path, &err);
	p->n = 0;
	p->rc = -2;
	if (!r)
		return;
	struct xg_sample s[2];
	sample_init(&s[0]);
	sample_init(&s[1]);
	size_t i = 0;
	while (i < MAX_SAMPLES && (p->rc = reader_next(r, i ? &s[(i - 1) & 1] : NULL, &s[i & 1], &err)) == 0) {
		const struct xg_sample *c = &s[i & 1];
		for (size_t d = 0; d < c->ndom; d++)
			(void)dom_why(c, &c->dom[d], XG_F_CPU_NS);
		p->mono[i] = c->host.mono_ns;
		p->member[i] = reader_member_offset(r);
		i++;
	}
	p->n = i;
	sample_free(&s[0]);
	sample_free(&s[1]);
	reader_close(r);
}

static void step_back(const char *path, const struct pass *all)
{
	static struct pass again;
	if (all->n < 2)
		return;
	uint64_t off = all->member[all->n / 2];
	size_t first = all->n / 2;
	while (first && all->member[first - 1] == off)
		first--;
	read_from(path, true, off, &again);
	if (again.rc != all->rc || again.n != all->n - first ||
	    memcmp(again.mono, all->mono + first, again.n * sizeof(again.mono[0])))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pass all;
	char path[32];
	if (!size)
		return 0;
	if (data[0] & 1) {
		if (!fz_file(path, data + 1, size - 1))
			return 0;
	} else {
		if (!fz_file(path, "", 0))
			return 0;
		gzFile g = gzopen(path, "wb1");
		gzwrite(g, data + 1, (unsigned)(size - 1));
		gzclose(g);
	}
	read_from(path, false, 0, &all);
	step_back(path, &all);
	unlink(path);
	return 0;
}
