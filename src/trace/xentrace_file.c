// SPDX-License-Identifier: GPL-2.0-or-later
/* Loads a whole xentrace file through the decoder into per-pCPU event
 * queues. A damaged file keeps what was decoded before the damage.
 *
 * A mapped file is decoded by several threads when there are cores for
 * them: each takes the chunks of its own pCPUs (balanced by their bytes)
 * and skips the others' by their size, into its own decoder and queues;
 * the results are then joined. A pCPU's records and counters depend only
 * on its own chunks, so the joined queues and counters are exactly one
 * thread's. A fault anywhere sends the file back to one thread, which
 * reports it (and decodes what precedes it) exactly as ever. */
#include "xgtop/trace/xentrace.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* One thread's share of a file: the chunks of the pCPUs sh names. */
struct share {
	struct xt_decoder *dec;
	struct xt_events *ev;
	struct xt_decoder dec_own;   /* dec and ev, for all but the first share */
	struct xt_events ev_own;
	struct xt_share sh;
	const uint8_t *buf;
	size_t len;
	int rc;
	struct xg_err err;
	pthread_t thr;
};

/* The pCPUs are given out by the bytes of their chunks in the first part
 * of the file (so that walking the headers costs little): a sixteenth,
 * at least this much. */
#define XT_SAMPLE_MIN (8u << 20)

struct xt_unmap {
	pthread_t thr;
	void *map;
	size_t len;
};

static void *unmap_run(void *arg)
{
	struct xt_unmap *u = arg;
	munmap(u->map, u->len);
	return NULL;
}

/* Unmaps the file on a thread of its own when there are cores to spare
 * (xt_file_free joins it), else here. */
static void unmap_file(struct xt_file *fe, void *map, size_t len, unsigned threads)
{
	if (threads >= 2) {
		fe->unmap = xg_malloc(sizeof(*fe->unmap));
		*fe->unmap = (struct xt_unmap){ .map = map, .len = len };
		if (!pthread_create(&fe->unmap->thr, NULL, unmap_run, fe->unmap))
			return;
		free(fe->unmap);
		fe->unmap = NULL;
	}
	munmap(map, len);
}

static void decode_setup(struct xt_decoder *dec, struct xt_events *ev, bool estimate_hz)
{
	xt_events_init(ev);
	xt_decoder_init(dec, xt_events_add, ev);
	dec->sched_only = true;
	dec->want_infprev = estimate_hz;
	ev->no_hz = !estimate_hz;
}

static int feed_fd(struct xt_file *fe, int fd)
{
	size_t cap = 1 << 20;
	uint8_t *buf = xg_malloc(cap);
	for (;;) {
		ssize_t n = read(fd, buf, cap);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			free(buf);
			return xg_fail_errno(&fe->err, e, "read error at byte %llu",
			                     (unsigned long long)fe->size);
		}
		if (n == 0)
			break;
		fe->size += (uint64_t)n;
		if (xt_decode_feed(&fe->dec, buf, (size_t)n, &fe->err)) {
			free(buf);
			return -1;
		}
	}
	free(buf);
	return 0;
}

static void *share_run(void *arg)
{
	struct share *w = arg;
	w->dec->share = &w->sh;
	w->rc = xt_decode_feed(w->dec, w->buf, w->len, &w->err);
	if (!w->rc)
		w->rc = xt_decode_finish(w->dec, &w->err);
	return NULL;
}

/* Largest first; equal ones by pCPU id, so the split is the same every run. */
static int by_bytes(const void *a, const void *b, void *bytes)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const uint64_t *n = bytes;
	return n[x] != n[y] ? (n[x] < n[y]) - (n[x] > n[y]) : (x > y) - (x < y);
}

/* owner[p] for the n pCPUs of bytes[]: each goes to the thread with the
 * fewest bytes so far, the largest pCPUs first; those without bytes in
 * the sample (they may have some later) to thread p % used, as pCPUs
 * beyond n. Returns `used`, the number of threads that got any (<= nt). */
static unsigned owners_assign(uint8_t *owner, unsigned nt, const uint64_t *bytes, size_t n)
{
	uint64_t load[XT_THREADS_MAX] = { 0 };
	uint32_t *order = xg_malloc((n ? n : 1) * sizeof(*order));
	size_t m = 0;
	unsigned used = 0;
	for (size_t p = 0; p < n; p++)
		if (bytes[p])
			order[m++] = (uint32_t)p;
	qsort_r(order, m, sizeof(*order), by_bytes, (void *)bytes);
	for (size_t i = 0; i < m; i++) {
		unsigned least = 0;
		for (unsigned k = 1; k < nt; k++)
			if (load[k] < load[least])
				least = k;
		used += !load[least];
		load[least] += bytes[order[i]];
		owner[order[i]] = (uint8_t)least;
	}
	for (size_t p = 0; p < n && used; p++)
		if (!bytes[p])
			owner[p] = (uint8_t)(p % used);
	free(order);
	return used;
}

/* Starts shares 1..nw-1 on their threads and decodes share 0 here; false
 * when a thread could not start or any share failed. */
static bool shares_run(struct share *w, unsigned nw, struct xt_file *fe, bool estimate_hz)
{
	unsigned started = 1;
	for (unsigned k = 1; k < nw; k++) {
		w[k].dec = &w[k].dec_own;
		w[k].ev = &w[k].ev_own;
		decode_setup(w[k].dec, w[k].ev, estimate_hz);
	}
	w[0].dec = &fe->dec;
	w[0].ev = &fe->ev;
	while (started < nw && !pthread_create(&w[started].thr, NULL, share_run, &w[started]))
		started++;
	bool ok = started == nw;
	if (ok)
		share_run(&w[0]);
	for (unsigned k = 1; k < started; k++) {
		pthread_join(w[k].thr, NULL);
		ok = ok && !w[k].rc;
	}
	return ok && !w[0].rc;
}

/* Decodes the mapped file with up to `threads` threads into fe->dec and
 * fe->ev. Returns 0, or -1 when it did not (one thread is enough, or a
 * fault: fe is then as freshly set up, for one thread to decode). */
static int decode_shared(struct xt_file *fe, const uint8_t *buf, size_t len, unsigned threads,
                         bool estimate_hz)
{
	uint64_t *bytes = NULL;
	size_t n = 0;
	uint8_t *owner = NULL;
	unsigned nw = 0;
	struct share w[XT_THREADS_MAX];
	memset(w, 0, sizeof(w));
	if (threads >= 2 && xt_chunk_bytes(buf, len, len / 16 > XT_SAMPLE_MIN ? len / 16 : XT_SAMPLE_MIN,
	                                   &bytes, &n)) {
		owner = xg_calloc(n ? n : 1, 1);
		nw = owners_assign(owner, threads < XT_THREADS_MAX ? threads : XT_THREADS_MAX, bytes, n);
	}
	for (unsigned k = 0; k < nw; k++)
		w[k] = (struct share){ .sh = { owner, n, k, nw }, .buf = buf, .len = len };
	bool ok = nw >= 2 && shares_run(w, nw, fe, estimate_hz);
	for (unsigned k = 1; k < nw; k++) {
		if (ok) {
			xt_decoder_absorb(&fe->dec, w[k].dec);
			xt_events_absorb(&fe->ev, w[k].ev, &w[k].sh);
		}
		xt_decoder_free(&w[k].dec_own);
		xt_events_free(&w[k].ev_own);
	}
	fe->dec.share = NULL;
	free(bytes);
	free(owner);
	if (ok)
		return 0;
	xt_decoder_free(&fe->dec);
	xt_events_free(&fe->ev);
	decode_setup(&fe->dec, &fe->ev, estimate_hz);
	return -1;
}

unsigned xt_file_threads(void)
{
	cpu_set_t set;
	int n = sched_getaffinity(0, sizeof(set), &set) ? 1 : CPU_COUNT(&set);
	return n < 1 ? 1 : n > XT_THREADS_MAX ? XT_THREADS_MAX : (unsigned)n;
}

int xt_file_load(struct xt_file *fe, const char *path, bool estimate_hz, unsigned threads,
                 struct xg_err *err)
{
	memset(fe, 0, sizeof(*fe));
	decode_setup(&fe->dec, &fe->ev, estimate_hz);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return xg_fail_errno(err, errno, "%s", path);
	struct stat st;
	int rc = 0;
	void *map = MAP_FAILED;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
		map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map != MAP_FAILED) {
		madvise(map, (size_t)st.st_size, MADV_SEQUENTIAL);
		fe->size = (uint64_t)st.st_size;
		if (!threads)
			threads = xt_file_threads();
		if (decode_shared(fe, map, (size_t)st.st_size, threads, estimate_hz))
			rc = xt_decode_feed(&fe->dec, map, (size_t)st.st_size, &fe->err);
		unmap_file(fe, map, (size_t)st.st_size, threads);
	} else {
		rc = feed_fd(fe, fd);
		if (rc && !fe->dec.failed) {   /* an I/O error, not bad data */
			close(fd);
			if (err)
				*err = fe->err;
			return -1;
		}
	}
	close(fd);
	if (!rc)
		rc = xt_decode_finish(&fe->dec, &fe->err);
	fe->partial = rc != 0;
	/* Records the decoder did not deliver still bound each pCPU's time. */
	for (size_t p = 0; p < fe->dec.npcpu; p++)
		if (fe->dec.pcpu[p].has_tsc)
			xt_events_span(&fe->ev, (uint32_t)p, fe->dec.pcpu[p].first_tsc, fe->dec.pcpu[p].last_tsc);
	xt_events_close(&fe->ev);
	return 0;
}

void xt_file_free(struct xt_file *fe)
{
	if (fe->unmap) {
		pthread_join(fe->unmap->thr, NULL);
		free(fe->unmap);
		fe->unmap = NULL;
	}
	xt_decoder_free(&fe->dec);
	xt_events_free(&fe->ev);
}
