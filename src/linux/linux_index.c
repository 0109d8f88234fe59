// SPDX-License-Identifier: GPL-2.0-or-later
/* An open-addressing map from a pid/tid/domain id to an array index. It is
 * rebuilt on every refresh instead of supporting deletion, which keeps it
 * tiny and lets exited tasks vanish for free. */
#include "linux_text.h"

#include <stdlib.h>
#include <string.h>

void lx_index_reset(struct lx_index *x, size_t n)
{
	size_t want = 64;
	while (want < 2 * n + 2)
		want *= 2;
	if (want > x->cap) {
		free(x->slot);
		x->slot = xg_malloc(want * sizeof(*x->slot));
		x->cap = want;
	}
	memset(x->slot, 0, x->cap * sizeof(*x->slot));
}

static size_t hash(uint32_t k, size_t cap)
{
	return (size_t)((k * 2654435761u) & (cap - 1));
}

void lx_index_put(struct lx_index *x, uint32_t key, uint32_t idx)
{
	size_t m = x->cap - 1, h = hash(key, x->cap);
	/* a full table drops the key: callers that overfill it fall back to
	 * a linear search */
	for (size_t n = 0; n < x->cap; n++, h = (h + 1) & m) {
		uint64_t s = x->slot[h];
		if (!s || (uint32_t)(s >> 32) == key) {
			x->slot[h] = (uint64_t)key << 32 | ((uint64_t)idx + 1);
			return;
		}
	}
}

int64_t lx_index_get(const struct lx_index *x, uint32_t key)
{
	if (!x->cap)
		return -1;
	size_t m = x->cap - 1, h = hash(key, x->cap);
	for (size_t n = 0; n < x->cap; n++, h = (h + 1) & m) {
		uint64_t s = x->slot[h];
		if (!s)
			return -1;
		if ((uint32_t)(s >> 32) == key)
			return (int64_t)(uint32_t)s - 1;
	}
	return -1;
}

void lx_index_free(struct lx_index *x)
{
	free(x->slot);
	x->slot = NULL;
	x->cap = 0;
}

void lx_gen_rotate(void *old, size_t *old_cap, size_t *nold, void *now, size_t *now_cap,
                   size_t *nnow, struct lx_index *idx, size_t size, size_t key_off)
{
	void **o = old, **w = now;
	void *t = *o;
	size_t tc = *old_cap;
	*o = *w;
	*old_cap = *now_cap;
	*nold = *nnow;
	*w = t;
	*now_cap = tc;
	*nnow = 0;
	lx_index_reset(idx, *nold);
	const unsigned char *p = *o;
	for (size_t i = 0; i < *nold; i++) {
		uint32_t key;
		memcpy(&key, p + i * size + key_off, sizeof(key));
		lx_index_put(idx, key, (uint32_t)i);
	}
}
