/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The `trace` subcommand, dispatched by main.c. */
#ifndef XGTOP_TRACE_CMD_H
#define XGTOP_TRACE_CMD_H

/* `xgtop trace FILE [--cpu-hz HZ] [-o text|csv|json] [--behind]
 * [--xenalyze-compat] [--threads N]`: argv[0] is "trace". Returns the exit
 * status. */
int trace_main(int argc, char **argv);

#endif
