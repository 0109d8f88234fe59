#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_promsrc_screen.sh against VictoriaMetrics: the rows on screen in
# the query's selectors, the bytes per refresh below batch mode's, every
# figure of the rows on screen and of rows scrolled into view.
SERVER=victoria exec "$(dirname "$0")/test_promsrc_screen.sh"
