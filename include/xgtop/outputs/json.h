/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one JSON string writer, for every JSON producer (-o json and
 * `xgtop trace -o json`), so none of them can print invalid JSON. */
#ifndef XGTOP_JSON_H
#define XGTOP_JSON_H

#include <stdio.h>

/* Writes s (NULL reads as "") as a JSON string with its quotes: `"` and
 * `\` escaped, control characters (C0, DEL, C1) as \u00XX, and each byte
 * that is not part of valid UTF-8 as U+FFFD, so the result is always valid
 * JSON whatever the bytes (domain names, file names). */
void json_write_string(FILE *f, const char *s);

#endif
