#!/usr/bin/env python3
# Usage: ima-entries.py BANK LOG
# Print one line per entry of the binary IMA measurement list LOG (one
# bank's binary_runtime_measurements_BANK, little endian, as x86 writes
# it): "INDEX PCR TEMPLATE DIGEST NAME", DIGEST as ALGO:HEX from the
# d-ng field (the ima template's bare SHA-1 as sha1:HEX), NAME the n-ng
# field (a path, or the event name of ima-buf); for ima-buf a sixth
# column holds the buffer in hex.  A test helper that reads the fields
# the attestation tests compare, not a verifier: modhash verify-log is.
import struct
import sys

SIZES = {'sha1': 20, 'sha256': 32, 'sha384': 48, 'sha512': 64}


def fields(data):
    """The template data's length-prefixed fields."""
    out, at = [], 0
    while at < len(data):
        (n,) = struct.unpack_from('<I', data, at)
        out.append(data[at + 4:at + 4 + n])
        at += 4 + n
    return out


def main():
    size = SIZES[sys.argv[1]]
    raw = open(sys.argv[2], 'rb').read()
    at = index = 0
    while at < len(raw):
        pcr, = struct.unpack_from('<I', raw, at)
        at += 4 + size
        (n,) = struct.unpack_from('<I', raw, at)
        template = raw[at + 4:at + 4 + n].decode()
        at += 4 + n
        (n,) = struct.unpack_from('<I', raw, at)
        data = raw[at + 4:at + 4 + n]
        at += 4 + n
        if template == 'ima':
            digest, name = 'sha1:' + data[:20].hex(), data[24:].decode(errors='replace')
            extra = []
        else:
            f = fields(data)
            algo, _, value = f[0].partition(b'\0')
            digest = algo.decode().rstrip(':') + ':' + value.hex()
            name = f[1].rstrip(b'\0').decode(errors='replace')
            extra = [f[2].hex()] if template == 'ima-buf' else []
        print(' '.join([str(index), str(pcr), template, digest, name] + extra))
        index += 1


main()
