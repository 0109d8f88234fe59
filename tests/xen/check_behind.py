# SPDX-License-Identifier: GPL-2.0-or-later
"""Whom the lab's spinners waited behind (issue 20), judged for
check_sched.py: `xgtop trace --behind` of the xentrace captures against
the independent reference (tests/trace/behind_reference.py, every domain),
the pinned pair in the capture as live, and the third spinner live
(--explain's ranked lists, which the detail pane shows too) against its
own capture.

The third spinner, xg-spin3, is never pinned. It runs in a phase of its
own after the pair's, with xg-spin1 pinned to pCPU 0 (beside dom0) and
xg-spin2 to pCPU 1: credit2 (one runqueue over both pCPUs here) shares
that runqueue by credit, so xg-spin3 runs on both pCPUs, and each of its
waits, which belongs to the pCPU it ran on next, is behind xg-spin1 (or
dom0) on pCPU 0 and behind xg-spin2 on pCPU 1 (doc/trace-live.md, with a
lab run's figures). A pinned vCPU has one culprit for >= 90 %.
"Nobody in particular": no culprit has THIRD_TOP_MAX % or more of its WAIT,
and at least two have more than THIRD_PART_MIN %."""
import json
import os
import re
import subprocess
import sys

THIRD = "xg-spin3"
THIRD_TOP_MAX = 70.0
THIRD_PART_MIN = 10.0
# Live and capture cannot be the same seconds (one consumer of the trace
# buffers at a time), and xgtop itself is dom0 load that xentrace is not.
# The top culprit's shares may differ by AGREE_PCT points, and the
# culprits above THIRD_PART_MIN % of both must have two in common.
AGREE_PCT = 25.0


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


def trace_behind(xgtrace, hz, lab, res, stem):
    """`xgtop trace --behind` of a capture as CSV and JSON files in res;
    (csv path, json path, {domid: domain object}) or an error line."""
    paths = {}
    for fmt_ in ("csv", "json"):
        p = subprocess.run(xgtrace + ["--cpu-hz", hz, "--behind", "-o", fmt_, lab], capture_output=True, text=True)
        if p.returncode != 0:
            return "xgtop trace --behind -o %s %s: rc=%d %s" % (fmt_, lab, p.returncode, p.stderr[:200])
        paths[fmt_] = os.path.join(res, stem + "-behind." + fmt_)
        open(paths[fmt_], "w").write(p.stdout)
    doms = {d["domid"]: d for d in json.load(open(paths["json"]))["domains"]}
    return paths["csv"], paths["json"], doms


def capture(J, xgtrace, hz, res, repo, stem):
    """A capture's domains by id, after checking it against the reference
    (every (domid, vcpu, behind) within 0.5 % or 1 ms, parts adding up to
    WAIT, the complete waits); None when it could not be read."""
    lab = os.path.join(res, stem + ".xt")
    if not hz or not os.path.exists(lab):
        J.check("behind-reference-" + stem, False, "no capture %s.xt" % stem)
        return None
    t = trace_behind(xgtrace, hz, lab, res, stem)
    if isinstance(t, str):
        J.check("behind-reference-" + stem, False, t)
        return None
    p = subprocess.run([sys.executable, os.path.join(repo, "tests/trace/behind_reference.py"), lab, hz,
                        "--compare", t[0], t[1]], capture_output=True, text=True)
    lines = (p.stdout + p.stderr).strip().splitlines() or ["no output"]
    J.check("behind-reference-" + stem, p.returncode == 0,
            " | ".join(l for l in lines if l.startswith("MISMATCH"))[:300] or lines[-1][:300])
    return t[2]


def judge(J, live_rows, read, xgtrace, hz, res, repo, third):
    """live_rows: {name: batch row} of the pair's last live refresh;
    third: whether the run had the third spinner (the full suite)."""
    check = J.check
    ids = {n: r.get("id") for n, r in live_rows.items() if r}

    def parts_of(doms, name):
        names = {str(i): n for n, i in ids.items()}
        d = doms.get(int(ids[name])) if doms and ids.get(name) is not None else None
        if not d:
            return None, None
        return d, [(names.get(b["behind"], b["behind"]), b["share_pct"]) for b in d.get("behind", [])]

    # The pinned pair in its capture, as live (check_sched.py's shared-*).
    doms = capture(J, xgtrace, hz, res, repo, "lab")
    for n, other in (("xg-spin1", "xg-spin2"), ("xg-spin2", "xg-spin1")):
        _, parts = parts_of(doms, n)
        top, pct, _ = spread(parts or [])
        check("trace-%s-behind-%s" % (n, other), top == other and pct >= 90,
              fmt(parts) if parts else "%s not in the capture" % n)
    if not third:
        print("INFO the dom0 suite runs no third spinner: its checks are the full suite's")
        return

    # The third spinner live: the ranked lists of --explain.
    text = read("sched-three.out")
    for m in re.finditer(r"^  (\d+) (.*)$", text or "", re.M):
        ids[m.group(2)] = m.group(1)
    lists = explain_lists(text, THIRD)
    now, since = lists.get("in the interval"), lists.get("since the source began")
    if not now or not since:
        check("third-live", False, "no ranked lists of %s in --explain: %s" % (
            THIRD, (read("sched-three.err") or text or "no output")[:200]))
        return
    for what, (wait, parts) in (("interval", now), ("since-start", since)):
        tot = sum(s for _, _, s in parts)
        # Printed to the us each: the sum may be off by half a us per part.
        check("third-live-%s-parts-add-up" % what, abs(tot - wait) <= 0.5e-6 * len(parts) + 1e-9,
              "WAIT %.6f s, parts %.6f s" % (wait, tot))
    lparts = [(c, p) for c, p, _ in since[1] if c != "other"]
    check("third-live-nobody-in-particular", nobody_in_particular(lparts),
          "since xgtop began: %s (want top < %.0f %%, two or more > %.0f %%); BEHIND in its last interval: %s" % (
              fmt(lparts), THIRD_TOP_MAX, THIRD_PART_MIN, fmt([(c, p) for c, p, _ in now[1][:1]])))

    # ... and in its capture.
    doms3 = capture(J, xgtrace, hz, res, repo, "lab3")
    d, tparts = parts_of(doms3, THIRD)
    if d is None:
        check("third-trace", False, "%s (d%s) not in the capture lab3.xt" % (THIRD, ids.get(THIRD)))
        return
    ns = [round(b["wait_s"] * 1e9) for b in d["behind"]]
    check("third-trace-parts-add-up", sum(ns) == round(d["runnable_s"] * 1e9),
          "WAIT %d ns, parts %d ns" % (round(d["runnable_s"] * 1e9), sum(ns)))
    check("third-trace-nobody-in-particular", nobody_in_particular(tparts),
          "%s (want top < %.0f %%, two or more > %.0f %%)" % (fmt(tparts), THIRD_TOP_MAX, THIRD_PART_MIN))
    ltop, lpct, lmany = spread(lparts)
    ttop, tpct, tmany = spread(tparts)
    print("INFO %s: WAIT live %.3f s behind %s; capture %.3f s behind %s" % (
        THIRD, since[0], fmt(lparts), d["runnable_s"], fmt(tparts)))
    common = set(lmany) & set(tmany)
    check("third-live-agrees-with-trace", abs(lpct - tpct) <= AGREE_PCT and len(common) >= 2,
          "top live %s %.1f %%, capture %s %.1f %% (within %.0f points); above %.0f %% in both: %s" % (
              ltop, lpct, ttop, tpct, AGREE_PCT, THIRD_PART_MIN, ", ".join(sorted(common)) or "none"))
