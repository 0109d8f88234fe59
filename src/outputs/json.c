// SPDX-License-Identifier: GPL-2.0-or-later
/* The JSON string writer every JSON producer shares (see json.h). */
#include "xgtop/outputs/json.h"
#include "xgtop/core/common.h"

#include <stdint.h>

void json_write_string(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	const unsigned char *run = s;   /* bytes that go out as they are */
	fputc('"', f);
	while (*s) {
		uint32_t cp;
		size_t n = xg_utf8_decode(s, &cp);
		if (n && cp != '"' && cp != '\\' && cp >= 0x20 && cp != 0x7f &&
		    !(cp >= 0x80 && cp < 0xa0)) {
			s += n;
			continue;
		}
		fwrite(run, 1, (size_t)(s - run), f);
		if (!n)
			fputs("\xef\xbf\xbd", f);     /* U+FFFD for a stray byte */
		else if (cp == '"' || cp == '\\')
			fprintf(f, "\\%c", (int)cp);
		else
			fprintf(f, "\\u%04x", (unsigned)cp);  /* C0/C1 controls */
		s += n ? n : 1;
		run = s;
	}
	fwrite(run, 1, (size_t)(s - run), f);
	fputc('"', f);
}
