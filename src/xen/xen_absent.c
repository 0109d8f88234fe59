// SPDX-License-Identifier: GPL-2.0-or-later
/* The `xen` source of an xgtop built without the Xen libraries: the name
 * stays registered, so --source xen is understood and says what is
 * missing; --source auto never picks it. */
#ifndef HAVE_XEN
#include "xgtop/core/common.h"
#include "xgtop/xen/xen_source.h"

static bool xen_absent_probe(void)
{
	return false;
}

static int xen_absent_open(struct xg_source **out, const struct xg_config *cfg,
			   struct xg_err *err)
{
	(void)out;
	(void)cfg;
	return xg_fail(err, "--source xen: this xgtop was built without the Xen libraries "
		       "(install libxen-dev and rebuild)");
}

const struct xg_source_ops source_xen_ops = {
	.name = "xen",
	.probe = xen_absent_probe,
	.open = xen_absent_open,
};
#endif /* !HAVE_XEN */
