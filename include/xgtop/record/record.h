/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Recordings: samples appended to a file as they are taken, read back by
 * the replay source. Format: see man/xgtop.1, section RECORDING FORMAT. */
#ifndef XGTOP_RECORD_H
#define XGTOP_RECORD_H

#include "xgtop/model/sample.h"

struct xg_recorder;
struct xg_reader;

/* Opens path for appending (creates it with a header if new or empty;
 * refuses a file that is not an xgtop recording). */
struct xg_recorder *recorder_open(const char *path, struct xg_err *err);
/* Appends one sample; durable up to the OS once this returns. Samples are
 * stored as differences, so prev must be the sample appended last by this
 * recorder, unchanged (NULL for the first), and not s. */
int recorder_append(struct xg_recorder *r, const struct xg_sample *prev, const struct xg_sample *s,
                    struct xg_err *err);
int recorder_close(struct xg_recorder *r, struct xg_err *err);

struct xg_reader *reader_open(const char *path, struct xg_err *err);
/* Reads the next sample into out. Samples are stored as differences, so
 * prev must be the sample this reader returned last, unchanged (NULL for
 * the first), and not out: keep two samples and alternate. Returns 0, 1 at
 * end of file (a torn tail is skipped and counted), or -1 with err naming
 * the file and offset. */
int reader_next(struct xg_reader *r, const struct xg_sample *prev, struct xg_sample *out,
                struct xg_err *err);
/* File offset of the gzip member the sample returned last came from. A
 * member's first sample is stored whole, so reading can start there. */
uint64_t reader_member_offset(const struct xg_reader *r);
/* Opens path to read from offset off, where a gzip member starts (an
 * offset reader_member_offset gave): a replay steps back this way. */
struct xg_reader *reader_open_at(const char *path, uint64_t off, struct xg_err *err);
/* Number of torn/incomplete trailing samples skipped so far. */
unsigned reader_torn(const struct xg_reader *r);
void reader_close(struct xg_reader *r);

#endif
