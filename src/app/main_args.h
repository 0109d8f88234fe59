/* SPDX-License-Identifier: GPL-2.0-or-later */
/* xgtop's command line, parsed for main.c (and the argument fuzzer). */
#ifndef XGTOP_APP_MAIN_ARGS_H
#define XGTOP_APP_MAIN_ARGS_H

#include "xgtop/model/config.h"

/* Parses argv into cfg (which the caller filled with config_defaults) and
 * *explain, and checks what the options say together. Returns 0 to go on, or the
 * exit status + 1: 1 after --help, --version or --list-columns printed,
 * 3 after a usage error was said on standard error. Starts getopt where
 * optind is. */
int app_parse_args(int argc, char **argv, struct xg_config *cfg, bool *explain);

#endif
