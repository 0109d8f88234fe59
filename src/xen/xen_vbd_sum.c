// SPDX-License-Identifier: GPL-2.0-or-later
/* The VBDs' counters summed into their domains: what the xen source does
 * with the VBD reader's list (apart so that a hostile or unreadable VBD's
 * effect on the sample is unit-tested). */
#include "xgtop/xen/xen_backends.h"

#include <stdio.h>

static const char *const type_name[] = {
	[XEN_VBD_UNKNOWN] = "vbd", [XEN_VBD_BLKBACK] = "vbd", [XEN_VBD_BLKTAP] = "tap",
	[XEN_VBD_TAPDISK3] = "vbd3",
};

void xen_vbd_sum(struct xg_sample *out, const struct xen_vbd *vbds, size_t n)
{
	static const enum xg_field counters[] = {
		XG_F_DISK_RD_OPS, XG_F_DISK_WR_OPS, XG_F_DISK_RD_BYTES, XG_F_DISK_WR_BYTES, XG_F_DISK_OO,
	};
	for (size_t i = 0; i < n; i++) {
		const struct xen_vbd *b = &vbds[i];
		struct xg_dom *d = sample_find(out, b->domid);
		if (!d)
			continue;
		d->v[XG_F_VBDS]++;
		if (!b->ok) {
			/* A partial sum would read as a real figure: the whole
			 * domain's disk counters go blank instead. */
			char why[96];
			const char *w = b->why;
			if (!*w) {
				snprintf(why, sizeof(why), "VBD %s-%u-%u statistics unreadable",
					 type_name[b->type], b->domid, b->dev);
				w = why;
			}
			for (size_t k = 0; k < XG_ARRAY_LEN(counters); k++)
				dom_invalid(out, d, counters[k], w);
			continue;
		}
		d->v[XG_F_DISK_OO] += b->oo_req;
		d->v[XG_F_DISK_RD_OPS] += b->rd_req;
		d->v[XG_F_DISK_WR_OPS] += b->wr_req;
		d->v[XG_F_DISK_RD_BYTES] += b->rd_sect * 512;
		d->v[XG_F_DISK_WR_BYTES] += b->wr_sect * 512;
	}
}
