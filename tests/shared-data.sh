# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced with ROOT set (the top of the tree): sets SHARED_DATA to the
# shared data folder, ../shared/data beside the clone (XGTOP_SHARED_DATA
# overrides). A git worktree looks beside its main checkout, and a clone
# of a local checkout beside the checkout it was cloned from. Empty when
# none has it.
shared_data_find() {
	local top common origin
	for top in "$ROOT" \
		"$(common=$(git -C "$ROOT" rev-parse --path-format=absolute --git-common-dir 2>/dev/null) &&
		   dirname "$common")" \
		"$(origin=$(git -C "$ROOT" remote get-url origin 2>/dev/null) && [ -d "$origin" ] &&
		   common=$(git -C "$origin" rev-parse --path-format=absolute --git-common-dir 2>/dev/null) &&
		   dirname "$common")"; do
		[ -n "$top" ] && [ -d "$top/../shared/data" ] && { (cd "$top/../shared/data" && pwd); return; }
	done
}
SHARED_DATA=${XGTOP_SHARED_DATA:-$(shared_data_find)}
