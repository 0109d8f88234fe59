// SPDX-License-Identifier: GPL-2.0-or-later
/* Helpers the batch formats share (see output_util.h). */
#include "output_util.h"
#include "xgtop/compute/cell.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <time.h>

void output_cols_from_view(struct output_cols *oc, const struct xg_view *v)
{
	oc->n = 0;
	/* Table order and the group toggles only: the column chooser is for
	 * people, scripts keep their fields. */
	for (int c = 0; c < XG_COL_COUNT; c++)
		if (view_group_visible(v, (enum xg_col)c) && col_has_value((enum xg_col)c))
			oc->c[oc->n++] = (enum xg_col)c;
	oc->vcpus = v->show_vcpus;
	oc->socks = view_socket_rows(v);
}

void output_time_iso(char *buf, size_t n, uint64_t real_ns)
{
	time_t sec = (time_t)(real_ns / 1000000000ull);
	unsigned ms = (unsigned)(real_ns % 1000000000ull / 1000000ull);
	struct tm tm;
	char day[32];

	if (!gmtime_r(&sec, &tm) || !strftime(day, sizeof(day), "%Y-%m-%dT%H:%M:%S", &tm)) {
		snprintf(buf, n, "1970-01-01T00:00:00.000Z");
		return;
	}
	snprintf(buf, n, "%s.%03uZ", day, ms);
}

/* JSON's number grammar; CSV readers accept the same strings. */
static bool number_ok(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		while (*s >= '0' && *s <= '9')
			s++;
	else
		return false;
	if (*s == '.') {
		s++;
		if (*s < '0' || *s > '9')
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (*s < '0' || *s > '9')
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return *s == 0;
}

bool output_raw_number(enum xg_col c, const struct xg_row *r, char *buf, size_t n)
{
	col_format_raw(c, r, buf, n);
	if (!buf[0])
		return false;
	/* A value that filled the buffer may have been cut: do not trust it. */
	if (strlen(buf) + 1 < n && number_ok(buf))
		return true;
	/* The formatter gave something a parser would choke on (nan, inf, a
	 * locale's decimal comma): fall back to the value itself, or to
	 * "not measured" when it is not a finite number. */
	if (row_has(r, c) && isfinite(r->v[c])) {
		int len = snprintf(buf, n, "%.17g", r->v[c]);
		if (len > 0 && (size_t)len < n && number_ok(buf))
			return true;
	}
	buf[0] = 0;
	return false;
}

int output_flush(FILE *f, struct xg_err *err)
{
	errno = 0;
	if (fflush(f) != 0 || ferror(f))
		return xg_fail_errno(err, errno ? errno : EIO, "cannot write the output");
	return 0;
}
