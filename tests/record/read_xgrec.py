#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""An independent reader of xgtop recordings, written from doc/recording.md
only. Prints what `xgtop-gen --dump FILE` prints (with --pcpus: what
`xgtop-gen --dump-pcpus FILE` prints for pCPU entries, with --hosts what
`xgtop-gen --dump-hosts FILE` prints for a pool's hosts), so a test can
compare. Domain values never depend on 'P' lines: what this prints for
domains is what a reader that skips them (1.2 and older) decodes."""
import gzip
import re
import sys
import zlib

MASK = (1 << 64) - 1
SUM_FIELDS = ["cpu_ns", "run_ns", "wait_ns", "blocked_ns", "offline_ns"]
SOCK_FIELDS = ["l3_occupancy_bytes", "mbm_total_bytes", "mbm_local_bytes"]


def unesc(b):
    return re.sub(rb"\\(\\|x[0-9a-fA-F]{2})",
                  lambda m: b"\\" if m.group(1) == b"\\" else bytes([int(m.group(1)[1:], 16)]), b)


def delta(col, base):
    return base if col == b"" else (base + int(col)) & MASK


def absval(col, base, hexa=False):
    return base if col == b"" else int(col, 16 if hexa else 10)


def why(col, base):
    if col == b"":
        return dict(base)
    if col == b"-":
        return {}
    return {int(f): int(r) for f, r in (x.split(b":") for x in col.split(b","))}


def hexs(b):
    return b.hex() if b else "-"


def host_rows(n, cur):
    rows = []
    for i, h in enumerate(cur["hosts"]):
        why = cur["reasons"][h["why"] - 1] if 0 < h["why"] <= len(cur["reasons"]) else b""
        rows.append("\t".join([str(n), str(cur["host"]["mono"]), str(i), hexs(h["name"]), str(h["stale"]),
                               hexs(why), str(len(h["ids"]))] + [str(x) for x in h["num"]] +
                              ["%x" % h["valid"]] + [hexs(x) for x in h["text"]] +
                              [",".join(str(x) for x in h["ids"]) or "-"]))
    return rows


def parse_P(c):
    # a pool host: absolute values; the next ndom domains (in order) are its
    c += [b""] * (18 - len(c))
    return {"name": unesc(c[1]), "stale": int(c[2]), "why": int(c[3]), "ndom": int(c[4]),
            "num": [int(x) for x in c[5:12]], "valid": int(c[12], 16),
            "text": [unesc(x) for x in c[13:18]], "ids": []}


def main(path, mode=None):
    data = gzip.open(path, "rb").read()
    fields = []
    prev = None
    out = []
    pout = []
    hout = []
    n = 0
    for line in data.split(b"\n"):
        c = line.split(b"\t")
        t = c[0]
        if t == b"xgtop-recording":
            assert c[1] == b"1", "unsupported version"
            minor = int(c[2])
            prev = None
            continue
        if t == b"fields":
            fields = [x.decode() for x in c[1:]]
            continue
        if t == b"pmu":
            npmu = len(c) - 1
            continue
        if t == b"":
            continue
        if t == b"S":
            crc = zlib.crc32(line + b"\n")
            host = prev["host"] if prev else {"mono": 0}
            cur = {"host": {"mono": delta(c[3] if len(c) > 3 else b"", host["mono"])},
                   "doms": [], "vcpus": [], "pcpus": [], "hosts": [],
                   "reasons": prev["reasons"] if prev else []}
            ident = None
            continue
        if t == b"E":
            assert int(c[1], 16) == crc, "checksum"
            hout += host_rows(n, cur)
            for p in cur["pcpus"]:
                times = [str(p["t"][k]) if p["valid"] >> k & 1 else "-" for k in range(2)]
                pout.append("\t".join([str(n), str(cur["host"]["mono"]), str(p["id"])] + times))
            for d in cur["doms"]:
                for e, f in enumerate(SOCK_FIELDS):
                    if d["socks"] and d["socks"][-1]["v"][e] is None:
                        others = sum(k["v"][e] for k in d["socks"][:-1])
                        d["socks"][-1]["v"][e] = (d["v"][fields.index(f)] - others) & MASK
                for f in d["sum"]:
                    i = SUM_FIELDS.index(fields[f])
                    sl = cur["vcpus"][d["first"]:d["first"] + d["count"]]
                    d["v"][f] = sum(v["cpu"] if i == 0 else v["s"][i - 1] for v in sl) & MASK
            for d in cur["doms"]:
                row = [str(n), str(cur["host"]["mono"]), str(d["id"]), str(d["gen"]), d["name"].hex()]
                row += [str(d["v"][f]) if d["valid"] >> f & 1 else "-" for f in range(len(fields))]
                row.append(",".join("%d:%x:%d:%d:%d" % (k["socket"], k["valid"], *k["v"])
                                    for k in d["socks"]) or "-")
                out.append("\t".join(row))
            prev = cur
            n += 1
            continue
        crc = zlib.crc32(line + b"\n", crc)
        if t == b"R":
            cur["reasons"] = [unesc(x) for x in c[1:]]
        elif t == b"P" and minor >= 2:   # since 1.3, and in 1.2 members of the first pool builds
            cur["hosts"].append(parse_P(c))
        elif t == b"D":
            ident = (int(c[1]), int(c[2]), unesc(c[4] if len(c) > 4 else b""))
        elif t == b"d":
            c += [b""] * (9 + len(fields) + npmu - len(c))
            did = int(c[1])
            base = None
            if prev:
                base = next((x for x in prev["doms"] if x["id"] == did), None)
            if ident and ident[0] == did:
                gen, name = ident[1], ident[2]
                ident = None
            else:
                gen, name = base["gen"], base["name"]
            zero = {"valid": 0, "count": 0, "v": [0] * len(fields)}
            b = base or zero
            expect = cur["doms"][-1]["first"] + cur["doms"][-1]["count"] if cur["doms"] else 0
            d = {"id": did, "gen": gen, "name": name,
                 "valid": absval(c[3], b["valid"], True),
                 "first": absval(c[6], expect), "count": absval(c[7], b["count"]),
                 "v": [], "sum": [], "socks": [], "base": base}
            for f in range(len(fields)):
                col = c[9 + f]
                if col == b"=":
                    d["sum"].append(f)
                    d["v"].append(0)
                else:
                    d["v"].append(delta(col, b["v"][f]))
            cur["doms"].append(d)
            owner = next((h for h in cur["hosts"] if len(h["ids"]) < h["ndom"]), None)
            if owner:
                owner["ids"].append(did)
        elif t == b"k" and minor >= 1:
            c += [b""] * (6 - len(c))
            d = cur["doms"][-1]
            i = len(d["socks"])
            pk = d["base"]["socks"] if d["base"] else []
            b = pk[i] if i < len(pk) else {"socket": 0, "valid": 0, "v": [0, 0, 0]}
            # '=' (last entry only): the domain's sum field minus the others, at E
            d["socks"].append({"socket": absval(c[1], b["socket"]), "valid": absval(c[2], b["valid"], True),
                               "v": [None if c[3 + e] == b"=" else delta(c[3 + e], b["v"][e]) for e in range(3)]})
        elif t == b"p" and minor >= 2:
            # one pCPU: id, valid (hex), busy ns, idle ns; against the same index before
            c += [b""] * (5 - len(c))
            i = len(cur["pcpus"])
            pp = prev["pcpus"] if prev else []
            b = pp[i] if i < len(pp) else {"id": 0, "valid": 0, "t": [0, 0]}
            cur["pcpus"].append({"id": absval(c[1], b["id"]), "valid": absval(c[2], b["valid"], True),
                                 "t": [delta(c[3 + k], b["t"][k]) for k in range(2)]})
        elif t == b"c":
            c += [b""] * (9 - len(c))
            i = len(cur["vcpus"])
            owner = next((x for x in cur["doms"] if x["first"] <= i < x["first"] + x["count"]), None)
            base = None
            if prev and owner:
                pd = next((x for x in prev["doms"] if x["id"] == owner["id"]), None)
                off = i - owner["first"]
                if pd and off < pd["count"] and pd["first"] + off < len(prev["vcpus"]):
                    base = prev["vcpus"][pd["first"] + off]
            base = base or {"cpu": 0, "s": [0, 0, 0, 0]}
            s = [0 if k == 2 and c[7].startswith(b"~") else delta(c[5 + k], base["s"][k]) for k in range(4)]
            if c[7].startswith(b"~"):
                dmono = cur["host"]["mono"] - (prev["host"]["mono"] if prev else 0)
                rest = dmono - sum(s[k] - base["s"][k] for k in (0, 1, 3))
                s[2] = (base["s"][2] + delta(c[7][1:], rest)) & MASK
            cpu = s[0] if c[4] == b"=" else delta(c[4], base["cpu"])
            cur["vcpus"].append({"cpu": cpu, "s": s})
    if mode == "--pcpus":
        print("\t".join(["sample", "mono_ns", "pcpu", "busy_ns", "idle_ns"]))
        out = pout
    elif mode == "--hosts":
        print("\t".join(["sample", "mono_ns", "host", "name_hex", "stale", "why_hex", "ndom", "host_mono",
                         "host_real", "pcpus", "cpu_khz", "mem_total", "mem_free", "lost", "valid", "source",
                         "hypervisor", "hostname", "sched", "cache_events", "ids"]))
        out = hout
    else:
        print("\t".join(["sample", "mono_ns", "id", "gen", "name_hex"] + fields + ["sockets"]))
    for r in out:
        print(r)


if __name__ == "__main__":
    main(sys.argv[-1], sys.argv[1] if len(sys.argv) > 2 else None)
