# SPDX-License-Identifier: GPL-2.0-or-later
"""What the lab's judges (check.py, check_sched.py) share: PASS/FAIL lines
with counts, and reading what the dom0 scripts left in the results
directory (NAME.out, NAME.err, NAME.rc)."""
import os


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
