# SPDX-License-Identifier: GPL-2.0-or-later
"""Judges what dom0-trust.sh left in the lab's results: a hostile guest
(xg-hostile in xg-new) beside a well-behaved agent (dom0's), xenstored
stopped and resumed under a running xgtop, and the full-screen view and
the daemon ended by signals. Called from check.py: run(judge). Missing
results are failures, never skips."""
import re

import labcheck

HOSTILE = "xg-new"
GOOD = "Domain-0"          # runs xgtop --agent beside the hostile guest
NOAGENT = "run xgtop --agent in the guest"
# One bracket of reads is every key (10) plus time_ns again; three at most.
MAX_READS = 3 * 11
MAX_ANSWER = 4096          # xenstore's payload limit
# The run asks for a refresh every 0.5 s; under emulation one takes longer,
# and while xenstored is stopped it waits one answer (500 ms) more.
MAX_INTERVAL = 2.5
MAX_INTERVAL_XS = 3.0


iterations = labcheck.json_lines


def marks(text):
    """trust-marks.out -> [(name, first, last)]: the refreshes printed after
    the one under way when the phase began, up to its end (1-based)."""
    out, open_ = [], {}
    for line in (text or "").splitlines():
        f = line.split()
        if len(f) != 3 or not f[2].isdigit():
            continue
        if f[1] == "begin":
            open_[f[0]] = int(f[2])
        elif f[0] in open_:
            out.append((f[0], open_.pop(f[0]) + 2, int(f[2])))
    return out


def dom(it, name):
    return labcheck.domain(it, name)


def why(d, key="llc_ref_ps"):
    return labcheck.why_of(d, key)


def sane(v):
    return isinstance(v, (int, float)) and 0 <= v < 1e8


def figures(its):
    return [(dom(it, HOSTILE) or {}).get("llc_ref_ps") for it in its]


def reasons(its):
    return [why(dom(it, HOSTILE)) for it in its]


def phase_ok(name, its):
    """Whether the hostile guest's row in these refreshes is what the phase
    must give: figures, or `-` with the phase's reason."""
    vals, whys = figures(its), reasons(its)
    if not its:
        return False
    if name in ("good", "many", "escape"):
        # After a phase without figures, the first refresh has no baseline.
        return sane(vals[-1]) and all(v is None or sane(v) for v in vals)
    if name == "huge":
        return all(v is None and "version missing or not a number" in w for v, w in zip(vals, whys))
    if name == "malformed":
        return all(v is None and "not a decimal number" in w for v, w in zip(vals, whys))
    # churn and vanish: a consistent publication now and then is fine;
    # anything else is `-` with a reason, never a wild figure.
    allowed = ("changed during every read", NOAGENT, "missing or not a number", "rejected",
               "restarted or its counters went back")
    ok = all(sane(v) if v is not None else any(a in w for a in allowed) for v, w in zip(vals, whys))
    if name == "churn":
        ok = ok and any("changed during every read" in w for w in whys)
    return ok


def hostile(check, read, its):
    acks = {}
    for line in (read("trust-acks.out") or "").splitlines():
        f = line.split(None, 1)
        if f:
            acks.setdefault(f[0], f[1] if len(f) > 1 else "")
    want = ("good", "huge", "many", "malformed", "escape", "churn", "vanish", "spoof")
    check("trust-hostile-guest-follows", all(p in acks and acks[p] != "no-ack" for p in want),
          "acks: %s; console: %s" % (acks, (read("trust-domid.out") or "").strip()))
    print("INFO hostile guest: longest value xenstored took %s bytes; junk keys %s" % (
        acks.get("huge", "?"), acks.get("many", "?")))
    seen = set()
    for name, first, last in marks(read("trust-marks.out")):
        w = its[first - 1:last]
        if name in ("xsstop", "recovered", "spoof"):
            continue
        label = name if name not in seen else name + "-again"
        seen.add(name)
        others = all(sane((dom(it, GOOD) or {}).get("llc_ref_ps")) and
                     all(d.get("cpu_pct") is not None for d in it.get("domains", [])) for it in w)
        slow = [it.get("interval_s") for it in w if (it.get("interval_s") or 0) > MAX_INTERVAL]
        check("trust-phase-%s" % label, phase_ok(name, w),
              "%d refreshes: %s" % (len(w), list(zip(figures(w), [r[:60] for r in reasons(w)]))[:6]))
        check("trust-phase-%s-others-keep-figures" % label, bool(w) and others and not slow,
              "Domain-0 llc_ref/s %s, intervals over %.1f s: %s" % (
                  [(dom(it, GOOD) or {}).get("llc_ref_ps") for it in w], MAX_INTERVAL, slow))
    sp = acks.get("spoof", "")
    check("trust-guest-cannot-spoof",
          all(re.search(r"%s=Permission denied" % k, sp) for k in ("name", "dom0-data", "dom0-name"))
          and all((dom(it, HOSTILE) or {"name": HOSTILE})["name"] == HOSTILE for it in its), sp)


def bounds(check, read):
    err = read("trust.err") or ""
    m = re.search(r"xgtop xenstore: (\d+) refreshes, (\d+) reads, (\d+) bytes; per refresh at most "
                  r"(\d+) reads in ([\d.]+) ms; one domain at most (\d+) reads and (\d+) bytes; largest "
                  r"answer (\d+) bytes; longest wait ([\d.]+) ms; (\d+) timeouts", err)
    if not m:
        check("trust-bounded-reads", False, "no statistics line: %r" % err[-300:])
        return
    reads, rbytes, answer = int(m.group(6)), int(m.group(7)), int(m.group(8))
    check("trust-bounded-reads", 11 <= reads <= MAX_READS and rbytes <= MAX_READS * MAX_ANSWER
          and answer <= MAX_ANSWER, m.group(0))
    print("INFO xenstore cost: %s refreshes; the most one domain took in a refresh: %d reads, %d bytes; "
          "largest answer %d bytes; busiest refresh %s reads in %s ms; longest wait %s ms; %s timeouts" % (
              m.group(1), reads, rbytes, answer, m.group(4), m.group(5), m.group(9), m.group(10)))


def escapes(check, read, raw):
    outs = {n: read(n + ".out") or "" for n in ("trust-escape-text", "trust-escape-explain")}
    clean = "\x1b" not in raw and "\\u001b" not in raw and all("\x1b" not in t for t in outs.values())
    check("trust-no-terminal-escapes", clean and HOSTILE in outs["trust-escape-text"]
          and "Cache columns count" in outs["trust-escape-explain"],
          "json/text/explain with ESC: %s" % [n for n, t in outs.items() if "\x1b" in t])


def xenstored(check, its, mk):
    got = {n: (a, b) for n, a, b in mk if n in ("xsstop", "recovered")}
    if "xsstop" not in got:
        check("trust-xenstored-stopped", False, "no marks")
        return
    a, b = got["xsstop"]
    w = its[a - 1:b]
    told = all(dom(it, d) is not None and (dom(it, d) or {}).get("llc_ref_ps") is None
               and "xenstore" in why(dom(it, d)) for it in w for d in (GOOD, HOSTILE))
    cpu = all(d.get("cpu_pct") is not None for it in w for d in it.get("domains", []))
    iv = [it.get("interval_s") or 0 for it in w]
    check("trust-xenstored-stopped", len(w) >= 3 and told and cpu and max(iv) <= MAX_INTERVAL_XS,
          "%d refreshes, intervals %s, reasons %s" % (len(w), iv, sorted({why(dom(it, GOOD)) for it in w})))
    a, b = got.get("recovered", (0, 0))
    r = its[a - 1:b]
    check("trust-xenstored-recovered", bool(r) and sane((dom(r[-1], GOOD) or {}).get("llc_ref_ps"))
          and sane((dom(r[-1], HOSTILE) or {}).get("llc_ref_ps")),
          "%d refreshes after: Domain-0 %s, %s %s" % (
              len(r), [(dom(it, GOOD) or {}).get("llc_ref_ps") for it in r], HOSTILE, figures(r)))


def signals(J):
    check, read, rc_of = J.check, J.read, J.rc_of
    for sig in ("TERM", "HUP", "INT"):
        J.tbuf_is("trust-tui-%s-during" % sig, labcheck.OUR_MASK, "yes")
        J.tbuf_is("trust-tui-%s-after" % sig, labcheck.DEFAULT_MASK, "no", pending0=True)
        err = read("trust-tui-%s.err" % sig) or ""
        check("trust-tui-%s-terminal-restored" % sig, rc_of("trust-tui-" + sig) == 0 and
              "after exit: canonical=yes echo=yes screen-restored=yes" in err,
              "rc=%s %s" % (rc_of("trust-tui-" + sig), err.strip()[-200:]))
    J.tbuf_is("trust-daemon-during", labcheck.OUR_MASK, "yes")
    J.tbuf_is("trust-daemon-hup", labcheck.OUR_MASK, "yes")
    J.tbuf_is("trust-daemon-after", labcheck.DEFAULT_MASK, "no", pending0=True)
    log = read("trust-daemon.err") or ""
    files = read("trust-daemon-files.out") or ""
    check("trust-daemon-hup-term", rc_of("trust-daemon") == 0 and read("trust-daemon-alive.out") is not None
          and "SIGHUP: reopened /tmp/trust.xgrec" in log and "exiting on Terminated" in log
          and "trust.xgrec.1" in files and "No such file" not in files,
          "rc=%s log %r files %r" % (rc_of("trust-daemon"), log[-300:], files.strip()))


def nocaps(J):
    """xgtop as root with an empty capability bounding set: every figure."""
    check, read, rc_of = J.check, J.read, J.rc_of
    dump = read("trust-nocaps-dump.out") or ""
    its, bad = iterations(read("trust-nocaps.out"))
    last = its[-1] if its else {}
    keys = ("cpu_pct", "run_pct", "mem_bytes")
    doms = last.get("domains", [])
    missing = ["%s %s: %s" % (d.get("name"), k, why(d, k)) for d in doms for k in keys if d.get(k) is None]
    io = dom(last, "xg-io") or {}
    check("trust-no-capabilities-needed", re.search(r"bounding set: \[none\]", dump) is not None
          and rc_of("trust-nocaps") == 0 and len(its) == 2 and not bad and len(doms) >= 3
          and all(d.get("name") for d in doms) and not missing and io.get("net_rx_bps") is not None,
          "rc=%s %d domains, missing %s; %s %s" % (rc_of("trust-nocaps"), len(doms), missing[:4],
                                                   dump.strip().replace("\n", "; ")[:200],
                                                   (read("trust-nocaps.err") or "")[:200]))
    J.tbuf_is("trust-nocaps-after", labcheck.DEFAULT_MASK, "no", pending0=True)


def run(J):
    check, read, rc_of = J.check, J.read, J.rc_of
    raw = read("trust.json") or ""
    its, bad = iterations(raw)
    check("trust-run", rc_of("trust") == 0 and len(its) >= 20 and not bad and rc_of("trust-agent0") == 0,
          "rc=%s, %d refreshes, %d unreadable lines, dom0 agent rc=%s %s" % (
              rc_of("trust"), len(its), bad, rc_of("trust-agent0"), (read("trust.err") or "")[-200:]))
    hostile(check, read, its)
    bounds(check, read)
    escapes(check, read, raw)
    xenstored(check, its, marks(read("trust-marks.out")))
    signals(J)
    nocaps(J)
