/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gcc 4.8 (the portable build's compiler) has the __atomic builtins but no
 * <stdatomic.h> and no _Atomic (both came with gcc 4.9). This stands in for
 * the part of C11's atomics the sources use, with the same sequentially
 * consistent ordering. On the portable include path only. */
#ifndef XG_PORTABLE_STDATOMIC_H
#define XG_PORTABLE_STDATOMIC_H
typedef unsigned int atomic_uint;
typedef int atomic_int;
typedef _Bool atomic_bool;
#define atomic_init(p, v) ((void)(*(p) = (v)))
#define atomic_load(p) __atomic_load_n((p), __ATOMIC_SEQ_CST)
#define atomic_store(p, v) __atomic_store_n((p), (v), __ATOMIC_SEQ_CST)
#define atomic_exchange(p, v) __atomic_exchange_n((p), (v), __ATOMIC_SEQ_CST)
#define atomic_fetch_add(p, v) __atomic_fetch_add((p), (v), __ATOMIC_SEQ_CST)
#define atomic_fetch_sub(p, v) __atomic_fetch_sub((p), (v), __ATOMIC_SEQ_CST)
#endif
