# SPDX-License-Identifier: GPL-2.0-or-later
"""Whom the lab's spinners waited behind (issue 20), judged for
check_sched.py: live (the batch rows' behind/behind_pct and --explain's
ranked lists, which the detail pane shows too) against `xgtop trace
--behind` of the xentrace capture of the same workload, and that capture
against the independent reference (tests/trace/behind_reference.py).

The third spinner, xg-spin3, is never pinned: it may run on pCPU 0 beside
dom0 (pinned there) or on pCPU 1 beside the pinned pair. It waits behind
"nobody in particular" when no culprit has THIRD_TOP_MAX % or more of its
WAIT and at least two have more than THIRD_PART_MIN % each."""
import csv
import io
import json
import os
import re
import subprocess
import sys

THIRD = "xg-spin3"
THIRD_TOP_MAX = 70.0
THIRD_PART_MIN = 10.0
# Live and trace windows differ (the view's last 2 s while xgtop runs in
# dom0, the capture's 5 s while xentrace does): the top culprit's shares
# may differ by this much.
AGREE_PCT = 20.0


def explain_lists(text, name):
    """--explain's Behind section -> {"in the interval"|"since the source
    began": (wait_s, [(culprit, pct, s), ...])} of the domain NAME."""
    out, mine = {}, False
    for line in (text or "").splitlines():
        m = re.match(r"  (\d+) (.*)$", line)
        if m:
            mine = m.group(2) == name
            continue
        m = re.match(r"      (in the interval|since the source began): WAIT ([\d.]+) s: (.*)$", line)
        if mine and m:
            parts = [re.match(r"(.+) ([\d.]+) % ([\d.]+) s$", p) for p in m.group(3).split(", ")]
            out[m.group(1)] = (float(m.group(2)),
                               [(p.group(1), float(p.group(2)), float(p.group(3))) for p in parts if p])
    return out


def spread(parts):
    """[(culprit, pct), ...] -> (top culprit, its pct, culprits above THIRD_PART_MIN)."""
    parts = sorted(parts, key=lambda p: -p[1])
    if not parts:
        return None, 0.0, []
    return parts[0][0], parts[0][1], [c for c, p in parts if p > THIRD_PART_MIN]


def nobody_in_particular(parts):
    top, pct, many = spread(parts)
    return top is not None and pct < THIRD_TOP_MAX and len(many) >= 2


def fmt(parts):
    return ", ".join("%s %.1f %%" % (c, p) for c, p in sorted(parts, key=lambda p: -p[1]))


def trace_behind(xgtrace, hz, lab, res):
    """`xgtop trace --behind` of the capture as CSV and JSON files in res;
    (csv path, json path, {domid: domain object}) or an error line."""
    paths = {}
    for fmt_ in ("csv", "json"):
        p = subprocess.run(xgtrace + ["--cpu-hz", hz, "--behind", "-o", fmt_, lab], capture_output=True, text=True)
        if p.returncode != 0:
            return "xgtop trace --behind -o %s: rc=%d %s" % (fmt_, p.returncode, p.stderr[:200])
        paths[fmt_] = os.path.join(res, "lab-behind." + fmt_)
        open(paths[fmt_], "w").write(p.stdout)
    doms = {d["domid"]: d for d in json.load(open(paths["json"]))["domains"]}
    return paths["csv"], paths["json"], doms


def judge(J, live_rows, read, xgtrace, hz, lab, res, repo, third):
    """live_rows: {name: batch row of the view's last refresh}; third:
    whether the run had the third spinner (the full suite)."""
    check = J.check
    ids = {n: r.get("id") for n, r in live_rows.items() if r}
    names = {i: n for n, i in ids.items()}

    def named(culprit):
        return names.get(culprit, culprit if not culprit.isdigit() else "d" + culprit)

    t = trace_behind(xgtrace, hz, lab, res) if hz else "no capture"
    if isinstance(t, str):
        check("behind-trace", False, t)
        return
    csv_path, json_path, doms = t
    # The capture against the reference: every (domid, vcpu, behind)
    # within 0.5 % or 1 ms, parts adding up to WAIT, the complete waits.
    p = subprocess.run([sys.executable, os.path.join(repo, "tests/trace/behind_reference.py"), lab, hz,
                        "--compare", csv_path, json_path], capture_output=True, text=True)
    lines = (p.stdout + p.stderr).strip().splitlines() or ["no output"]
    check("behind-reference-lab-capture", p.returncode == 0,
          " | ".join(l for l in lines if l.startswith("MISMATCH"))[:300] or lines[-1][:300])

    def trace_parts(name):
        d = doms.get(int(ids[name])) if ids.get(name) is not None else None
        if not d:
            return None, None
        return d, [(named(b["behind"]), b["share_pct"]) for b in d.get("behind", [])]

    # The pinned pair in the capture, as live (check_sched.py's shared-*).
    for n, other in (("xg-spin1", "xg-spin2"), ("xg-spin2", "xg-spin1")):
        d, parts = trace_parts(n)
        top, pct, _ = spread(parts or [])
        check("trace-%s-behind-%s" % (n, other), top == other and pct >= 90,
              fmt(parts) if parts else "%s not in the capture" % n)

    if not third:
        print("INFO the dom0 suite runs no third spinner: its checks are the full suite's")
        return
    r = live_rows.get(THIRD)
    lbeh = (r or {}).get("behind")
    try:
        lpct = float((r or {}).get("behind_pct"))
    except (TypeError, ValueError):
        lpct = None
    ok = r is not None and bool(lbeh) and lpct is not None and lpct < THIRD_TOP_MAX
    check("third-live-behind-nobody", ok, "behind=%r behind_pct=%r (want < %.0f %%); %s" % (
        lbeh, lpct, THIRD_TOP_MAX, (read("sched-shared.err") or "")[:200] if r is None else "run=%s wait=%s" % (
            r.get("run_pct"), r.get("wait_pct"))))
    lists = explain_lists(read("sched-explain.out"), THIRD)
    since = lists.get("since the source began")
    if since:
        wait, parts = since
        tot = sum(s for _, _, s in parts)
        # Printed to the µs each: the sum may be off by half a µs per part.
        check("third-live-parts-add-up", abs(tot - wait) <= 0.5e-6 * len(parts) + 1e-9,
              "WAIT %.6f s, parts %.6f s: %s" % (wait, tot, fmt([(c, p) for c, p, _ in parts])))
        check("third-live-spread", nobody_in_particular([(c, p) for c, p, _ in parts]),
              "since xgtop began: %s (want top < %.0f %%, two or more > %.0f %%)" % (
                  fmt([(c, p) for c, p, _ in parts]), THIRD_TOP_MAX, THIRD_PART_MIN))
    else:
        check("third-live-parts-add-up", False, "no ranked list of %s in --explain: %s" % (
            THIRD, (read("sched-explain.err") or read("sched-explain.out") or "no output")[:200]))
    d, parts = trace_parts(THIRD)
    if d is None:
        check("third-trace-spread", False, "%s (d%s) not in the capture" % (THIRD, ids.get(THIRD)))
        return
    ns = [round(b["wait_s"] * 1e9) for b in d["behind"]]
    check("third-trace-parts-add-up", sum(ns) == round(d["runnable_s"] * 1e9),
          "WAIT %d ns, parts %d ns" % (round(d["runnable_s"] * 1e9), sum(ns)))
    check("third-trace-spread", nobody_in_particular(parts), "%s (want top < %.0f %%, two or more > %.0f %%)" % (
        fmt(parts), THIRD_TOP_MAX, THIRD_PART_MIN))
    ttop, tpct, _ = spread(parts)
    print("INFO %s: live BEHIND %s %s %%; capture %s" % (THIRD, lbeh, lpct, fmt(parts)))
    check("third-live-agrees-with-trace", lpct is not None and abs(lpct - tpct) <= AGREE_PCT,
          "live top %s %.1f %%, capture top %s %.1f %% (within %.0f points)" % (
              lbeh, lpct or 0, ttop, tpct, AGREE_PCT))
