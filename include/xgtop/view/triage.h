/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The triage line: what is wrong on this host now, in one line, from the
 * figures of the current table and the threshold rules (thresholds.h):
 * CPU (the domain that waits most, how many vCPUs want the pCPUs, whom it
 * waits behind), memory and I/O pressure (Linux), cache victims and their
 * suspects (compute/suspects.h). "nothing stands out" when no figure passes
 * its rule's warn level. --explain prints the numbers behind each part. */
#ifndef XGTOP_TRIAGE_H
#define XGTOP_TRIAGE_H

#include "xgtop/compute/suspects.h"
#include "xgtop/view/view.h"

enum xg_triage_part { XG_TRI_CPU, XG_TRI_MEM, XG_TRI_IO, XG_TRI_CACHE, XG_TRI_COUNT };

struct xg_triage {
	bool hit[XG_TRI_COUNT];          /* the part passed its rule */
	char text[XG_TRI_COUNT][512];    /* its words in the line (when hit) */
	char why[XG_TRI_COUNT][512];     /* the numbers behind it, hit or not */
	char line[640];                  /* the parts that passed, or "nothing stands out" */
};

/* Judges the domain rows of t (every domain, whatever the filter) under
 * v's thresholds; s (NULL: not judged) gives the cache victims. Computes
 * the columns it reads that t deferred. */
void triage_compute(struct xg_triage *tr, struct xg_table *t, const struct xg_view *v,
		    const struct xg_suspects *s);

#endif
