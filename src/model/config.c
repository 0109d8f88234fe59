// SPDX-License-Identifier: GPL-2.0-or-later
#include "xgtop/model/config.h"

#include <string.h>

void config_defaults(struct xg_config *c)
{
	memset(c, 0, sizeof(*c));
	c->delay_s = 1.0;
	c->iterations = -1;
	c->output = XG_OUT_TEXT;
	c->source = "auto";
	c->speed = 1.0;
	c->window_s = 1.0;
	c->history = XG_HIST_DEFAULT;
}
