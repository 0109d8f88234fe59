// SPDX-License-Identifier: GPL-2.0-or-later
/* Batch output: picks the writer for the chosen format and keeps what must
 * stay the same from one iteration to the next (CSV header, field set). */
#include "xgtop/outputs/output.h"
#include "xgtop/outputs/output_xentop.h"
#include "output_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Weak until the xentop layout (src/sink_xentop.c) is built in: the
 * program then still links, and -o xentop says what is missing. Unit tests
 * that link the archive never pull the xentop module in through this. */
#pragma weak sink_xentop_write

struct xg_sink {
	enum xg_output fmt;
	FILE *f;
	unsigned long iter;
	struct sink_cols cols;
};

struct xg_sink *sink_open(enum xg_output fmt, FILE *f)
{
	struct xg_sink *s = xg_calloc(1, sizeof(*s));
	s->fmt = fmt;
	s->f = f;
	return s;
}

int sink_write(struct xg_sink *s, const struct xg_table *t, const struct xg_view *v,
	       struct xg_err *err)
{
	bool first = s->iter == 0;
	int rc;

	if (first)
		sink_cols_from_view(&s->cols, v);
	switch (s->fmt) {
	case XG_OUT_TEXT:
		rc = sink_text_write(s->f, t, v, first, err);
		break;
	case XG_OUT_CSV:
		rc = sink_csv_write(s->f, &s->cols, first, t, v, err);
		break;
	case XG_OUT_JSON:
		rc = sink_json_write(s->f, &s->cols, t, v, err);
		break;
	case XG_OUT_XENTOP:
		if (!sink_xentop_write)
			return xg_fail(err, "the xentop output format is not built into this xgtop");
		rc = sink_xentop_write(s->f, t, v, err);
		break;
	default:
		return xg_fail(err, "unknown output format %d", (int)s->fmt);
	}
	if (rc == 0)
		s->iter++;
	return rc;
}

void sink_close(struct xg_sink *s)
{
	free(s);
}

void sink_cols_from_view(struct sink_cols *sc, const struct xg_view *v)
{
	sc->n = 0;
	/* Table order and the group toggles only: the column chooser is for
	 * people, scripts keep their fields. */
	for (int c = 0; c < XG_COL_COUNT; c++)
		if (view_group_visible(v, (enum xg_col)c))
			sc->c[sc->n++] = (enum xg_col)c;
	sc->vcpus = v->show_vcpus;
	sc->socks = view_socket_rows(v);
}

void sink_time_iso(char *buf, size_t n, uint64_t real_ns)
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

bool sink_raw_number(enum xg_col c, const struct xg_row *r, char *buf, size_t n)
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

int sink_flush(FILE *f, struct xg_err *err)
{
	errno = 0;
	if (fflush(f) != 0 || ferror(f))
		return xg_fail_errno(err, errno ? errno : EIO, "cannot write the output");
	return 0;
}
