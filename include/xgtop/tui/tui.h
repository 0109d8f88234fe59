/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The full-screen monitor (ncursesw). */
#ifndef XGTOP_TUI_H
#define XGTOP_TUI_H

#include <stdio.h>

#include "xgtop/engine/engine.h"

/* Runs the interactive loop on an opened engine until `q` or a terminating
 * signal. Restores the terminal on every exit path. Returns the exit status
 * (0, or 1 with err set). */
int tui_run(struct xg_engine *e, struct xg_err *err);

/* Prints the Keys list of --help from the key table the monitor uses. */
void tui_keys_usage(FILE *f);

#endif
