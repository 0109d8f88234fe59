// SPDX-License-Identifier: GPL-2.0-or-later
/* The theme's name as the view keeps it (--theme, the settings file's
 * theme key). What a theme looks like is the full-screen view's
 * (tui/tui_theme.c); here only what a name may be. */
#include "xgtop/view/view.h"

#include <string.h>

bool view_theme_name_ok(const char *name)
{
	size_t n = name ? strlen(name) : 0;
	if (!n || n >= sizeof(((struct xg_view *)0)->theme) || name[0] == '.')
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
		      c == '_' || c == '.'))
			return false;
	}
	return true;
}
