// SPDX-License-Identifier: GPL-2.0-or-later
/* Threshold rules as data: which columns they judge, their defaults, and
 * the text form the settings file uses. */
#include "xgtop/view/thresholds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct xg_rule_def xg_rules[XG_RULE_COUNT] = {
	[XG_RULE_CPU] = { "cpu_pct", false, 80, 95,
		"CPU% as a share of what the domain's vCPUs can use (VCPU x 100 %; a vCPU row: 100 %)" },
	[XG_RULE_WAIT] = { "wait_pct", false, 10, 25,
		"WAIT%, and the host's waiting share in the meters" },
	[XG_RULE_HIT] = { "hit_pct", true, 50, 25,
		"HIT%, HIT-GU%, HIT-GK%, HIT-H%: low is bad" },
	[XG_RULE_PCPU] = { "pcpu_busy", false, 80, 95,
		"a pCPU's busy share in the meters" },
	[XG_RULE_PSI] = { "pressure_pct", false, 10, 25,
		"CPU-P%, MEM-P%, IO-P% and their full lines: the share of the interval a cgroup stalled" },
};

/* Column -> rule + 1 (0: none). */
static const unsigned char col_rule[XG_COL_COUNT] = {
	[XG_COL_CPU_PCT] = XG_RULE_CPU + 1,
	[XG_COL_WAIT] = XG_RULE_WAIT + 1,
	[XG_COL_HIT] = XG_RULE_HIT + 1,
	[XG_COL_HIT_GU] = XG_RULE_HIT + 1,
	[XG_COL_HIT_GK] = XG_RULE_HIT + 1,
	[XG_COL_HIT_H] = XG_RULE_HIT + 1,
	[XG_COL_CPU_PSI] = XG_RULE_PSI + 1,
	[XG_COL_MEM_PSI] = XG_RULE_PSI + 1,
	[XG_COL_IO_PSI] = XG_RULE_PSI + 1,
	[XG_COL_CPU_PSI_FULL] = XG_RULE_PSI + 1,
	[XG_COL_MEM_PSI_FULL] = XG_RULE_PSI + 1,
	[XG_COL_IO_PSI_FULL] = XG_RULE_PSI + 1,
};

void thresholds_defaults(struct xg_thresholds *t)
{
	for (int r = 0; r < XG_RULE_COUNT; r++) {
		t->off[r] = false;
		t->warn[r] = xg_rules[r].warn;
		t->crit[r] = xg_rules[r].crit;
	}
}

enum xg_level threshold_level(const struct xg_thresholds *t, enum xg_rule r, double v)
{
	if (t->off[r] || !isfinite(v))
		return XG_LEVEL_OK;
	if (xg_rules[r].below)
		return v < t->crit[r] ? XG_LEVEL_CRIT : v < t->warn[r] ? XG_LEVEL_WARN : XG_LEVEL_OK;
	return v >= t->crit[r] ? XG_LEVEL_CRIT : v >= t->warn[r] ? XG_LEVEL_WARN : XG_LEVEL_OK;
}

enum xg_level threshold_cell(const struct xg_thresholds *t, const struct xg_row *r, enum xg_col c)
{
	int rule = (int)col_rule[c] - 1;
	if (rule < 0 || !row_has(r, c))
		return XG_LEVEL_OK;
	double v = r->v[c];
	if (rule == XG_RULE_CPU && row_is_dom(r)) {
		/* 100 % is one pCPU: a domain can use 100 % per vCPU. */
		if (!row_has(r, XG_COL_VCPU) || r->v[XG_COL_VCPU] < 1)
			return XG_LEVEL_OK;
		v /= r->v[XG_COL_VCPU];
	}
	return threshold_level(t, (enum xg_rule)rule, v);
}

int threshold_lookup(const char *key)
{
	for (int r = 0; r < XG_RULE_COUNT; r++)
		if (!strcmp(key, xg_rules[r].key))
			return r;
	return -1;
}

static bool number(const char *s, const char **end, double *v)
{
	char *e;
	s += strspn(s, " \t");
	if (!*s)
		return false;
	*v = strtod(s, &e);
	*end = e;
	return e != s && isfinite(*v) && *v >= 0 && *v <= 1e6;
}

int threshold_parse(struct xg_thresholds *t, enum xg_rule r, const char *value, struct xg_err *err)
{
	const char *p = value + strspn(value, " \t");
	if (!strncmp(p, "off", 3) && !p[3 + strspn(p + 3, " \t")]) {
		t->off[r] = true;
		return 0;
	}
	double w, c;
	const char *e;
	if (!number(p, &e, &w) || !number(e, &e, &c) || e[strspn(e, " \t")])
		return xg_fail(err, "give two numbers from 0 (warn, then crit) or 'off'");
	if (xg_rules[r].below ? w < c : w > c)
		return xg_fail(err, "the warn level %g must be %s the crit level %g", w,
			       xg_rules[r].below ? "at or above" : "at or below", c);
	t->off[r] = false;
	t->warn[r] = w;
	t->crit[r] = c;
	return 0;
}

void threshold_format(const struct xg_thresholds *t, enum xg_rule r, char *buf, size_t n)
{
	if (t->off[r])
		snprintf(buf, n, "off");
	else
		snprintf(buf, n, "%g %g", t->warn[r], t->crit[r]);
}
