#!/usr/bin/env python3
# Usage: keylime-rules.py [--bank BANK] [--pcr BANK:HEX] POLICY LOG
# Apply Keylime's runtime-policy rules, as NOTES.md ("Keylime runtime
# policies", rules S1-S8 and M1-M9) writes them down from Keylime 7.14's
# sources, to the runtime policy POLICY (JSON) and the IMA measurement
# list LOG: the ASCII list an agent sends (ascii_runtime_measurements*),
# or with --bank BANK the binary list of that bank, turned into the ASCII
# lines the kernel prints for it.  With --pcr BANK:HEX, the list must
# also replay to that PCR 10 value of that bank (rule M9).
#
# Prints one line per failure: "policy: RULE: FIELD: why" or
# "entry N: RULE: NAME: why" (N from 0), then a summary line.  Exit 0 if
# nothing fails, 1 if something does, 2 on bad usage or unreadable input.
#
# An independent test oracle for modhash export: written from the rules,
# not from modhash's code (and not from Keylime's: no code is copied).
import argparse
import hashlib
import json
import re
import struct
import sys

LOG_HASH_ALGS = ('sha1', 'sha256', 'sha384', 'sha512')
TEMPLATES = ('ima', 'ima-ng', 'ima-sig', 'ima-buf')
HEX_DIGEST = re.compile(r'[0-9a-f]{40,128}')
IMA_PCR = '10'


def is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


# --- the policy's form: rules S1-S8 -------------------------------------
def check_digest_map(policy, key, bad):
    m = policy[key]
    if not isinstance(m, dict):
        return bad('S4', key, 'not an object')
    for name, digests in m.items():
        field = f'{key}["{name}"]'
        if not isinstance(digests, list) or not digests:
            bad('S4', field, 'not a non-empty array')
            continue
        for i, d in enumerate(digests):
            if not isinstance(d, str) or not HEX_DIGEST.fullmatch(d):
                bad('S4', f'{field}[{i}]', 'not 40 to 128 lower-case hex digits')


def check_keyring_json(text, bad):
    try:
        ring = json.loads(text)
    except ValueError:
        return bad('S7', 'verification-keys', 'not JSON')
    if not isinstance(ring, dict):
        return bad('S7', 'verification-keys', 'not a JSON object')
    ids, keys = ring.get('keyids'), ring.get('pubkeys')
    if not isinstance(ids, list) or not all(is_int(i) for i in ids):
        bad('S7', 'verification-keys.keyids', 'missing, or not an array of integers')
    if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
        bad('S7', 'verification-keys.pubkeys', 'missing, or not an array of strings')
    if 'meta' in ring:
        meta = ring['meta']
        if not isinstance(meta, dict) or not is_int(meta.get('version')) or meta['version'] < 1:
            bad('S7', 'verification-keys.meta.version', 'missing or less than 1')


def check_policy(policy, bad):
    """The policy's form; False if it cannot be used at all."""
    if not isinstance(policy, dict):
        bad('S1', '(the document)', 'not a JSON object')
        return False
    if policy.get('payload'):
        bad('S8', 'payload', 'a DSSE envelope: check its decoded payload')
        return False
    missing = [k for k in ('meta', 'release', 'digests', 'excludes', 'keyrings',
                           'ima', 'ima-buf', 'verification-keys') if k not in policy]
    for k in missing:
        bad('S1', k, 'missing')
    if missing:
        return False
    before = len(failures)
    meta = policy['meta']
    if not isinstance(meta, dict):
        bad('S2', 'meta', 'not an object')
    else:
        for k in ('version', 'generator'):
            if not is_int(meta.get(k)) or meta[k] < 0:
                bad('S2', f'meta.{k}', 'missing, not an integer or negative')
        if is_int(meta.get('generator')) and meta['generator'] > 3:
            bad('S2', 'meta.generator', 'above 3 (LegacyAllowList)')
        if 'timestamp' in meta and not isinstance(meta['timestamp'], str):
            bad('S2', 'meta.timestamp', 'not a string')
    if not is_int(policy['release']) or policy['release'] < 0:
        bad('S3', 'release', 'not an integer of at least 0')
    for key in ('digests', 'keyrings', 'ima-buf'):
        check_digest_map(policy, key, bad)
    ex = policy['excludes']
    if not isinstance(ex, list) or not all(isinstance(e, str) for e in ex):
        bad('S5', 'excludes', 'not an array of strings')
    ima = policy['ima']
    if not isinstance(ima, dict):
        bad('S6', 'ima', 'not an object')
    else:
        ign = ima.get('ignored_keyrings')
        if not isinstance(ign, list) or not all(isinstance(k, str) for k in ign):
            bad('S6', 'ima.ignored_keyrings', 'missing, or not an array of strings')
        if ima.get('log_hash_alg') not in LOG_HASH_ALGS:
            bad('S6', 'ima.log_hash_alg', f'{ima.get("log_hash_alg")!r} is not one of {", ".join(LOG_HASH_ALGS)}')
        if 'dm_policy' not in ima or ima['dm_policy'] is not None:
            bad('S6', 'ima.dm_policy', 'missing or not null')
    vk = policy['verification-keys']
    if not isinstance(vk, str):
        bad('S7', 'verification-keys', 'not a string')
    elif vk:
        check_keyring_json(vk, bad)
    return len(failures) == before


# --- the list: rules M1-M9 ----------------------------------------------
class Skip(Exception):
    pass


def digest_field(text):
    """(algorithm, bytes) of a digest column: ALGO:HEX, or bare HEX."""
    algo, sep, value = text.rpartition(':')
    if text.count(':') > 1:
        raise Skip('digest has more than one colon')
    try:
        raw = bytes.fromhex(value)
    except ValueError:
        raise Skip('digest is not hex')
    if not sep:
        algo = {20: 'sha1', 16: 'md5'}.get(len(raw))
        if not algo:
            raise Skip('bare digest that is neither SHA-1 nor MD5')
    return algo, raw


def u32(n):
    return struct.pack('<I', n)


def template_data(template, rest):
    """The template data the kernel hashed, rebuilt from the text, and
    the fields: (data, digest bytes, name, extra bytes or None)."""
    parts = rest.split(' ', 1 if template in ('ima', 'ima-ng') else 2)
    if len(parts) != (2 if template in ('ima', 'ima-ng') else 3):
        raise Skip(f'{template} entry without its {len(parts) + 1}th field')
    algo, digest = digest_field(parts[0])
    name = parts[1]
    nb = name.encode()
    if template == 'ima':
        if len(nb) > 255:
            raise Skip('ima template name longer than 255 bytes')
        return digest + nb + bytes(256 - len(nb)), digest, name, None
    dng = algo.encode() + b':\0' + digest
    data = u32(len(dng)) + dng + u32(len(nb) + 1) + nb + b'\0'
    extra = None
    if template in ('ima-sig', 'ima-buf'):
        try:
            extra = bytes.fromhex(parts[2])
        except ValueError:
            raise Skip(f'{template} third field is not hex')
        data += u32(len(extra)) + extra
    return data, digest, name, extra


def der_length_covers(buf):
    """A DER SEQUENCE whose length is exactly the buffer: key material."""
    if len(buf) < 2 or buf[0] != 0x30:
        return False
    n = buf[1]
    if n < 0x80:
        return 2 + n == len(buf)
    k = n & 0x7f
    if k == 0 or k > 4 or len(buf) < 2 + k:
        return False
    return 2 + k + int.from_bytes(buf[2:2 + k], 'big') == len(buf)


def looks_like_key(buf):
    return buf.startswith(b'-----BEGIN ') or der_length_covers(buf)


def judge(policy, exclude, template, digest, name, extra):
    """Rules M5-M7: the reason the entry fails, or None."""
    if exclude and exclude.match(name):
        return None
    key = 'digests'
    if template == 'ima-buf':
        if looks_like_key(extra):
            ignored = policy['ima']['ignored_keyrings']
            if '*' in ignored or name in ignored:
                return None
            key = 'keyrings'
        else:
            key = 'ima-buf'
    want = policy[key].get(name)
    if want is None:
        return f'not in the policy\'s {key}'
    if digest.hex() not in want:
        return f'digest {digest.hex()} is not among its {len(want)} in {key}'
    return None


def check_list(policy, lines, pcr, bad):
    alg = policy['ima']['log_hash_alg']
    exclude = None
    if policy['excludes']:
        try:
            exclude = re.compile('(' + ')|('.join(policy['excludes']) + ')')
        except re.error as e:
            bad('S5', 'excludes', f'not a valid regular expression ({e}); Keylime ignores the list')
    if pcr:
        bank, value = pcr
        running = bytes(hashlib.new(bank).digest_size)
        reached = running == value
    index = 0
    for line in lines:
        if not line:
            continue
        n = index
        index += 1
        fields = line.split(' ', 3)
        where = line if len(line) <= 60 else line[:57] + '...'
        try:
            if len(fields) != 4:
                raise Skip('not four space-separated fields')
            pcr_index, thash_hex, template, rest = fields
            if template not in TEMPLATES:
                raise Skip(f'template {template} is not one Keylime parses (ima, ima-ng, ima-sig, ima-buf)')
            try:
                thash = bytes.fromhex(thash_hex)
            except ValueError:
                raise Skip('template hash is not hex')
            data, digest, name, extra = template_data(template, rest)
        except Skip as e:
            bad('M1', where, str(e), n)
            continue
        violation = not any(thash)
        if pcr:
            size = hashlib.new(bank).digest_size
            extend = b'\xff' * size if violation else hashlib.new(bank, data).digest()
            running = hashlib.new(bank, running + extend).digest()
            reached = reached or running == value
        if pcr_index != IMA_PCR:
            bad('M2', name, f'PCR {pcr_index}, not {IMA_PCR}', n)
        if violation:
            # Strict: Keylime skips the entry's checks and fails it only
            # with ignore_tomtou_errors true (NOTES.md, M3).
            bad('M3', name, 'a violation (zero template hash): never judged; a failure when the verifier\'s ignore_tomtou_errors is true', n)
            continue
        if thash != hashlib.new(alg, data).digest():
            bad('M3', name, f'template hash is not the {alg} of the entry (log_hash_alg {alg}: the list sent has another template hash)', n)
            continue
        why = judge(policy, exclude, template, digest, name, extra)
        if why:
            bad('M8' if n == 0 and name == 'boot_aggregate' else
                'M7' if template == 'ima-buf' else
                'M6' if template == 'ima-sig' else 'M5', name, why, n)
    if pcr and not reached:
        bad('M9', 'PCR 10', f'the list never replays to the {bank} value given', None)
    return index


def ascii_of_binary(raw, bank):
    """The lines ascii_runtime_measurements_BANK shows for a binary list."""
    size = hashlib.new(bank).digest_size
    at, out = 0, []
    while at < len(raw):
        pcr, = struct.unpack_from('<I', raw, at)
        thash = raw[at + 4:at + 4 + size]
        at += 4 + size
        n, = struct.unpack_from('<I', raw, at)
        template = raw[at + 4:at + 4 + n].decode()
        at += 4 + n
        if template == 'ima':
            digest, n = raw[at:at + 20], struct.unpack_from('<I', raw, at + 20)[0]
            name = raw[at + 24:at + 24 + n].decode(errors='replace')
            at += 24 + n
            out.append(f'{pcr} {thash.hex()} ima {digest.hex()} {name}')
            continue
        n, = struct.unpack_from('<I', raw, at)
        data = raw[at + 4:at + 4 + n]
        at += 4 + n
        fields, i = [], 0
        while i < len(data):
            k, = struct.unpack_from('<I', data, i)
            fields.append(data[i + 4:i + 4 + k])
            i += 4 + k
        if len(fields) < 2:	# not d-ng|n-ng|...: M1 refuses its template
            out.append(f'{pcr} {thash.hex()} {template} ' + ' '.join(f.hex() for f in fields))
            continue
        algo, _, value = fields[0].partition(b'\0')
        text = [algo.decode(errors='replace') + value.hex(),
                fields[1].rstrip(b'\0').decode(errors='replace')]
        text += [f.hex() for f in fields[2:]]
        out.append(f'{pcr} {thash.hex()} {template} ' + ' '.join(text))
    return out


failures = []


def main():
    ap = argparse.ArgumentParser(description='Keylime runtime-policy rules (NOTES.md) on a policy and an IMA list.')
    ap.add_argument('--bank', choices=LOG_HASH_ALGS, help='LOG is the binary list of this bank')
    ap.add_argument('--pcr', help='BANK:HEX, the quoted PCR 10 the list must replay to')
    ap.add_argument('policy')
    ap.add_argument('log')
    a = ap.parse_args()
    pcr = None
    if a.pcr:
        bank, _, value = a.pcr.partition(':')
        if bank not in LOG_HASH_ALGS or not re.fullmatch('[0-9a-fA-F]+', value):
            ap.error('--pcr: BANK:HEX')
        pcr = (bank, bytes.fromhex(value))
    try:
        text = open(a.policy, 'rb').read()
        raw = open(a.log, 'rb').read()
    except OSError as e:
        print(f'keylime-rules: {e}', file=sys.stderr)
        return 2

    def bad(rule, field, why, entry=False):
        at = 'policy' if entry is False else 'list' if entry is None else f'entry {entry}'
        failures.append(f'{at}: {rule}: {field}: {why}')

    try:
        policy = json.loads(text)
    except ValueError as e:
        bad('S1', '(the document)', f'not JSON ({e})')
        policy = None
    entries = 0
    if policy is not None and check_policy(policy, bad):
        lines = ascii_of_binary(raw, a.bank) if a.bank else raw.decode(errors='replace').split('\n')
        entries = check_list(policy, lines, pcr, bad)
    for f in failures:
        print(f)
    print(f'# {entries} entries, {len(failures)} failures')
    return 1 if failures else 0


sys.exit(main())
