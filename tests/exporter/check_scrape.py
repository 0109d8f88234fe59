#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks one OpenMetrics scrape of an xgtop replaying a recording against
the recording itself: the scrape parses with the Python client's strict
OpenMetrics parser, and for the recorded sample it belongs to (found by
xgtop_sample_monotonic_seconds), every domain appears once in
xgtop_domain_info with its domid and source, every measured field has its
series with the recorded value in base units, and every unmeasured field has
none; xgtop_host_domains counts each domain of xgtop_domain_state once,
under its first flag in xentop's order; xgtop_host_domains_cpu_seconds_total
and xgtop_host_domains_runstate_seconds_total{state} equal the recorded
domains' growth summed over every step from the first sample (the exporter
replays them all) to this one, a domain adding nothing for a step it is new,
restarted (gen) or its counter went back in, with a series for each figure
some domain of this sample measures and none for the others.

Usage: check_scrape.py SCRAPE.om DUMP.tsv FIELDS.tsv
  DUMP.tsv:   xgtop-gen --dump FILE
  FIELDS.tsv: xgtop-metric-names --fields
"""
import sys

from prometheus_client.openmetrics.parser import text_string_to_metric_families


def shown(raw):
    """A name as xgtop shows it: control bytes and invalid UTF-8 as \\xNN, a
    backslash doubled, other UTF-8 as is."""
    out, i = [], 0
    while i < len(raw):
        b = raw[i]
        if b < 0x80:
            out.append('\\x%02x' % b if b < 0x20 or b == 0x7f else '\\\\' if b == 0x5c else chr(b))
            i += 1
            continue
        for n in (2, 3, 4):
            try:
                ch = raw[i:i + n].decode('utf-8')
            except UnicodeDecodeError:
                continue
            if len(ch) == 1:
                out.append(ch)
                i += n
                break
        else:
            out.append('\\x%02x' % b)
            i += 1
    return ''.join(out)


def main(scrape, dump, fields):
    samples = {}
    for fam in text_string_to_metric_families(open(scrape, encoding='utf-8').read()):
        for s in fam.samples:
            key = (s.name, frozenset(s.labels.items()))
            if key in samples:
                sys.exit('FAIL: series %s %s twice' % key)
            samples[key] = s.value
    by_name = {}
    for (name, labels), v in samples.items():
        by_name.setdefault(name, []).append((dict(labels), v))
    mono = round(by_name['xgtop_sample_monotonic_seconds'][0][1] * 1e9)
    rows = [l.rstrip('\n').split('\t') for l in open(dump)]
    head, rows = rows[0], [r for r in rows[1:] if int(r[1]) == mono]
    if not rows:
        sys.exit('FAIL: no recorded sample at monotonic %d ns' % mono)
    fmap = [l.rstrip('\n').split('\t') for l in open(fields)]
    infos = by_name['xgtop_domain_info']
    if len(infos) != len(rows):
        sys.exit('FAIL: %d domains in xgtop_domain_info, %d in the recording' % (len(infos), len(rows)))
    checked = 0
    for r in rows:
        dom = shown(bytes.fromhex(r[4]))
        mine = [l for l, _ in infos if l['domain'] == dom]
        if len(mine) != 1:
            sys.exit('FAIL: domain %r appears %d times in xgtop_domain_info' % (dom, len(mine)))
        info = mine[0]
        if info.get('domid') != r[2] or info.get('source') != 'xen':
            sys.exit('FAIL: %r: info labels %s' % (dom, info))
        ident = {'domain': dom, 'uuid': info['uuid']}
        for field, name, label, dec, inf in fmap:
            labels = dict(ident)
            if label:
                k, v = label.split('=', 1)
                labels[k] = v.strip('"')
            got = samples.get((name, frozenset(labels.items())))
            want = r[head.index(field)]
            if want == '-':
                if got is not None:
                    sys.exit('FAIL: %r: %s is not measured but published as %s' % (dom, field, got))
                continue
            exp = float('inf') if inf == '1' and int(want) == 2**64 - 1 else int(want) / 10**int(dec)
            if got is None or abs(got - exp) > 1e-12 * abs(exp):
                sys.exit('FAIL: %r: %s = %s in the recording, %s published as %s' % (dom, field, want, name, got))
            checked += 1
        checked += check_sockets(samples, ident, r[-1])
    counted = check_host_domains(by_name)
    print('sample at %d ns: %d domains, %d values as recorded; xgtop_host_domains: %s' %
          (mono, len(rows), checked, counted))
    print('host totals: %s' % check_host_totals(by_name, dump, mono))


# The host totals' figures: the dump's column, the family and its state.
TOTALS = (('cpu_ns', 'xgtop_host_domains_cpu_seconds_total', None),
          ('run_ns', 'xgtop_host_domains_runstate_seconds_total', 'running'),
          ('wait_ns', 'xgtop_host_domains_runstate_seconds_total', 'runnable'),
          ('blocked_ns', 'xgtop_host_domains_runstate_seconds_total', 'blocked'),
          ('offline_ns', 'xgtop_host_domains_runstate_seconds_total', 'offline'))


def check_host_totals(by_name, dump, mono):
    """The host totals against the recording's every sample up to mono."""
    rows = [l.rstrip('\n').split('\t') for l in open(dump)]
    head, rows = rows[0], rows[1:]
    col = {c: head.index(c) for c, _, _ in TOTALS}
    samples = {}
    for r in rows:
        samples.setdefault(int(r[0]), []).append(r)
    last = next(k for k, v in samples.items() if int(v[0][1]) == mono)
    refreshes = by_name['xgtop_collector_refreshes_total'][0][1]
    if refreshes != last + 1:
        sys.exit('FAIL: %d refreshes served at recorded sample %d: the replay did not give them all, '
                 'the host totals cannot be checked' % (refreshes, last))
    want = dict.fromkeys(col, 0)
    prev = {}
    for k in range(last + 1):
        now = {r[2]: r for r in samples.get(k, [])}
        for ident, r in now.items():
            was = prev.get(ident)
            if not was or was[3] != r[3]:   # new, or restarted under its id
                continue
            for c, i in col.items():
                if r[i] != '-' and was[i] != '-' and int(r[i]) >= int(was[i]):
                    want[c] += int(r[i]) - int(was[i])
        prev = now
    got = {(l.get('state'), name): v for name in ('xgtop_host_domains_cpu_seconds_total',
                                                  'xgtop_host_domains_runstate_seconds_total')
           for l, v in by_name.get(name, [])}
    out = []
    for c, name, state in TOTALS:
        measured = any(r[col[c]] != '-' for r in samples[last])
        v = got.pop((state, name), None)
        if not measured:
            if v is not None:
                sys.exit('FAIL: %s{state=%s} = %s, but no domain measures %s' % (name, state, v, c))
            continue
        if v is None or abs(v - want[c] / 1e9) > 1e-9 * max(1, want[c] / 1e9):
            sys.exit('FAIL: %s{state=%s} = %s, the recorded domains\' growth is %.9f s' %
                     (name, state, v, want[c] / 1e9))
        out.append('%s %.3f s' % (c, v))
    if got:
        sys.exit('FAIL: host totals with labels no figure has: %s' % got)
    if not want['cpu_ns']:
        sys.exit('FAIL: no CPU time grew: nothing to check the host totals against')
    return ', '.join(out)


# xentop's order when a domain has several state flags.
PRIORITY = ('running', 'blocked', 'paused', 'shutdown', 'crashed', 'dying')


def check_host_domains(by_name):
    """xgtop_host_domains{state} against the domains' xgtop_domain_state."""
    flags = {}
    for labels, v in by_name['xgtop_domain_state']:
        ident = tuple(sorted((k, x) for k, x in labels.items() if k != 'state'))
        if v == 1:
            flags.setdefault(ident, set()).add(labels['state'])
        else:
            flags.setdefault(ident, set())
    want = {st: 0 for st in PRIORITY}
    for have in flags.values():
        first = next((st for st in PRIORITY if st in have), None)
        if first:
            want[first] += 1
    got = {l['state']: v for l, v in by_name.get('xgtop_host_domains', [])}
    if got != want:
        sys.exit('FAIL: xgtop_host_domains %s, the domains\' states give %s' % (got, want))
    if sum(want.values()) == 0:
        sys.exit('FAIL: no domain has a state flag: nothing to check xgtop_host_domains against')
    return ', '.join('%s %d' % (st, want[st]) for st in PRIORITY if want[st])


def check_sockets(samples, ident, cell):
    """The per-socket CMT/MBM entries: socket:valid_hex:occ:total:local,..."""
    names = ('xgtop_domain_socket_l3_occupancy_bytes', 'xgtop_domain_socket_memory_bandwidth_bytes_total',
             'xgtop_domain_socket_memory_bandwidth_local_bytes_total')
    n = 0
    for entry in ([] if cell == '-' else cell.split(',')):
        sock, valid, *vals = entry.split(':')
        for e, name in enumerate(names):
            labels = frozenset(dict(ident, socket=sock).items())
            got = samples.get((name, labels))
            if (int(valid, 16) >> e) & 1:
                if got != int(vals[e]):
                    sys.exit('FAIL: %r socket %s: %s published as %s, recorded %s' %
                             (ident['domain'], sock, name, got, vals[e]))
                n += 1
            elif got is not None:
                sys.exit('FAIL: %r socket %s: %s not measured but published' % (ident['domain'], sock, name))
    return n


if __name__ == '__main__':
    main(*sys.argv[1:])
