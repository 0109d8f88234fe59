# SPDX-License-Identifier: GPL-2.0-or-later
"""Judges what cmt-agent-dom0.sh left in the lab's results: CMT/MBM on a Xen
without psr=cmt (the unsupported path, for real) and guest-reported counters
from `xgtop --agent` in a domU. Called from check.py: run(check, read, rc_of).
Missing results are failures, never skips."""
import re

import labcheck

AGENT = "xg-new"   # the lifecycle guest boots with the agent (cmt-agent-mkinitrd.sh)
CMT_WHY = "CMT not supported by this CPU/Xen: xc_psr_cmt_enabled = 0 (boot Xen with psr=cmt)"


def iterations(text):
    its, bad = labcheck.json_lines(text)
    return [] if bad else its


dom, why = labcheck.domain, labcheck.why_of


def xs_values(text):
    """xenstore-ls output -> {key: value}."""
    vals = {}
    for line in (text or "").splitlines():
        m = re.match(r'\s*(\S+)\s*=\s*"(.*)"\s*$', line)
        if m:
            vals[m.group(1)] = m.group(2)
    return vals


def run(check, read, rc_of):
    its = iterations(read("agent-json.out"))
    # CMT: every domain's L3-OCC and MEM-BW are null with the reason.
    doms = [d for it in its for d in it.get("domains", [])]
    bad = [d.get("name") for d in doms
           if d.get("l3_occ_bytes") is not None or d.get("mem_bw_bps") is not None
           or why(d, "l3_occ_bytes") != CMT_WHY or why(d, "mem_bw_bps") != CMT_WHY]
    check("cmt-unsupported-says-why", bool(doms) and not bad,
          "rc=%s iterations=%d wrong: %s; why=%r" % (rc_of("agent-json"), len(its), bad[:4],
                                                     why(doms[0] if doms else None, "l3_occ_bytes")))
    err = read("cmt-attach.err") or ""
    check("cmt-attach-refused-nothing-attached",
          rc_of("cmt-attach") == 1 and "--cmt-attach: " + CMT_WHY + ": nothing attached" in err
          and not (read("cmt-attach.out") or "").strip(),
          "rc=%s err=%r" % (rc_of("cmt-attach"), err.strip()[:200]))
    # xl agrees that this Xen has no CMT (so nothing can be attached).
    check("cmt-xl-agrees", rc_of("cmt-show") not in (None, 0),
          "xl psr-cmt-show rc=%s: %s" % (rc_of("cmt-show"), (read("cmt-show.err") or "").strip()[:120]))

    con = read("agent-console.log") or ""
    m = re.search(r"XGAGENT-DEFAULT: (.*)", con)
    check("agent-no-pmu-says-why", bool(m) and "no event can be counted" in m.group(1),
          m.group(1)[:200] if m else "no XGAGENT-DEFAULT line on the guest console")
    ls1, ls2 = xs_values(read("agent-ls1.out")), xs_values(read("agent-ls2.out"))
    check("agent-publishes", ls1.get("version") == "1" and ls1.get("llc_ref", "").isdigit()
          and ls1.get("llc_miss", "").isdigit() and "interval_ms" in ls1 and "epoch" in ls1,
          "keys: %s" % sorted(ls1))
    try:
        rising = int(ls2["llc_ref"]) > int(ls1["llc_ref"]) and int(ls2["llc_miss"]) > int(ls1["llc_miss"])
    except (KeyError, ValueError):
        rising = False
    check("agent-xenstore-values-rise", rising,
          "llc_ref %s -> %s, llc_miss %s -> %s" % (ls1.get("llc_ref"), ls2.get("llc_ref"),
                                                   ls1.get("llc_miss"), ls2.get("llc_miss")))
    rows = [dom(it, AGENT) for it in its]
    rates = [(r or {}).get("llc_ref_ps") for r in rows]
    miss = [(r or {}).get("llc_miss_ps") for r in rows]
    ok = len(its) == 3 and all(isinstance(x, (int, float)) and 0 < x < 1e8 for x in rates + miss)
    check("agent-dom0-shows-guest-values", ok, "page-faults/s %s, context-switches/s %s" % (rates, miss))
    if ok:
        print("INFO guest-reported in dom0: page faults/s %s, context switches/s %s" % (rates, miss))
    d0 = dom(its[-1], "Domain-0") if its else None
    check("agent-none-elsewhere-says-why", d0 is not None and d0.get("llc_ref_ps") is None
          and "run xgtop --agent in the guest" in why(d0, "llc_ref_ps"), why(d0, "llc_ref_ps"))

    b = iterations(read("agent-bad.out"))
    r = dom(b[-1], AGENT) if b else None
    check("agent-garbage-rejected", r is not None and r.get("llc_ref_ps") is None
          and r.get("llc_miss_ps") is None and "not a decimal number" in why(r, "llc_ref_ps"),
          "rc=%s why=%r" % (rc_of("agent-bad"), why(r, "llc_ref_ps")))
    st = iterations(read("agent-stale.out"))
    r = dom(st[-1], AGENT) if st else None
    check("agent-stale-says-so", r is not None and r.get("llc_ref_ps") is None
          and "stopped updating" in why(r, "llc_ref_ps"),
          "rc=%s iterations=%d why=%r" % (rc_of("agent-stale"), len(st), why(r, "llc_ref_ps")))
