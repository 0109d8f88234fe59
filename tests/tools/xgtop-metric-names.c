// SPDX-License-Identifier: GPL-2.0-or-later
/* xgtop-metric-names: prints every metric family the exporter can publish,
 * one per line, as its samples are named (NAME_total for counters,
 * NAME_info for infos), for the documentation tests. With --fields: one
 * line per sample field, "field<TAB>sample name<TAB>label<TAB>decimals<TAB>
 * inf_at_max", for tests that compare a scrape with a recording. */
#include <stdio.h>
#include <string.h>

#include "xgtop/model/metric_defs.h"

static const char *sample_name(const struct xg_metric *m)
{
	static char buf[128];
	snprintf(buf, sizeof(buf), "%s%s", m->name,
		 m->type == XG_MT_COUNTER ? "_total" : m->type == XG_MT_INFO ? "_info" : "");
	return buf;
}

static void put(const struct xg_metric *m, const char **last)
{
	if (*last && !strcmp(*last, m->name))
		return;
	*last = m->name;
	if (m->type == XG_MT_HISTOGRAM) {
		printf("%s_bucket\n%s_sum\n%s_count\n", m->name, m->name, m->name);
		return;
	}
	printf("%s\n", sample_name(m));
}

int main(int argc, char **argv)
{
	const char *last = NULL;
	if (argc > 1 && !strcmp(argv[1], "--fields")) {
		for (int f = 0; f < XG_F_COUNT; f++) {
			const struct xg_metric *m = &xg_field_metric[f];
			printf("%s\t%s\t%s\t%u\t%d\n", field_name((enum xg_field)f), sample_name(m),
			       m->label ? m->label : "", m->decimals, m->inf_at_max);
		}
		return 0;
	}
	for (int f = 0; f < XG_MF_COUNT; f++)
		put(&xg_fixed_metric[f], &last);
	for (int f = 0; f < XG_F_COUNT; f++)
		put(&xg_field_metric[f], &last);
	for (int e = 0; e < XG_PMU_EVENT_COUNT; e++)
		for (int w = 0; w < XG_PMU_WHERE_COUNT; w++)
			put(&xg_pmu_metric[w][e], &last);
	return 0;
}
