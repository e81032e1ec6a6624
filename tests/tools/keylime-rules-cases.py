#!/usr/bin/env python3
# Usage: keylime-rules-cases.py CHECKER POLICY LOG LOG256 PCR WORKDIR
# The negative case of each Keylime rule (NOTES.md, "Keylime runtime
# policies", S1-S8, M1-M9), made from a runtime POLICY that passes the
# rules CHECKER (keylime-rules.py) on the ASCII list LOG (SHA-1 template
# hashes, ascii_runtime_measurements) with the quoted PCR 10 PCR
# (BANK:HEX).  LOG256 is the same boot's ascii_runtime_measurements_sha256.
# Each case changes the policy or the list in one way, runs CHECKER and
# compares where it fails ("policy: RULE", "entry N: RULE", "list: RULE")
# with where the rule says it must.  Prints one line per case:
#   "ok<TAB>DESCRIPTION" or "not ok<TAB>DESCRIPTION", then "# ..." lines
# with what differed.  Files go to WORKDIR.  Exit 0.
import base64
import copy
import hashlib
import json
import os
import subprocess
import sys

checker, policy_file, log_file, log256_file, pcr, work = sys.argv[1:7]
base = json.load(open(policy_file))
lines = [l for l in open(log_file).read().split('\n') if l]
lines256 = [l for l in open(log256_file).read().split('\n') if l]


def entries_where(pred):
    return [i for i, l in enumerate(lines) if pred(l.split(' '))]


modules = entries_where(lambda f: f[2] == 'ima-ng' and f[4].startswith('/lib/modules/'))
first = modules[0] if modules else None
first_path = lines[first].split(' ')[4] if modules else None


def rehash(fields_after_hash, template):
    """An ASCII line with its SHA-1 template hash computed anew."""
    digest, name = fields_after_hash[0], fields_after_hash[1]
    algo, _, value = digest.partition(':')
    dng = algo.encode() + b':\0' + bytes.fromhex(value)
    data = len(dng).to_bytes(4, 'little') + dng
    data += (len(name) + 1).to_bytes(4, 'little') + name.encode() + b'\0'
    for extra in fields_after_hash[2:]:
        raw = bytes.fromhex(extra)
        data += len(raw).to_bytes(4, 'little') + raw
    thash = hashlib.sha1(data).hexdigest()
    return ' '.join(['10', thash, template] + fields_after_hash)


def edit_line(i, how):
    new = list(lines)
    new[i] = how(new[i].split(' '))
    return new


cases = []


def case(desc, expect, policy=None, log=None, args=()):
    cases.append((desc, set(expect), policy or base, log or lines, list(args)))


def policy_with(change):
    p = copy.deepcopy(base)
    change(p)
    return p


# --- the policy's form ------------------------------------------------
case('S1: a policy without ima-buf is refused', ['policy: S1'],
     policy_with(lambda p: p.pop('ima-buf')))
case('S2: meta.generator 9 (above LegacyAllowList) is refused', ['policy: S2'],
     policy_with(lambda p: p['meta'].update(generator=9)))
case('S3: release -1 is refused', ['policy: S3'],
     policy_with(lambda p: p.update(release=-1)))
case(f'S4: a digest of {first_path} in upper case is refused', ['policy: S4'],
     policy_with(lambda p: p['digests'][first_path].__setitem__(0, p['digests'][first_path][0].upper())))
case('S5: excludes holding a number is refused', ['policy: S5'],
     policy_with(lambda p: p.update(excludes=[5])))
case('S6: log_hash_alg md5 is refused', ['policy: S6'],
     policy_with(lambda p: p['ima'].update(log_hash_alg='md5')))
case('S7: verification-keys "{}" (a keyring without keyids and pubkeys) is refused', ['policy: S7'],
     policy_with(lambda p: p.update({'verification-keys': '{}'})))
case('S8: the policy inside a DSSE envelope is not a policy to check as such', ['policy: S8'],
     {'payload': base64.b64encode(json.dumps(base).encode()).decode(), 'payloadType': 'application/vnd.keylime+json', 'signatures': []})

# --- the list ---------------------------------------------------------
case(f'M1: entry {first} logged with template ima-modsig cannot be parsed', [f'entry {first}: M1'],
     log=edit_line(first, lambda f: ' '.join(f[:2] + ['ima-modsig'] + f[3:])))
case(f'M2: entry {first} in PCR 11 fails', [f'entry {first}: M2'],
     log=edit_line(first, lambda f: ' '.join(['11'] + f[1:])))
case('M3: with log_hash_alg sha1, ascii_runtime_measurements_sha256 fails every entry',
     [f'entry {i}: M3' for i in range(len(lines256))], log=lines256)
case(f'M3: entry {first} as a violation (zero template hash) fails', [f'entry {first}: M3'],
     log=edit_line(first, lambda f: ' '.join([f[0], '0' * 40] + f[2:])))
case(f'M4: entry {first} with its path edited no longer hashes to its template hash', [f'entry {first}: M3'],
     log=edit_line(first, lambda f: ' '.join(f[:4] + [f[4] + 'x'])))
case('M5: with /usr/lib/modules keys only, every /lib/modules entry fails',
     [f'entry {i}: M5' for i in modules],
     policy_with(lambda p: [p['digests'].pop(k) for k in list(p['digests']) if k.startswith('/lib/')]))
usr_log = list(lines)
for i in modules:
    f = usr_log[i].split(' ')
    usr_log[i] = rehash(f[3:4] + ['/usr' + f[4]], f[2])
case('M5: the list as a merged-/usr system logs it (/usr/lib/modules paths) passes with the export\'s /usr/lib keys', [],
     log=usr_log)
case('M5: the same list with /lib/modules keys only (the old export) fails every module entry',
     [f'entry {i}: M5' for i in modules],
     policy_with(lambda p: [p['digests'].pop(k) for k in list(p['digests']) if k.startswith('/usr/lib/')]), usr_log)
case('M5: excludes match from the start of the path: /lib/modules/ excluded, the /usr-only policy passes', [],
     policy_with(lambda p: ([p['digests'].pop(k) for k in list(p['digests']) if k.startswith('/lib/')],
                            p.update(excludes=['/lib/modules/']))))
case(f'M5: a tampered digest for {first_path} fails entry {first}', [f'entry {first}: M5'],
     policy_with(lambda p: p['digests'].update({first_path: ['00' * 32]})))
case(f'M6: entry {first} as ima-sig without a signature and without its path in digests fails', [f'entry {first}: M6'],
     policy_with(lambda p: [p['digests'].pop(k) for k in list(p['digests']) if k.endswith(first_path)]),
     edit_line(first, lambda f: rehash(f[3:] + [''], 'ima-sig')))
case(f'M6: the same ima-sig entry with its path in digests passes', [],
     log=edit_line(first, lambda f: rehash(f[3:] + [''], 'ima-sig')))
case('M7: another digest for module-allowlist fails its ima-buf entry',
     [f'entry {i}: M7' for i in entries_where(lambda f: f[2] == 'ima-buf' and f[4] == 'module-allowlist')],
     policy_with(lambda p: p['ima-buf'].update({'module-allowlist': ['00' * 32]})))
case('M8: a policy without boot_aggregate fails entry 0', ['entry 0: M8'],
     policy_with(lambda p: p['digests'].pop('boot_aggregate')))
case('M9: a PCR 10 the list never reaches fails', ['list: M9'], args=['--pcr', pcr.split(':')[0] + ':' + '11' * (len(pcr.split(':')[1]) // 2)])

os.makedirs(work, exist_ok=True)
for n, (desc, expect, policy, log, args) in enumerate(cases):
    pf, lf = f'{work}/case{n}.json', f'{work}/case{n}.log'
    json.dump(policy, open(pf, 'w'))
    open(lf, 'w').write('\n'.join(log) + '\n')
    if '--pcr' not in args:
        args = ['--pcr', pcr] if log is lines else []
    r = subprocess.run([sys.executable, checker] + args + [pf, lf], capture_output=True, text=True)
    got = {':'.join(l.split(':')[:2]) for l in r.stdout.splitlines() if not l.startswith('#')}
    ok = got == expect and r.returncode == (1 if expect else 0)
    print(f'{"ok" if ok else "not ok"}\t{desc}')
    if not ok:
        print(f'# exit {r.returncode}; want {sorted(expect)}, got {sorted(got)}')
        for l in r.stdout.splitlines()[:8]:
            print(f'#   {l}')
