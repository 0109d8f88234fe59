// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer harness: names a guest or a VM's owner chooses (a domain or VM
 * name, a hypervisor or host string) on their way to a terminal. The first
 * byte is the column width the full-screen view fits the name into, the
 * second picks the locale (even: UTF-8, odd: C); the rest, up to a NUL as
 * the sources cut it, is the name. Checks, for xg_escape_name (text, CSV,
 * xentop, report and exporter outputs) and tui_name_fit (the screen):
 * what comes out is valid UTF-8 without a C0 or C1 control or DEL, so no
 * byte of it can start a terminal escape sequence; on screen it holds no
 * zero-width character (ASCII only in the C locale) and fits the width it
 * reports, which is at most the column's; and an escaped name that was not
 * cut reads back as the name (what the pool view undoes). */
#include "fuzz.h"

#include <locale.h>
#include <wchar.h>

#include "../../src/remote/remote_parts.h"
#include "../../src/tui/tui_state.h"

/* Checks out as described above; returns its width in cells. */
static int safe(const char *out, bool screen, bool utf8)
{
	const unsigned char *s = (const unsigned char *)out;
	int w = 0;
	while (*s) {
		uint32_t cp;
		size_t l = xg_utf8_decode(s, &cp);
		if (!l || cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
			abort();
		if (screen && l > 1) {
			int cw = utf8 ? wcwidth((wchar_t)cp) : -1;
			if (cw <= 0)
				abort();
			w += cw;
		} else {
			w++;
		}
		s += l;
	}
	return w;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *utf8_locale;
	static bool init;
	if (!init) {
		init = true;
		utf8_locale = setlocale(LC_CTYPE, "C.UTF-8") ? "C.UTF-8"
			    : setlocale(LC_CTYPE, "en_US.UTF-8") ? "en_US.UTF-8" : NULL;
	}
	if (size < 2)
		return 0;
	int maxw = data[0] % (TUI_NAME_MAX_W + 1);
	bool utf8 = utf8_locale && !(data[1] & 1);
	setlocale(LC_CTYPE, utf8 ? utf8_locale : "C");
	char *name = fz_cstr(data + 2, size - 2);
	if (strlen(name) >= XG_NAME_MAX)
		name[XG_NAME_MAX - 1] = 0;

	char esc[XG_NAME_MAX * 4 + 8], back[XG_NAME_MAX];
	xg_escape_name(esc, sizeof(esc), name);
	safe(esc, false, utf8);
	rm_unescape_name(back, sizeof(back), esc);
	if (strcmp(back, name))
		abort();   /* room for every byte as \xNN: never cut */

	char cell[TUI_CELL_BYTES];
	int w = tui_name_fit(cell, sizeof(cell), name, maxw);
	if (w > maxw || safe(cell, true, utf8) != w)
		abort();
	free(name);
	return 0;
}
