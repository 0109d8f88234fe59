// SPDX-License-Identifier: GPL-2.0-or-later
/* Loads a whole xentrace file through the decoder into per-pCPU event
 * queues. A damaged file keeps what was decoded before the damage. */
#include "xgtop/trace/xentrace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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

int xt_file_load(struct xt_file *fe, const char *path, bool estimate_hz, struct xg_err *err)
{
	memset(fe, 0, sizeof(*fe));
	xt_events_init(&fe->ev);
	xt_decoder_init(&fe->dec, xt_events_add, &fe->ev);
	fe->dec.sched_only = true;
	fe->dec.want_infprev = estimate_hz;
	fe->ev.no_hz = !estimate_hz;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return xg_fail_errno(err, errno, "%s", path);
	struct stat st;
	int rc = 0;
	void *map = MAP_FAILED;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
		map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
	if (map != MAP_FAILED) {
		madvise(map, (size_t)st.st_size, MADV_SEQUENTIAL);
		fe->size = (uint64_t)st.st_size;
		rc = xt_decode_feed(&fe->dec, map, (size_t)st.st_size, &fe->err);
		munmap(map, (size_t)st.st_size);
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
	xt_decoder_free(&fe->dec);
	xt_events_free(&fe->ev);
}
