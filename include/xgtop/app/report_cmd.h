/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `xgtop report`, called from main.c. */
#ifndef XGTOP_REPORT_CMD_H
#define XGTOP_REPORT_CMD_H

/* argv[0] is "report". Returns the exit status. */
int report_main(int argc, char **argv);

#endif
