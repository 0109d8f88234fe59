// SPDX-License-Identifier: GPL-2.0-or-later
/* Runs a fuzz harness once on each file named on the command line, without
 * libFuzzer: linked with tests/fuzz/fuzz_NAME.c by any compiler, so the
 * inputs that once made a harness fail (tests/fuzz/regress) and the seeds
 * are checked by every `make check`, and on the sanitizer build by
 * `make SANITIZE=1 check`. A broken check aborts, as under libFuzzer. */
#include "fuzz.h"

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			perror(argv[i]);
			return 2;
		}
		uint8_t *buf = NULL;
		size_t n = 0, cap = 0;
		for (;;) {
			if (n == cap && !(buf = realloc(buf, cap = cap ? cap * 2 : 4096)))
				abort();
			size_t r = fread(buf + n, 1, cap - n, f);
			if (!r)
				break;
			n += r;
		}
		fclose(f);
		/* An exact copy: a read past the end is one past the block. */
		uint8_t *in = (uint8_t *)fz_dup(buf, n);
		LLVMFuzzerTestOneInput(in, n);
		free(in);
		free(buf);
	}
	return 0;
}
