# SPDX-License-Identifier: GPL-2.0-or-later
"""What the lab's judges (check.py, check_sched.py) share: PASS/FAIL lines
with counts, and reading what the dom0 scripts left in the results
directory (NAME.out, NAME.err, NAME.rc)."""
import json
import os
import re

# The hypervisor's trace event mask as Xen boots, and as xgtop sets it.
DEFAULT_MASK = 0x0ffff000
OUR_MASK = 0x00021000


def json_lines(text):
    """xgtop -o json output (one object a line) -> (objects, unreadable lines)."""
    out, bad = [], 0
    for line in (text or "").splitlines():
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except ValueError:
            bad += 1
    return out, bad


def domain(it, name):
    """The domain called name in one JSON iteration, or None."""
    for d in (it or {}).get("domains", []):
        if d.get("name") == name:
            return d
    return None


def why_of(d, key):
    """Why d's figure key is null ("" when there is no reason)."""
    return ((d or {}).get("why") or {}).get(key) or ""


class Judge:
    def __init__(self, res, prefix=""):
        self.res, self.prefix = res, prefix
        self.passed = self.failed = 0

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        print(("PASS " if ok else "FAIL ") + self.prefix + name + (": " + detail if detail else ""))
        return ok

    def read(self, name):
        try:
            with open(os.path.join(self.res, name), errors="replace") as f:
                return f.read()
        except OSError:
            return None

    def rc_of(self, name):
        try:
            return int((self.read(name + ".rc") or "").strip())
        except ValueError:
            return None

    def tbuf(self, name):
        """xg-tbuf-state's line in tb-NAME.out -> dict (mask as int)."""
        t = self.read("tb-%s.out" % name) or ""
        d = dict(re.findall(r"(\w+)=(\S+)", t))
        if "mask" in d:
            d["mask"] = int(d["mask"], 16)
        return d

    def tbuf_is(self, name, mask, enabled, pending0=False):
        """Checks the trace buffer state recorded as tb-NAME.out."""
        d = self.tbuf(name)
        ok = d.get("mask") == mask and d.get("enabled") == enabled
        if pending0:
            ok = ok and d.get("pending") == "0"
        return self.check("state-" + name, ok, "%s (want mask=%#x enabled=%s%s)" % (
            (self.read("tb-%s.out" % name) or "missing").strip(), mask, enabled,
            " pending=0" if pending0 else ""))
