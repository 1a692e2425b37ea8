#!/usr/bin/env python3
"""Glue between the engine oracles and the golden fixture files.

Subcommands (FAMILY is 3 or 4):

  golden.py prep FAMILY ENCODED.tsv
      ENCODED.tsv is the oracle's encode.sh output ("hex<TAB>expression").
      Prints the decoder input for dump3.gd/dump4.gd: one "hex:HEX" or "obj:HEX" line per
      encoded expression, with NodePath padding zeroed.

  golden.py main FAMILY ENCODED.tsv DUMP.out [DUMP.err] > godotN.jsonl
      Joins encode.sh output and the dump script's output into the main
      fixture file (keys: expr, objects, hex, type, text, reencoded[, used]).

  golden.py cases-in CASES.tsv
      CASES.tsv is gen_decode_cases.py output ("name<TAB>obj|raw<TAB>hex<TAB>group").
      Prints the decoder input for the dump script.

  golden.py cases FAMILY CASES.tsv DUMP.out [DUMP.err] > godotN-decode.jsonl
      Joins the malformed-input cases and the dump script's verdicts.

  golden.py check FILE.jsonl...
      Parses every line and lists the main-fixture lines whose re-encoding
      differs from the original bytes.

DUMP.err is needed for Godot 3 only: dump3.gd marks each item on stderr with
"@@N" and the engine's error messages follow the marker.

NodePath padding: the engines leave the padding bytes of NodePath name and
subname strings uninitialized. zero_nodepath_padding() walks the whole
encoded value (inside Arrays, Dictionaries, typed-container headers and full
Object properties too) and sets exactly those bytes to zero; every other
byte is kept as the engine wrote it.
"""

import json
import re
import struct
import sys


class WalkError(Exception):
    pass


# Fixed payload sizes. "r" = real (4 bytes, 8 with the 64-bit flag in 4.x).
FIXED4 = {
    1: (4, 0), 5: (0, 2), 6: (8, 0), 7: (0, 4), 8: (16, 0), 9: (0, 3), 10: (12, 0),
    11: (0, 6), 12: (0, 4), 13: (16, 0), 14: (0, 4), 15: (0, 4), 16: (0, 6), 17: (0, 9),
    18: (0, 12), 19: (0, 16), 20: (16, 0), 23: (8, 0), 25: (0, 0),
}
FIXED3 = {
    1: 4, 5: 8, 6: 16, 7: 12, 8: 24, 9: 16, 10: 16, 11: 24, 12: 36, 13: 48, 14: 16, 16: 0,
}


class Walker:
    def __init__(self, data, family):
        self.b = bytearray(data)
        self.family = family
        self.nonzero_pad = []  # offsets of non-zero padding outside NodePaths

    def u32(self, off):
        if off + 4 > len(self.b):
            raise WalkError("truncated at %d" % off)
        return struct.unpack_from("<I", self.b, off)[0]

    def need(self, off, n):
        if n < 0 or off + n > len(self.b):
            raise WalkError("truncated at %d (need %d)" % (off, n))

    def string(self, off, zero_pad=False, note_pad=True):
        n = self.u32(off)
        if n & 0x80000000:
            raise WalkError("negative string length at %d" % off)
        pad = (-n) % 4
        self.need(off + 4, n + pad)
        start = off + 4 + n
        for i in range(start, start + pad):
            if zero_pad:
                self.b[i] = 0
            elif note_pad and self.b[i] != 0:
                self.nonzero_pad.append(i)
        return off + 4 + n + pad

    def container_type(self, off, kind):
        if kind == 0:
            return off
        if kind == 1:
            self.need(off, 4)
            return off + 4
        return self.string(off)

    def value(self, off, depth=0):
        if depth > 5000:
            raise WalkError("too deep")
        header = self.u32(off)
        t = header & 0xFF
        flag64 = bool(header & (1 << 16))
        off += 4
        if self.family == 4:
            return self.value4(off, t, header, flag64, depth)
        return self.value3(off, t, header, flag64, depth)

    def nodepath(self, off):
        names = self.u32(off)
        if not names & 0x80000000:
            raise WalkError("old-format NodePath at %d" % off)
        names &= 0x7FFFFFFF
        subs = self.u32(off + 4)
        flags = self.u32(off + 8)
        count = names + subs + (1 if flags & 2 else 0)
        off += 12
        for _ in range(count):
            off = self.string(off, zero_pad=True)
        return off

    def packed_strings(self, off):
        n = self.u32(off)
        off += 4
        if n & 0x80000000:
            return off
        for _ in range(n):
            off = self.string(off)
        return off

    def byte_array(self, off):
        n = self.u32(off)
        if n & 0x80000000:
            raise WalkError("negative count")
        pad = (-n) % 4
        self.need(off + 4, n + pad)
        for i in range(off + 4 + n, off + 4 + n + pad):
            if self.b[i] != 0:
                self.nonzero_pad.append(i)
        return off + 4 + n + pad

    def counted(self, off, size):
        n = self.u32(off)
        if n & 0x80000000:
            raise WalkError("negative count")
        self.need(off + 4, n * size)
        return off + 4 + n * size

    def obj(self, off, flag64, depth):
        if flag64:
            self.need(off, 8)
            return off + 8
        cls_len = self.u32(off)
        off = self.string(off)
        if cls_len == 0:
            return off
        n = self.u32(off)
        off += 4
        if n & 0x80000000:
            return off
        for _ in range(n):
            off = self.string(off)
            off = self.value(off, depth + 1)
        return off

    def value4(self, off, t, header, flag64, depth):
        real = 8 if flag64 else 4
        if t == 0:
            return off
        if t in (2, 3):
            n = 8 if flag64 else 4
            self.need(off, n)
            return off + n
        if t in FIXED4:
            fixed, reals = FIXED4[t]
            n = fixed + reals * real
            self.need(off, n)
            return off + n
        if t in (4, 21):
            return self.string(off)
        if t == 22:
            return self.nodepath(off)
        if t == 24:
            return self.obj(off, flag64, depth)
        if t == 26:
            off = self.string(off)
            self.need(off, 8)
            return off + 8
        if t == 27:
            off = self.container_type(off, (header >> 16) & 3)
            off = self.container_type(off, (header >> 18) & 3)
            n = self.u32(off) & 0x7FFFFFFF
            off += 4
            for _ in range(n):
                off = self.value(off, depth + 1)
                off = self.value(off, depth + 1)
            return off
        if t == 28:
            off = self.container_type(off, (header >> 16) & 3)
            n = self.u32(off) & 0x7FFFFFFF
            off += 4
            for _ in range(n):
                off = self.value(off, depth + 1)
            return off
        if t == 29:
            return self.byte_array(off)
        sizes = {30: 4, 31: 8, 32: 4, 33: 8, 35: 2 * real, 36: 3 * real, 37: 16, 38: 4 * real}
        if t in sizes:
            return self.counted(off, sizes[t])
        if t == 34:
            return self.packed_strings(off)
        raise WalkError("unknown type %d" % t)

    def value3(self, off, t, header, flag64, depth):
        if t == 0:
            return off
        if t in (2, 3):
            n = 8 if flag64 else 4
            self.need(off, n)
            return off + n
        if t in FIXED3:
            self.need(off, FIXED3[t])
            return off + FIXED3[t]
        if t == 4:
            return self.string(off)
        if t == 15:
            return self.nodepath(off)
        if t == 17:
            return self.obj(off, flag64, depth)
        if t == 18:
            n = self.u32(off) & 0x7FFFFFFF
            off += 4
            for _ in range(n):
                off = self.value(off, depth + 1)
                off = self.value(off, depth + 1)
            return off
        if t == 19:
            n = self.u32(off) & 0x7FFFFFFF
            off += 4
            for _ in range(n):
                off = self.value(off, depth + 1)
            return off
        if t == 20:
            return self.byte_array(off)
        sizes = {21: 4, 22: 4, 24: 8, 25: 12, 26: 16}
        if t in sizes:
            return self.counted(off, sizes[t])
        if t == 23:
            return self.packed_strings(off)
        raise WalkError("unknown type %d" % t)


def zero_nodepath_padding(hexstr, family, what=""):
    """Returns hexstr with NodePath padding zeroed (and warns on stderr about
    anything unexpected: non-zero padding elsewhere, trailing bytes)."""
    if hexstr == "":
        return hexstr
    w = Walker(bytes.fromhex(hexstr), family)
    sys.setrecursionlimit(20000)
    try:
        end = w.value(0)
    except WalkError as e:
        print("golden.py: cannot walk %s: %s" % (what, e), file=sys.stderr)
        return hexstr
    if end != len(w.b):
        print("golden.py: %s: %d trailing bytes after the value" % (what, len(w.b) - end), file=sys.stderr)
    if w.nonzero_pad:
        print("golden.py: %s: non-zero padding outside NodePaths at %s" % (what, w.nonzero_pad), file=sys.stderr)
    return w.b.hex()


def read_encoded(path):
    """encode.sh output -> list of (expr, objects, hex). ERROR lines are
    reported on stderr and left out."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            if line.startswith("ERROR\t"):
                print("golden.py: engine could not evaluate: %s" % line[6:], file=sys.stderr)
                continue
            hexstr, expr = line.split("\t", 1)
            rows.append((expr, expr.startswith("obj:"), hexstr))
    return rows


def squeeze(messages):
    """Collapses runs of identical messages (deep nesting repeats one message
    per level) into "message (xN)", and runs of a repeated pair or triple of
    messages (nesting that alternates between container types) into
    "(first | second) (xN)"."""
    out = []
    for m in messages:
        if out and out[-1][0] == m:
            out[-1][1] += 1
        else:
            out.append([m, 1])
    runs = [m if n == 1 else "%s (x%d)" % (m, n) for m, n in out]
    res = []
    i = 0
    while i < len(runs):
        best = None
        for k in (2, 3):
            block = runs[i:i + k]
            if len(block) < k:
                break
            n = 1
            while runs[i + n * k:i + (n + 1) * k] == block:
                n += 1
            if n >= 3 and (best is None or n * k > best[0] * best[1]):
                best = (n, k)
        if best:
            n, k = best
            res.append("(%s) (x%d)" % (" | ".join(runs[i:i + k]), n))
            i += n * k
        else:
            res.append(runs[i])
            i += 1
    return res


def read_cases(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            name, mode, hexstr = fields[:3]
            group = fields[3] if len(fields) > 3 else ""
            rows.append((name, mode == "obj", hexstr, group))
    return rows


def read_dump(path, err_path, family):
    """Dump script output -> list of dicts with ok, errors, type, text,
    reencoded, used (4.x)."""
    out = []
    # surrogateescape: Godot 3 keeps surrogates and code points above
    # U+10FFFF in decoded strings and prints them as invalid UTF-8.
    # Lines that are not JSON are engine messages printed on stdout while the
    # next item was decoded (Godot 3's UTF-8 parser prints "Unicode error:
    # ..." there); they are added to that item's messages.
    pending = []
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            if not line.startswith("{"):
                pending.append(line)
                continue
            d = json.loads(line, strict=False)
            d["stdout_messages"] = pending
            pending = []
            out.append(d)
    if family == 3:
        failed, messages = parse_stderr3(err_path)
        for i, d in enumerate(out):
            if d.get("n") != i:
                raise SystemExit("golden.py: dump3 output out of order at %d" % i)
            d["errors"] = d["stdout_messages"] + messages.get(i, [])
            d["ok"] = i not in failed
    for d in out:
        if family == 4:
            d["errors"] = d["stdout_messages"] + d["errors"]
        d["errors"] = squeeze(d["errors"])
        if "text_hex" in d:
            raw = bytes.fromhex(d["text_hex"])
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                # Not representable as a JSON string: keep the exact bytes
                # in text_hex and a readable approximation in text.
                d["text"] = raw.decode("utf-8", "replace")
                d["keep_text_hex"] = True
                continue
            if text != d["text"]:
                print("golden.py: JSON text differs from text_hex: %r vs %r" % (d["text"], text), file=sys.stderr)
            d["text"] = text
    return out


def parse_stderr3(path):
    """dump3.gd writes "@@N" to stderr before decoding item N. Collects the
    engine messages per item; an item failed when a SCRIPT ERROR (from the
    bytes2var call) follows its marker."""
    failed = set()
    messages = {}
    item = None
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [l.rstrip("\n") for l in f]
    for i, line in enumerate(lines):
        m = re.match(r"^@@(\d+|END)$", line)
        if m:
            item = None if m.group(1) == "END" else int(m.group(1))
            continue
        if item is None or not line.strip():
            continue
        at = re.match(r"^\s+At: (.*?)\.?$", line)
        if at:
            msgs = messages.get(item)
            if msgs and msgs[-1].startswith("ERROR: "):
                msgs[-1] += " [%s]" % at.group(1)
            continue
        if line.startswith("SCRIPT ERROR: "):
            failed.add(item)
            line = re.sub(r"^SCRIPT ERROR: _decode: ", "SCRIPT ERROR: ", line)
        messages.setdefault(item, []).append(line)
    return failed, messages


def prep(family, enc_path):
    for expr, objects, hexstr in read_encoded(enc_path):
        h = zero_nodepath_padding(hexstr, family, expr)
        print(("obj:" if objects else "hex:") + h)


def main_fixture(family, enc_path, dump_path, err_path):
    rows = read_encoded(enc_path)
    dumps = read_dump(dump_path, err_path, family)
    if len(rows) != len(dumps):
        raise SystemExit("golden.py: %d encoded lines but %d decoded" % (len(rows), len(dumps)))
    for (expr, objects, hexstr), d in zip(rows, dumps):
        h = zero_nodepath_padding(hexstr, family, expr)
        if not d["ok"]:
            print("golden.py: engine could not decode its own bytes for %s: %s" % (expr, d["errors"]), file=sys.stderr)
            continue
        rec = {
            "expr": expr,
            "objects": objects,
            "hex": h,
            "type": d["type"],
            "text": d["text"],
        }
        if d.get("keep_text_hex"):
            rec["text_hex"] = d["text_hex"]
        rec["reencoded"] = zero_nodepath_padding(d["reencoded"], family, "re-encoded " + expr)
        if family == 4:
            rec["used"] = d["used"]
        if d["errors"]:
            rec["messages"] = d["errors"]
        print(json.dumps(rec, ensure_ascii=False))


def cases_in(cases_path):
    for name, objects, hexstr, group in read_cases(cases_path):
        print(("obj:" if objects else "hex:") + hexstr)


def cases_fixture(family, cases_path, dump_path, err_path):
    rows = read_cases(cases_path)
    dumps = read_dump(dump_path, err_path, family)
    if len(rows) != len(dumps):
        raise SystemExit("golden.py: %d cases but %d verdicts" % (len(rows), len(dumps)))
    for (name, objects, hexstr, group), d in zip(rows, dumps):
        rec = {"name": name}
        if group:
            rec["group"] = group
        rec.update({"hex": hexstr, "objects": objects, "ok": d["ok"]})
        if d["ok"]:
            rec["type"] = d["type"]
            rec["text"] = d["text"]
            if d.get("keep_text_hex"):
                rec["text_hex"] = d["text_hex"]
            rec["reencoded"] = zero_nodepath_padding(d["reencoded"], family, "re-encoded " + name)
            if family == 4:
                rec["used"] = d["used"]
            if d["errors"]:
                rec["messages"] = d["errors"]
        else:
            rec["error"] = " | ".join(d["errors"])
        print(json.dumps(rec, ensure_ascii=False))


MAIN_KEYS = ["expr", "objects", "hex", "type", "text", "reencoded"]


def check(paths):
    """Parses every line of the fixture files and prints a summary: line
    counts, and the main-fixture lines whose re-encoding differs from the
    engine's first encoding."""
    bad = 0
    for path in paths:
        n = 0
        diffs = []
        with open(path, encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                try:
                    d = json.loads(line)
                except ValueError as e:
                    print("%s:%d: not JSON: %s" % (path, lineno, e), file=sys.stderr)
                    bad += 1
                    continue
                n += 1
                if "expr" in d:
                    keys = [k for k in d if k in MAIN_KEYS]
                    if keys != MAIN_KEYS:
                        print("%s:%d: keys %s" % (path, lineno, list(d)), file=sys.stderr)
                        bad += 1
                    if "used" in d and d["used"] != len(d["hex"]) // 2:
                        print("%s:%d: used %d of %d bytes" % (path, lineno, d["used"], len(d["hex"]) // 2), file=sys.stderr)
                    if d["hex"] != d["reencoded"]:
                        diffs.append(d["expr"])
        print("%s: %d lines" % (path, n), file=sys.stderr)
        for e in diffs:
            print("  re-encoding differs: %s" % e, file=sys.stderr)
    if bad:
        raise SystemExit("golden.py: %d bad lines" % bad)


def main(argv):
    if len(argv) < 2:
        raise SystemExit(__doc__)
    cmd = argv[1]
    if cmd == "prep":
        prep(int(argv[2]), argv[3])
    elif cmd == "main":
        main_fixture(int(argv[2]), argv[3], argv[4], argv[5] if len(argv) > 5 else None)
    elif cmd == "cases-in":
        cases_in(argv[2])
    elif cmd == "cases":
        cases_fixture(int(argv[2]), argv[3], argv[4], argv[5] if len(argv) > 5 else None)
    elif cmd == "check":
        check(argv[2:])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
