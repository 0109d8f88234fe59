/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Threshold rules: when a figure deserves a look (warn) or is past its
 * limit (crit). Data kept in the view: the TUI colours cells and meters by
 * them, the settings file changes them (threshold.KEY = WARN CRIT | off). */
#ifndef XGTOP_THRESHOLDS_H
#define XGTOP_THRESHOLDS_H

#include "xgtop/compute/metrics.h"

enum xg_level { XG_LEVEL_OK, XG_LEVEL_WARN, XG_LEVEL_CRIT };

enum xg_rule {
	XG_RULE_CPU,      /* CPU% as a share of what the vCPUs can use (VCPU x 100 %) */
	XG_RULE_WAIT,     /* WAIT%, and the host's waiting share */
	XG_RULE_HIT,      /* HIT% and HIT-GU% HIT-GK% HIT-H%: low is bad */
	XG_RULE_PCPU,     /* a pCPU's busy share (the meters) */
	XG_RULE_PSI,      /* CPU-P% MEM-P% IO-P%: a cgroup's stall share (Linux) */
	XG_RULE_COUNT
};

struct xg_rule_def {
	const char *key;      /* the settings key after "threshold." */
	bool below;           /* low values are bad: warn below warn, crit below crit */
	double warn, crit;    /* defaults */
	const char *help;     /* what is compared, for the docs and the help screen */
};
extern const struct xg_rule_def xg_rules[XG_RULE_COUNT];

struct xg_thresholds {
	bool off[XG_RULE_COUNT];
	double warn[XG_RULE_COUNT], crit[XG_RULE_COUNT];
};

void thresholds_defaults(struct xg_thresholds *t);
/* The level of value v under rule r: at or above warn / crit (below them
 * for a rule where low is bad). */
enum xg_level threshold_level(const struct xg_thresholds *t, enum xg_rule r, double v);
/* The level of column c in row r: OK when it has no rule or no value. */
enum xg_level threshold_cell(const struct xg_thresholds *t, const struct xg_row *r, enum xg_col c);
/* The rule with settings key key ("wait_pct"), or -1. */
int threshold_lookup(const char *key);
/* Sets rule r from "WARN CRIT" (numbers, in the rule's order) or "off".
 * On a bad value returns -1 with err set and leaves the rule as it was. */
int threshold_parse(struct xg_thresholds *t, enum xg_rule r, const char *value, struct xg_err *err);
/* Rule r as threshold_parse reads it ("10 25", "off"). */
void threshold_format(const struct xg_thresholds *t, enum xg_rule r, char *buf, size_t n);

#endif
