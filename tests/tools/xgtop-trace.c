// SPDX-License-Identifier: GPL-2.0-or-later
/* Runs `xgtop trace` without the main program, for tests on branches
 * where main.c does not dispatch subcommands yet. */
#include "xgtop/app/trace_cmd.h"

int main(int argc, char **argv)
{
	return trace_main(argc, argv);
}
