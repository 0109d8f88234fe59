/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `xgtop report --source prometheus URL`, for report_cmd.c. */
#ifndef XGTOP_APP_REPORT_PROM_H
#define XGTOP_APP_REPORT_PROM_H

#include "report_args.h"

/* Writes the server's summary of the period to standard output. 0, -1
 * with err, or -2 with err for a bad TIME (a usage error). */
int report_prom(const struct report_opts *o, struct xg_err *err);

#endif
