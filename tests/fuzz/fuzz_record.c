// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer harness for the recording reader. The first input byte picks
 * the layer: odd = the bytes are the file itself (gzip framing, torn
 * tails); even = the bytes are the decompressed text, gzipped here, so the
 * line parser is reached (built with FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
 * the reader skips the per-sample CRC the fuzzer cannot compute).
 * Build and run: tests/fuzz/run_record.sh (FUZZ_SECONDS=60). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "xgtop/record/record.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	if (!size)
		return 0;
	char path[] = "/tmp/xgtop-fuzz-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return 0;
	close(fd);
	if (data[0] & 1) {
		FILE *f = fopen(path, "wb");
		fwrite(data + 1, 1, size - 1, f);
		fclose(f);
	} else {
		gzFile g = gzopen(path, "wb1");
		gzwrite(g, data + 1, (unsigned)(size - 1));
		gzclose(g);
	}
	struct xg_err err;
	struct xg_reader *r = reader_open(path, &err);
	if (r) {
		struct xg_sample s[2];
		sample_init(&s[0]);
		sample_init(&s[1]);
		for (int i = 0; i < 1000 && reader_next(r, i ? &s[(i - 1) & 1] : NULL, &s[i & 1], &err) == 0; i++)
			for (size_t d = 0; d < s[i & 1].ndom; d++)
				(void)dom_why(&s[i & 1], &s[i & 1].dom[d], XG_F_CPU_NS);
		sample_free(&s[0]);
		sample_free(&s[1]);
		reader_close(r);
	}
	unlink(path);
	return 0;
}
