// SPDX-License-Identifier: GPL-2.0-or-later
/* F3: find a domain by name without filtering (as htop's search): the
 * selection jumps to the next row below it whose name matches, round to
 * the top; the list keeps every row. The text stays for the next F3. */
#include "tui_state.h"

#include <regex.h>
#include <stdio.h>
#include <string.h>

/* The next domain row after the selection (from the top when none) whose
 * name matches re, or -1. */
static long next_match(const struct tui *t, const regex_t *re)
{
	const struct xg_view *v = &t->e->view;
	size_t n = v->norder, from = t->sel.on ? t->sel.pos + 1 : 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = (from + i) % n;
		const struct xg_row *r = &t->e->table.rows[v->order[k]];
		if (row_is_dom(r) && !regexec(re, r->name ? r->name : "", 0, NULL, 0))
			return (long)k;
	}
	return -1;
}

static unsigned find_done(struct tui *t, bool ok, const char *buf)
{
	if (!ok || !buf[0])
		return TUI_DONE;
	snprintf(t->find, sizeof(t->find), "%s", buf);
	regex_t re;
	int rc = regcomp(&re, buf, REG_EXTENDED | REG_ICASE | REG_NOSUB);
	if (rc) {
		char msg[128];
		regerror(rc, &re, msg, sizeof(msg));
		tui_set_msg(t, true, "bad search '%s': %s", buf, msg);
		return TUI_DONE;
	}
	long k = next_match(t, &re);
	regfree(&re);
	if (k < 0) {
		tui_set_msg(t, false, "no name matches /%s/ (F3 again to search anew)", buf);
		return TUI_DONE;
	}
	tui_sel_set(t, (size_t)k);
	tui_set_msg(t, false, "found /%s/ (F3 Enter: the next one)", buf);
	return TUI_DONE;
}

unsigned tui_act_find(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	tui_prompt_open(t, "Find name (regex, no filtering; Enter jumps): ", t->find, sizeof(t->find),
			find_done);
	return TUI_DONE;
}
