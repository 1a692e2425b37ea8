#!/usr/bin/env python3
"""Malformed and unusual inputs for the Godot decoders.

    python3 gen_decode_cases.py 4 > cases4.tsv     # Godot 4.x type ids
    python3 gen_decode_cases.py 3 > cases3.tsv     # Godot 3.x type ids
    python3 gen_decode_cases.py 3 MAIN3.jsonl MAIN4.jsonl > cases3.tsv

Prints one case a line: NAME <TAB> obj|raw <TAB> HEX <TAB> GROUP. "obj"
means the bytes are decoded with objects allowed (bytes_to_var_with_objects /
bytes2var(b, true)), "raw" without. HEX may be empty (the empty input).
GROUP sorts the cases for reporting (truncated, huge-count, bad-type, flags,
utf8, string, nodepath, packed, container, typed, object, depth, trailing,
misc). Names are unique within a family.

The first part is hand-written cases. The rest are systematic mutations of
the engine's own encodings, read from godotN.jsonl beside this script (or
the file given as the second argument; Godot 3 also reads Godot 4's
encodings, from the third argument or godot4.jsonl, to feed it Godot 4's
typed containers). generate.sh feeds the cases to the engines and records
their verdicts in godot4-decode.jsonl / godot3-decode.jsonl.
"""

import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

FLAG64 = 1 << 16

# Type ids per family.
T4 = dict(
    NIL=0, BOOL=1, INT=2, FLOAT=3, STRING=4, VECTOR2=5, VECTOR2I=6, RECT2=7, RECT2I=8,
    VECTOR3=9, VECTOR3I=10, TRANSFORM2D=11, VECTOR4=12, VECTOR4I=13, PLANE=14,
    QUATERNION=15, AABB=16, BASIS=17, TRANSFORM3D=18, PROJECTION=19, COLOR=20,
    STRING_NAME=21, NODE_PATH=22, RID=23, OBJECT=24, CALLABLE=25, SIGNAL=26,
    DICTIONARY=27, ARRAY=28, PACKED_BYTE_ARRAY=29, PACKED_INT32_ARRAY=30,
    PACKED_INT64_ARRAY=31, PACKED_FLOAT32_ARRAY=32, PACKED_FLOAT64_ARRAY=33,
    PACKED_STRING_ARRAY=34, PACKED_VECTOR2_ARRAY=35, PACKED_VECTOR3_ARRAY=36,
    PACKED_COLOR_ARRAY=37, PACKED_VECTOR4_ARRAY=38, MAX=39,
)
T3 = dict(
    NIL=0, BOOL=1, INT=2, FLOAT=3, STRING=4, VECTOR2=5, RECT2=6, VECTOR3=7,
    TRANSFORM2D=8, PLANE=9, QUAT=10, AABB=11, BASIS=12, TRANSFORM=13, COLOR=14,
    NODE_PATH=15, RID=16, OBJECT=17, DICTIONARY=18, ARRAY=19, POOL_BYTE_ARRAY=20,
    POOL_INT_ARRAY=21, POOL_REAL_ARRAY=22, POOL_STRING_ARRAY=23,
    POOL_VECTOR2_ARRAY=24, POOL_VECTOR3_ARRAY=25, POOL_COLOR_ARRAY=26, MAX=27,
)

# Fixed payload sizes (bytes after the header, single precision).
FIXED4 = [
    ("bool", "BOOL", 4), ("int", "INT", 4), ("float", "FLOAT", 4), ("Vector2", "VECTOR2", 8),
    ("Vector2i", "VECTOR2I", 8), ("Rect2", "RECT2", 16), ("Rect2i", "RECT2I", 16),
    ("Vector3", "VECTOR3", 12), ("Vector3i", "VECTOR3I", 12),
    ("Transform2D", "TRANSFORM2D", 24), ("Vector4", "VECTOR4", 16),
    ("Vector4i", "VECTOR4I", 16), ("Plane", "PLANE", 16), ("Quaternion", "QUATERNION", 16),
    ("AABB", "AABB", 24), ("Basis", "BASIS", 36), ("Transform3D", "TRANSFORM3D", 48),
    ("Projection", "PROJECTION", 64), ("Color", "COLOR", 16), ("RID", "RID", 8),
]
FIXED3 = [
    ("bool", "BOOL", 4), ("int", "INT", 4), ("float", "FLOAT", 4), ("Vector2", "VECTOR2", 8),
    ("Rect2", "RECT2", 16), ("Vector3", "VECTOR3", 12), ("Transform2D", "TRANSFORM2D", 24),
    ("Plane", "PLANE", 16), ("Quat", "QUAT", 16), ("AABB", "AABB", 24), ("Basis", "BASIS", 36),
    ("Transform", "TRANSFORM", 48), ("Color", "COLOR", 16),
]


def u32(n):
    return struct.pack("<I", n & 0xFFFFFFFF)


def i64(n):
    return struct.pack("<q", n)


def f32(x):
    return struct.pack("<f", x)


def f64(x):
    return struct.pack("<d", x)


def pad(b):
    return b + b"\0" * ((-len(b)) % 4)


def sstr(b):
    """A "str" payload: u32 length, bytes, zero padding."""
    if isinstance(b, str):
        b = b.encode("utf-8")
    return u32(len(b)) + pad(b)


def ramp(n):
    """n payload bytes that are valid f32/i32 data (small integers)."""
    out = b""
    while len(out) < n:
        out += f32(len(out) // 4 + 1)
    return out[:n]


class Cases:
    def __init__(self, family):
        self.family = family
        self.T = T4 if family == 4 else T3
        self.rows = []
        self.names = set()
        self.group = "misc"

    def h(self, tname, flags=0):
        return u32(self.T[tname] | flags)

    def add(self, name, data, objects=False, group=None):
        if name in self.names:
            raise SystemExit("gen_decode_cases.py: duplicate case name %r" % name)
        self.names.add(name)
        self.rows.append((name, "obj" if objects else "raw", data.hex(), group or self.group))

    def int_(self, n):
        return self.h("INT") + u32(n)

    def string(self, b):
        return self.h("STRING") + sstr(b)

    def array(self, items, flags=0, typedata=b""):
        return self.h("ARRAY", flags) + typedata + u32(len(items)) + b"".join(items)

    def dictionary(self, pairs, flags=0, typedata=b""):
        body = b"".join(k + v for k, v in pairs)
        return self.h("DICTIONARY", flags) + typedata + u32(len(pairs)) + body

    def resource(self, props):
        body = b"".join(sstr(k) + v for k, v in props)
        return self.h("OBJECT") + sstr("Resource") + u32(len(props)) + body


def build(family, main_path=None, other_path=None):
    c = Cases(family)
    four = family == 4
    T = c.T
    pba = "PACKED_BYTE_ARRAY" if four else "POOL_BYTE_ARRAY"
    pia = "PACKED_INT32_ARRAY" if four else "POOL_INT_ARRAY"
    pfa = "PACKED_FLOAT32_ARRAY" if four else "POOL_REAL_ARRAY"
    psa = "PACKED_STRING_ARRAY" if four else "POOL_STRING_ARRAY"
    pv2 = "PACKED_VECTOR2_ARRAY" if four else "POOL_VECTOR2_ARRAY"
    pca = "PACKED_COLOR_ARRAY" if four else "POOL_COLOR_ARRAY"

    # --- too short for a header, bad type bytes
    c.group = "truncated"
    c.add("empty input", b"")
    c.add("1 byte", b"\x02")
    c.add("2 bytes", b"\x02\x00")
    c.add("3 bytes", b"\x02\x00\x00")
    c.group = "bad-type"
    c.add("type byte = VARIANT_MAX (%d)" % T["MAX"], u32(T["MAX"]))
    c.add("type byte = 0xFF", u32(0xFF))
    if four:
        c.add("type 38 PackedVector4Array (new in 4.3), empty", c.h("PACKED_VECTOR4_ARRAY") + u32(0))

    # --- header bits the type does not use
    c.group = "flags"
    c.add("int with header byte 1 = 0x01", u32(T["INT"] | 0x0100) + u32(1))
    c.add("nil with header byte 1 = 0xFF", u32(0xFF00))
    c.add("int 1 with the 64-bit flag (8-byte payload)", c.h("INT", FLAG64) + i64(1))
    c.add("int with the 64-bit flag but a 4-byte payload", c.h("INT", FLAG64) + u32(1))
    c.add("int with flag bit 17 set", c.h("INT", 1 << 17) + u32(1))
    c.add("int with all flag bits 16..31 set except 16", u32(T["INT"] | 0xFFFE0000) + u32(7))
    c.add("float 2.5 with the 64-bit flag (f64 payload)", c.h("FLOAT", FLAG64) + f64(2.5))
    c.add("nil with the 64-bit flag", c.h("NIL", FLAG64))
    c.add("string with flag bit 16", c.h("STRING", FLAG64) + sstr("a"))
    c.add("bool with flag bit 16", c.h("BOOL", FLAG64) + u32(1))
    if four:
        c.add("Vector2 with the 64-bit flag, f64 components", c.h("VECTOR2", FLAG64) + f64(1.5) + f64(-2))
        c.add("Vector2 with the 64-bit flag, only f32 components", c.h("VECTOR2", FLAG64) + f32(1.5) + f32(-2))
        c.add("Color with the 64-bit flag (Color is always f32)", c.h("COLOR", FLAG64) + f32(0.5) + f32(1) + f32(0) + f32(1))
        c.add("Vector2i with the 64-bit flag (ints are always i32)", c.h("VECTOR2I", FLAG64) + u32(1) + u32(2))
    else:
        c.add("Vector2 with flag bit 16 (3.x has no f64 vectors)", c.h("VECTOR2", FLAG64) + f32(1.5) + f32(-2))
    c.add("bool word = 2", c.h("BOOL") + u32(2))
    c.add("bool word = 0xFFFFFFFF", c.h("BOOL") + u32(0xFFFFFFFF))

    # --- truncated payload of every fixed-size type
    c.group = "truncated"
    for name, tname, size in (FIXED4 if four else FIXED3):
        c.add("truncated %s: %d of %d payload bytes" % (name, size - 4, size), c.h(tname) + ramp(size - 4))
    c.add("truncated int64: 4 of 8 payload bytes", c.h("INT", FLAG64) + u32(1))
    c.add("truncated float64: 7 of 8 payload bytes", c.h("FLOAT", FLAG64) + f64(0.1)[:7])
    c.add("truncated Vector2: 7 of 8 payload bytes", c.h("VECTOR2") + ramp(7))
    if four:
        c.add("truncated Signal: name but no object id", c.h("SIGNAL") + sstr("ready"))
        c.add("truncated Signal: 4 of 8 object id bytes", c.h("SIGNAL") + sstr("ready") + u32(1))
        c.add("Signal with name and object id 0", c.h("SIGNAL") + sstr("ready") + i64(0), group="misc")
        c.add("Callable (no payload)", c.h("CALLABLE"), group="misc")
    else:
        c.add("RID (header only)", c.h("RID"), group="misc")
        c.add("RID followed by 8 bytes", c.h("RID") + i64(13), group="trailing")

    # --- strings
    c.group = "string"
    c.add("string length -1", c.h("STRING") + u32(0xFFFFFFFF) + b"abcd", group="huge-count")
    c.add("string length 0x7FFFFFFF", c.h("STRING") + u32(0x7FFFFFFF) + b"abcd", group="huge-count")
    c.add("string length 100 with 4 bytes of data", c.h("STRING") + u32(100) + b"abcd", group="huge-count")
    c.add("string length 3, padding missing", c.h("STRING") + u32(3) + b"abc", group="truncated")
    c.add("string length 5, 2 of 3 padding bytes", c.h("STRING") + u32(5) + b"abcde\0\0", group="truncated")
    c.add("string length 3, non-zero padding byte", c.h("STRING") + u32(3) + b"abc\xff")
    c.add("string, no length word", c.h("STRING"), group="truncated")
    for name, raw in [
        ("lone continuation byte 80", b"a\x80b"),
        ("overlong NUL C0 80", b"a\xc0\x80b"),
        ("overlong 2-byte C1 BF", b"\xc1\xbf"),
        ("overlong 3-byte E0 80 AF ('/')", b"\xe0\x80\xaf"),
        ("surrogate ED A0 80 (U+D800)", b"\xed\xa0\x80"),
        ("surrogate pair as CESU-8 ED A0 BD ED B8 80", b"\xed\xa0\xbd\xed\xb8\x80"),
        ("above U+10FFFF F4 90 80 80", b"\xf4\x90\x80\x80"),
        ("5-byte sequence F8 88 80 80 80", b"\xf8\x88\x80\x80\x80"),
        ("byte FE", b"a\xfe"),
        ("byte FF", b"\xffa"),
        ("truncated 3-byte sequence E6 97 at end", b"a\xe6\x97"),
        ("truncated 2-byte sequence C3 before ASCII", b"\xc3a"),
    ]:
        c.add("invalid UTF-8: " + name, c.string(raw), group="utf8")
    c.add("string with a leading BOM EF BB BF", c.string(b"\xef\xbb\xbfabc"))
    c.add("string with a BOM in the middle", c.string(b"a\xef\xbb\xbfb"))
    c.add("string with a NUL inside (a NUL b)", c.string(b"a\0b"))
    c.add("string with a trailing NUL", c.string(b"ab\0"))
    c.add("string of one NUL", c.string(b"\0"))
    c.add("valid 4-byte UTF-8 U+10FFFF", c.string(b"\xf4\x8f\xbf\xbf"), group="utf8")
    if four:
        c.add("StringName with padding missing", c.h("STRING_NAME") + u32(2) + b"ab")
        c.add("StringName with invalid UTF-8", c.h("STRING_NAME") + sstr(b"\xff"), group="utf8")

    # --- NodePath
    c.group = "nodepath"
    np = c.h("NODE_PATH")
    c.add("NodePath old format (bit 31 clear): length 4 + 'root'", np + sstr("root"))
    c.add("NodePath old format, length 0", np + u32(0))
    c.add("NodePath with the obsolete property flag (bit 1): a:b plus extra subname c",
          np + u32(0x80000001) + u32(1) + u32(2) + sstr("a") + sstr("b") + sstr("c"))
    c.add("NodePath flags = 3 (absolute + property): /a + extra subname c",
          np + u32(0x80000001) + u32(0) + u32(3) + sstr("a") + sstr("c"))
    c.add("NodePath with unknown flag bit 2", np + u32(0x80000001) + u32(0) + u32(4) + sstr("a"))
    c.add("NodePath absolute with no names", np + u32(0x80000000) + u32(0) + u32(1))
    c.add("NodePath name count 2, one name present", np + u32(0x80000002) + u32(0) + u32(0) + sstr("a"))
    c.add("NodePath header truncated (8 of 12 bytes)", np + u32(0x80000001) + u32(0))
    c.add("NodePath with non-zero padding in a name", np + u32(0x80000001) + u32(0) + u32(0) + u32(1) + b"a\xaa\xbb\xcc")

    # --- Array and Dictionary counts
    c.group = "container"
    c.add("Array count with bit 31 set ([1])", c.h("ARRAY") + u32(0x80000001) + c.int_(1))
    c.add("Dictionary count with bit 31 set ({1: 2})", c.h("DICTIONARY") + u32(0x80000001) + c.int_(1) + c.int_(2))
    c.add("Array count 5, one element present", c.h("ARRAY") + u32(5) + c.int_(1))
    c.add("Array count 0x7FFFFFFF, no elements", c.h("ARRAY") + u32(0x7FFFFFFF), group="huge-count")
    c.add("Array with no count word", c.h("ARRAY"))
    c.add("Dictionary count 2, one pair present", c.h("DICTIONARY") + u32(2) + c.int_(1) + c.int_(2))
    c.add("Dictionary key without value", c.h("DICTIONARY") + u32(1) + c.int_(1))
    c.add("Dictionary with duplicate keys {'a': 1, 'a': 2}",
          c.dictionary([(c.string("a"), c.int_(1)), (c.string("a"), c.int_(2))]))
    c.add("Dictionary with keys 1 and 1.0",
          c.dictionary([(c.int_(1), c.string("int")), (c.h("FLOAT") + f32(1.0), c.string("float"))]))
    if four:
        c.add("Dictionary with keys &'a' and 'a'",
              c.dictionary([(c.h("STRING_NAME") + sstr("a"), c.int_(1)), (c.string("a"), c.int_(2))]))
    c.add("Array with an invalid element type", c.h("ARRAY") + u32(1) + u32(0xFF), group="bad-type")

    # --- packed arrays
    c.group = "packed"
    c.add("PackedByteArray count 3, final padding missing (top level)", c.h(pba) + u32(3) + b"\x01\x02\x03")
    c.add("PackedByteArray count 3, padding missing, last element of an Array",
          c.array([c.h(pba) + u32(3) + b"\x01\x02\x03"]))
    c.add("PackedByteArray count 3, padding missing, int 1 right after its data, in an Array",
          c.h("ARRAY") + u32(2) + c.h(pba) + u32(3) + b"\x01\x02\x03" + c.int_(1))
    c.add("PackedByteArray count 3, padding byte 0xAA, followed by int 7 in an Array",
          c.h("ARRAY") + u32(2) + c.h(pba) + u32(3) + b"\x01\x02\x03\xaa" + c.int_(7))
    c.add("PackedByteArray count larger than the data", c.h(pba) + u32(9) + b"\x01\x02\x03\x00")
    c.add("PackedByteArray count -1", c.h(pba) + u32(0xFFFFFFFF), group="huge-count")
    c.add("PackedInt32Array count -1", c.h(pia) + u32(0xFFFFFFFF) + u32(1), group="huge-count")
    c.add("PackedInt32Array count 3, one element present", c.h(pia) + u32(3) + u32(1))
    c.add("PackedInt32Array count 0x40000001 (size overflows int32)", c.h(pia) + u32(0x40000001) + u32(1), group="huge-count")
    c.add("PackedFloat32Array count 2, 7 bytes", c.h(pfa) + u32(2) + f32(1) + f32(2)[:3])
    c.add("PackedVector2Array count -1", c.h(pv2) + u32(0xFFFFFFFF), group="huge-count")
    c.add("PackedColorArray count 1, 12 of 16 bytes", c.h(pca) + u32(1) + ramp(12))
    c.add("packed array with no count word", c.h(pia))
    if four:
        c.add("PackedInt64Array count -1", c.h("PACKED_INT64_ARRAY") + u32(0xFFFFFFFF), group="huge-count")
        c.add("PackedInt64Array count 2, 12 bytes", c.h("PACKED_INT64_ARRAY") + u32(2) + i64(1) + u32(2))
        c.add("PackedFloat64Array count 0x20000000 (size overflows int32)", c.h("PACKED_FLOAT64_ARRAY") + u32(0x20000000), group="huge-count")
        c.add("PackedVector4Array count 1, 12 of 16 bytes", c.h("PACKED_VECTOR4_ARRAY") + u32(1) + ramp(12))
    c.add("PackedStringArray count -1", c.h(psa) + u32(0xFFFFFFFF))
    c.add("PackedStringArray count -1 followed by data", c.h(psa) + u32(0xFFFFFFFF) + u32(2) + b"a\0\0\0")
    c.add("PackedStringArray element without NUL (length 1, 'a')", c.h(psa) + u32(1) + u32(1) + pad(b"a"))
    c.add("PackedStringArray element with NUL in the middle", c.h(psa) + u32(1) + u32(4) + b"a\0b\0")
    c.add("PackedStringArray count 2, one element present", c.h(psa) + u32(2) + u32(2) + b"a\0\0\0")
    c.add("PackedStringArray element with invalid UTF-8", c.h(psa) + u32(1) + u32(2) + b"\xff\0\0\0", group="utf8")
    c.add("PackedStringArray element length 0 (no NUL)", c.h(psa) + u32(1) + u32(0))

    # --- trailing bytes
    c.group = "trailing"
    c.add("int 1 followed by 4 trailing bytes", c.int_(1) + b"\xff\xff\xff\xff")
    c.add("int 1 followed by 1 trailing byte", c.int_(1) + b"\x00")
    c.add("nil followed by a whole second value", c.h("NIL") + c.int_(5))

    # --- objects
    c.group = "object"
    res = c.resource([("resource_name", c.string("x"))])
    c.add("full object Resource without allow-objects", res)
    c.add("full object Resource with allow-objects", res, objects=True)
    c.add("full object, unknown property ignored",
          c.resource([("no_such_property", c.int_(1)), ("resource_name", c.string("y"))]), objects=True)
    c.add("full object, property value of the wrong type",
          c.resource([("resource_name", c.int_(5))]), objects=True)
    c.add("full object, negative property count",
          c.h("OBJECT") + sstr("Resource") + u32(0xFFFFFFFF), objects=True)
    c.add("full object, property count 2, one present",
          c.h("OBJECT") + sstr("Resource") + u32(2) + sstr("resource_name") + c.string("x"), objects=True)
    c.add("full object of an unknown class", c.h("OBJECT") + sstr("NoSuchClass") + u32(0), objects=True)
    c.add("full object with empty class name (null) without allow-objects", c.h("OBJECT") + u32(0))
    c.add("full object with empty class name (null) with allow-objects", c.h("OBJECT") + u32(0), objects=True)
    c.add("full object, class name truncated", c.h("OBJECT") + u32(8) + b"Reso", objects=True)
    if four:
        c.add("full object with script = 'res://nope.gd'",
              c.resource([("script", c.string("res://nope.gd"))]), objects=True)
        c.add("full object with script = 5",
              c.resource([("script", c.int_(5))]), objects=True)
        c.add("full object of a class that cannot be instantiated (Script)",
              c.h("OBJECT") + sstr("Script") + u32(0), objects=True)
    c.add("object as ID 0", c.h("OBJECT", FLAG64) + i64(0))
    c.add("object as ID 13", c.h("OBJECT", FLAG64) + i64(13))
    c.add("object as ID 13 with allow-objects", c.h("OBJECT", FLAG64) + i64(13), objects=True)
    c.add("object as ID, 4 of 8 id bytes", c.h("OBJECT", FLAG64) + u32(13))

    # --- typed containers (4.3+ arrays, 4.4+ dictionaries)
    c.group = "typed"
    if four:
        def typed_array(kind_data, items, kind=1):
            return c.array(items, flags=kind << 16, typedata=kind_data)
        c.add("typed Array, builtin type 0 (Nil)", typed_array(u32(0), [c.int_(1)]))
        c.add("typed Array, builtin type 38 (PackedVector4Array), empty", typed_array(u32(38), []))
        c.add("typed Array, builtin type 39 (VARIANT_MAX)", typed_array(u32(39), []))
        c.add("typed Array, builtin type 255", typed_array(u32(255), []))
        c.add("typed Array, builtin type 0x102 (int in the low byte)", typed_array(u32(0x102), [c.int_(1)]))
        c.add("typed Array, type data missing", c.h("ARRAY", 1 << 16))
        c.add("Array[int] holding a String", typed_array(u32(2), [c.int_(1), c.string("x"), c.int_(3)]))
        c.add("Array[int] holding 2.5", typed_array(u32(2), [c.h("FLOAT") + f32(2.5)]))
        c.add("Array[int] holding null", typed_array(u32(2), [c.h("NIL"), c.int_(4)]))
        c.add("Array[float] holding int 1", typed_array(u32(3), [c.int_(1)]))
        c.add("Array[String] holding StringName", typed_array(u32(4), [c.h("STRING_NAME") + sstr("s")]))
        c.add("Array[Vector2] holding Vector2i", typed_array(u32(5), [c.h("VECTOR2I") + u32(1) + u32(2)]))
        c.add("Array[Object] (builtin 24), empty", typed_array(u32(24), []))
        c.add("Array of class Node, without allow-objects", typed_array(sstr("Node"), [], kind=2))
        c.add("Array of class Node, with allow-objects", typed_array(sstr("Node"), [], kind=2), objects=True)
        c.add("Array of class NoSuchClass, with allow-objects", typed_array(sstr("NoSuchClass"), [], kind=2), objects=True)
        c.add("Array of script res://x.gd, without allow-objects", typed_array(sstr("res://x.gd"), [], kind=3))
        c.add("Array of script res://x.gd, with allow-objects", typed_array(sstr("res://x.gd"), [], kind=3), objects=True)
        c.add("Array of script 'x.gd' (no res://), with allow-objects", typed_array(sstr("x.gd"), [], kind=3), objects=True)

        def typed_dict(kflag, vflag, typedata, pairs):
            return c.dictionary(pairs, flags=(kflag << 16) | (vflag << 18), typedata=typedata)
        c.add("Dictionary[int, int] (engine test vector)", typed_dict(1, 1, u32(2) + u32(2), [(c.int_(1), c.int_(2))]))
        c.add("Dictionary[String, int] with an int key", typed_dict(1, 1, u32(4) + u32(2),
              [(c.int_(1), c.int_(2)), (c.string("a"), c.int_(3))]))
        c.add("Dictionary[String, int] with a String value", typed_dict(1, 1, u32(4) + u32(2),
              [(c.string("a"), c.string("v"))]))
        c.add("Dictionary[String, int] with a float value 2.5", typed_dict(1, 1, u32(4) + u32(2),
              [(c.string("a"), c.h("FLOAT") + f32(2.5))]))
        c.add("Dictionary key type builtin 39", typed_dict(1, 0, u32(39), []))
        c.add("Dictionary value type builtin 255", typed_dict(0, 1, u32(255), []))
        c.add("Dictionary value type only (Dictionary[Variant, int])", typed_dict(0, 1, u32(2), [(c.string("k"), c.int_(1))]))
        c.add("Dictionary key type class Node, without allow-objects", typed_dict(2, 0, sstr("Node"), []))
        c.add("Dictionary[int, int] with value type data missing", c.h("DICTIONARY", (1 << 16) | (1 << 18)) + u32(2))
    else:
        # Godot 4 typed-container bytes fed to Godot 3 (which ignores the flag bits)
        c.add("Godot 4 Array[int]([1]) bytes (type data read as the count)",
              c.h("ARRAY", 1 << 16) + u32(2) + u32(1) + c.int_(1))
        c.add("Godot 4 typed Array with empty type data: count word 0x10000 ignored",
              c.h("ARRAY", 1 << 16) + u32(0))

    # --- nesting depth (Godot 4 refuses values deeper than 1024)
    c.group = "depth"
    def nested_arrays(n, inner):
        return (c.h("ARRAY") + u32(1)) * n + inner

    def nested_dicts(n, inner):
        return (c.h("DICTIONARY") + u32(1) + c.string("k")) * n + inner
    c.add("1024 nested Arrays around int 1 (the int is at depth 1024)", nested_arrays(1024, c.int_(1)))
    c.add("1025 nested Arrays around int 1 (the int is at depth 1025)", nested_arrays(1025, c.int_(1)))
    c.add("1025 nested Arrays, innermost empty (empty Array at depth 1024)", nested_arrays(1024, c.h("ARRAY") + u32(0)))
    c.add("1026 nested Arrays, innermost empty (empty Array at depth 1025)", nested_arrays(1025, c.h("ARRAY") + u32(0)))
    c.add("1024 nested Dictionaries (innermost key and value at depth 1024)", nested_dicts(1024, c.int_(1)))
    c.add("1025 nested Dictionaries (innermost key and value at depth 1025)", nested_dicts(1025, c.int_(1)))
    if four:
        c.add("1024 nested Array[Array] around an empty Array[int] at depth 1024",
              (c.h("ARRAY", 1 << 16) + u32(28) + u32(1)) * 1024 + c.h("ARRAY", 1 << 16) + u32(2) + u32(0))
        c.add("1025 nested Array[Array] around an empty Array[int] at depth 1025",
              (c.h("ARRAY", 1 << 16) + u32(28) + u32(1)) * 1025 + c.h("ARRAY", 1 << 16) + u32(2) + u32(0))
    else:
        c.add("2000 nested Arrays around int 1", nested_arrays(2000, c.int_(1)))

    real = Real(main_path or os.path.join(HERE, "godot%d.jsonl" % family))
    if family == 3:
        real.other = Real(other_path or os.path.join(HERE, "godot4.jsonl")).enc
    systematic(c, real)
    return c.rows


# ---------------------------------------------------------------------------
# Systematic mutations of real engine encodings.
#
# The inputs below start from what the engines themselves wrote (the "hex"
# of godot4.jsonl / godot3.jsonl, looked up by expression) and change them
# in one place each: cut them short, replace a length or count, a type byte,
# header flag bits, string bytes, NodePath words, container type data, or
# wrap them in deep nesting. Layout (below) finds the fields to change by
# walking the encoding.

TNAMES4 = [
    "Nil", "bool", "int", "float", "String", "Vector2", "Vector2i", "Rect2", "Rect2i",
    "Vector3", "Vector3i", "Transform2D", "Vector4", "Vector4i", "Plane", "Quaternion",
    "AABB", "Basis", "Transform3D", "Projection", "Color", "StringName", "NodePath", "RID",
    "Object", "Callable", "Signal", "Dictionary", "Array", "PackedByteArray",
    "PackedInt32Array", "PackedInt64Array", "PackedFloat32Array", "PackedFloat64Array",
    "PackedStringArray", "PackedVector2Array", "PackedVector3Array", "PackedColorArray",
    "PackedVector4Array",
]
TNAMES3 = [
    "Nil", "bool", "int", "float", "String", "Vector2", "Rect2", "Vector3", "Transform2D",
    "Plane", "Quat", "AABB", "Basis", "Transform", "Color", "NodePath", "RID", "Object",
    "Dictionary", "Array", "PoolByteArray", "PoolIntArray", "PoolRealArray",
    "PoolStringArray", "PoolVector2Array", "PoolVector3Array", "PoolColorArray",
]
# Payload sizes of the fixed-size types in single-precision encodings.
FIXED_SIZE = {
    "Nil": 0, "bool": 4, "int": 4, "float": 4, "Vector2": 8, "Vector2i": 8, "Rect2": 16,
    "Rect2i": 16, "Vector3": 12, "Vector3i": 12, "Transform2D": 24, "Vector4": 16,
    "Vector4i": 16, "Plane": 16, "Quaternion": 16, "Quat": 16, "AABB": 24, "Basis": 36,
    "Transform3D": 48, "Transform": 48, "Projection": 64, "Color": 16, "Callable": 0,
}
ELEM_SIZE = {
    "PackedInt32Array": 4, "PoolIntArray": 4, "PackedInt64Array": 8, "PackedFloat32Array": 4,
    "PoolRealArray": 4, "PackedFloat64Array": 8, "PackedVector2Array": 8, "PoolVector2Array": 8,
    "PackedVector3Array": 12, "PoolVector3Array": 12, "PackedColorArray": 16,
    "PoolColorArray": 16, "PackedVector4Array": 16,
}
BYTE_ARRAYS = ("PackedByteArray", "PoolByteArray")
STRING_ARRAYS = ("PackedStringArray", "PoolStringArray")


class Layout:
    """The fields of an encoding the engine wrote: every header (offset,
    type id, path), every u32 length or count (offset, what, path), every
    string (offset of its length word, byte count, what, path), NodePath
    flag words and typed-container builtin type words. A path says where
    the field is inside the value: [1], {key 0}, {value 2}, .resource_name."""

    def __init__(self, data, family):
        self.b = data
        self.family = family
        self.names = TNAMES4 if family == 4 else TNAMES3
        self.headers = []
        self.words = []
        self.strings = []
        self.npflags = []
        self.typewords = []
        self.end = self.value(0, "")
        if self.end != len(data):
            raise SystemExit("gen_decode_cases.py: layout of %s ends at %d of %d" % (data.hex(), self.end, len(data)))

    def u32(self, off):
        return struct.unpack_from("<I", self.b, off)[0]

    def string(self, off, what, path):
        n = self.u32(off)
        self.words.append((off, what + " length", path))
        self.strings.append((off, n, what, path))
        return off + 4 + n + (-n) % 4

    def text(self, off):
        n = self.u32(off)
        return self.b[off + 4:off + 4 + n].decode("utf-8", "replace")

    def ctype(self, off, kind, what, path):
        if kind == 1:
            self.typewords.append((off, what, path))
            return off + 4
        if kind == 2:
            return self.string(off, what + " class name", path)
        if kind == 3:
            return self.string(off, what + " script path", path)
        return off

    def value(self, off, path):
        h = self.u32(off)
        name = self.names[h & 0xFF]
        self.headers.append((off, h & 0xFF, path))
        p = off + 4
        if name in ("int", "float") and h & FLAG64:
            return p + 8
        if name in FIXED_SIZE:
            return p + FIXED_SIZE[name]
        if name == "RID":
            return p + (8 if self.family == 4 else 0)
        if name in ("String", "StringName"):
            return self.string(p, name, path)
        if name == "NodePath":
            names = self.u32(p) & 0x7FFFFFFF
            subs = self.u32(p + 4) + (1 if self.u32(p + 8) & 2 else 0)
            self.words.append((p, "NodePath name count", path))
            self.words.append((p + 4, "NodePath subname count", path))
            self.npflags.append((p + 8, path))
            q = p + 12
            for i in range(names):
                q = self.string(q, "NodePath name %d" % i, path)
            for i in range(subs):
                q = self.string(q, "NodePath subname %d" % i, path)
            return q
        if name == "Object":
            if h & FLAG64:
                return p + 8
            empty = self.u32(p) == 0
            q = self.string(p, "class name", path)
            if empty:
                return q
            n = self.u32(q)
            self.words.append((q, "property count", path))
            q += 4
            for _ in range(n):
                prop = path + "." + self.text(q)
                q = self.string(q, "property name", prop)
                q = self.value(q, prop)
            return q
        if name == "Signal":
            return self.string(p, "Signal name", path) + 8
        if name == "Dictionary":
            q = p
            if self.family == 4:
                q = self.ctype(q, (h >> 16) & 3, "key type", path)
                q = self.ctype(q, (h >> 18) & 3, "value type", path)
            n = self.u32(q) & 0x7FFFFFFF
            self.words.append((q, "Dictionary count", path))
            q += 4
            for i in range(n):
                q = self.value(q, path + "{key %d}" % i)
                q = self.value(q, path + "{value %d}" % i)
            return q
        if name == "Array":
            q = p
            if self.family == 4:
                q = self.ctype(q, (h >> 16) & 3, "element type", path)
            n = self.u32(q) & 0x7FFFFFFF
            self.words.append((q, "Array count", path))
            q += 4
            for i in range(n):
                q = self.value(q, path + "[%d]" % i)
            return q
        if name in BYTE_ARRAYS:
            n = self.u32(p)
            self.words.append((p, name + " count", path))
            return p + 4 + n + (-n) % 4
        if name in ELEM_SIZE:
            n = self.u32(p)
            self.words.append((p, name + " count", path))
            return p + 4 + n * ELEM_SIZE[name]
        if name in STRING_ARRAYS:
            n = self.u32(p)
            self.words.append((p, name + " count", path))
            q = p + 4
            for i in range(n):
                q = self.string(q, name + " element", path + "[%d]" % i)
            return q
        raise SystemExit("gen_decode_cases.py: cannot walk type %d" % (h & 0xFF))


def put32(data, off, v):
    return data[:off] + u32(v) + data[off + 4:]


def put(data, off, raw):
    return data[:off] + raw + data[off + len(raw):]


def short(expr, n=60):
    """An expression as a case name part: long ones are cut."""
    return expr if len(expr) <= n else expr[:n - 3] + "..."


def at(path):
    return " at " + path if path else ""


def hex32(v):
    return "0x%X" % v if v > 9 else str(v)


class Real:
    """The engine's own encodings, by expression."""

    def __init__(self, path):
        self.enc = {}
        with open(path, encoding="utf-8") as f:
            for line in f:
                d = json.loads(line)
                self.enc[d["expr"]] = bytes.fromhex(d["hex"])

    def __call__(self, expr):
        if expr not in self.enc:
            raise SystemExit("gen_decode_cases.py: no engine encoding for %r" % expr)
        return self.enc[expr]


def mode_of(expr):
    return expr.startswith("obj:")


def label(expr):
    return short(expr[4:] + " (with objects)" if expr.startswith("obj:") else expr)


def per_family(four, a, b):
    return a if four else b


def systematic(c, real):
    four = c.family == 4
    T = c.T
    tmax = T["MAX"]
    names = TNAMES4 if four else TNAMES3
    pool = lambda n4, n3: n4 if four else n3

    # --- truncated: every cut after the header of a selection of values of
    # every kind (cuts inside the header are the "1 byte" .. "3 bytes" cases)
    c.group = "truncated"
    trunc = [
        'NodePath("/root/a:b")', '[1, "two", 3.5]', '{"a": 1}',
        'obj:make("Object", {})', 'make("Resource", {"resource_name": "x"})',
        pool("PackedByteArray([0, 1, 127, 128, 255])", "PoolByteArray([0, 1, 127, 128, 255])"),
        pool("PackedInt32Array([-1])", "PoolIntArray([-1])"),
        pool('PackedStringArray(["", "a", "ab", "abc", "abcd"])', 'PoolStringArray(["", "a", "ab", "abc", "abcd"])'),
        pool("PackedVector2Array([Vector2(1, 2)])", "PoolVector2Array([Vector2(1, 2)])"),
    ]
    if four:
        trunc += [
            '&"name"', 'Dictionary({1: 2}, TYPE_INT, StringName(""), null, TYPE_INT, StringName(""), null)',
            'Array([], TYPE_OBJECT, "Node", null)', 'Signal(make("Node", {}), "ready")',
            "PackedVector4Array([Vector4(1, 2, 3, 4)])",
            'Array([PackedByteArray([1]), PackedByteArray()], TYPE_PACKED_BYTE_ARRAY, "", null)',
        ]
    else:
        trunc += [
            '"abcde"', '{"path": NodePath("/root/a:b"), NodePath("k"): 1}',
        ]
    for expr in trunc:
        b = real(expr)
        for k in range(4, len(b)):
            c.add("cut to %d of %d bytes: %s" % (k, len(b), label(expr)), b[:k], objects=mode_of(expr))

    # --- huge-count: every u32 length and count, flipped
    c.group = "huge-count"
    mixed_dict = pool(
        '{"arr": [1, 2, 3], "bytes": PackedByteArray([255, 0]), "ints": PackedInt32Array([1, -1]), "strs": PackedStringArray(["a", "b"]), "floats": PackedFloat64Array([0.5, 0.1])}',
        '{"arr": [1, 2, 3], "bytes": PoolByteArray([255, 0]), "ints": PoolIntArray([1, -1]), "strs": PoolStringArray(["a", "b"]), "reals": PoolRealArray([0.5, 0.1])}')
    huge = [
        '"abc"', 'NodePath("/root/a:b")', '[1, "two", 3.5]', '{"a": 1}',
        'obj:make("Resource", {"resource_name": "x"})',
        pool("PackedByteArray([1, 2, 3])", "PoolByteArray([1, 2, 3])"),
        pool("PackedInt32Array([-1])", "PoolIntArray([-1])"),
        pool('PackedStringArray(["", "a", "ab", "abc", "abcd"])', 'PoolStringArray(["", "a", "ab", "abc", "abcd"])'),
        pool("PackedVector2Array([Vector2(1, 2)])", "PoolVector2Array([Vector2(1, 2)])"),
        pool("PackedColorArray([Color(1, 0, 0, 1)])", "PoolColorArray([Color(1, 0, 0, 1)])"),
        mixed_dict,
    ]
    if four:
        huge += [
            '&"name"', 'Array[int]([1, 2])', 'Dictionary[String, int]({"a": 1, "b": 2})',
            'Array([], TYPE_OBJECT, "Node", null)', 'Signal(make("Node", {}), "ready")',
            "PackedInt64Array([1])", "PackedFloat64Array([0.1])", "PackedVector4Array([Vector4(1, 2, 3, 4)])",
        ]
    for expr in huge:
        b = real(expr)
        lay = Layout(b, c.family)
        for off, what, path in lay.words:
            v = struct.unpack_from("<I", b, off)[0]
            if what == "NodePath name count":
                flips = [(v & 0x7FFFFFFF) + 1 | 0x80000000, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000]
            elif what.endswith(" length"):
                flips = [0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, v + 1]
                if what == "class name length" and mode_of(expr):
                    flips = flips[:3]  # another class name would only ask the engine's ClassDB
            else:
                flips = [0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, v | 0x80000000, v + 1]
            for i, nv in enumerate(flips):
                if nv == v or nv in flips[:i]:
                    continue
                c.add("%s: %s%s %s -> %s" % (label(expr), what, at(path), hex32(v), hex32(nv)),
                      put32(b, off, nv), objects=mode_of(expr))

    # --- bad-type: every invalid type byte, each at another header of a
    # small Array; the neighbouring valid ids at every header of lists of
    # many types; every type id in the place of one element
    c.group = "bad-type"
    mixed = pool(
        '[null, true, false, 0, -1, 2147483648, 1.5, 0.1, -0.0, "s", StringName("sn"), Vector2(1, 2), Vector2i(3, 4), Rect2(1, 2, 3, 4), Rect2i(5, 6, 7, 8), Vector3(1, 2, 3), Vector3i(4, 5, 6), Vector4(1, 2, 3, 4), Vector4i(5, 6, 7, 8), Color(0.1, 0.2, 0.3, 0.4), NodePath("a/b:c"), rid_from_int64(7), Callable(), Signal()]',
        '[null, true, false, 0, -1, 2147483648, 1.5, 0.1, -0.0, "s", Vector2(1, 2), Rect2(1, 2, 3, 4), Vector3(1, 2, 3), Color(0.1, 0.2, 0.3, 0.4), NodePath("a/b:c"), RID()]')
    small = '[1, "two", 3.5]'
    b = real(small)
    hs = Layout(b, c.family).headers
    for i, bad in enumerate(range(tmax, 256)):
        off, t, path = hs[i % len(hs)]
        c.add("%s: type byte%s %d (%s) -> %d" % (label(small), at(path) or " of the Array", t, names[t], bad),
              put(b, off, bytes([bad])))
    neighbours = [
        mixed,
        pool('{1: "int", 2.5: "float", Vector2(1, 2): "vector2", true: "bool", null: "nil", [1, 2]: "array", "s": "string", StringName("sn"): "stringname"}',
             '{1: "int", 2.5: "float", Vector2(1, 2): "vector2", true: "bool", null: "nil", [1, 2]: "array", "s": "string"}'),
        pool('[PackedByteArray([1, 2, 3]), PackedInt32Array([1]), PackedInt64Array([2]), PackedFloat32Array([1.5]), PackedFloat64Array([0.1]), PackedStringArray(["x"]), PackedVector2Array([Vector2(1, 2)]), PackedVector3Array([Vector3(1, 2, 3)]), PackedColorArray([Color(1, 0, 0, 1)]), PackedVector4Array([Vector4(1, 2, 3, 4)])]',
             '[PoolByteArray([1, 2, 3]), PoolIntArray([1]), PoolRealArray([1.5]), PoolStringArray(["x"]), PoolVector2Array([Vector2(1, 2)]), PoolVector3Array([Vector3(1, 2, 3)]), PoolColorArray([Color(1, 0, 0, 1)])]'),
    ]
    for expr in neighbours:
        b = real(expr)
        for off, t, path in Layout(b, c.family).headers:
            for nt in (t - 1, t + 1):
                if 0 <= nt < tmax:
                    c.add("%s: type byte%s %d (%s) -> %d (%s)" % (label(expr), at(path), t, names[t], nt, names[nt]),
                          put(b, off, bytes([nt])))
    # every type id in the place of one element
    b = real('[1, "two", 3.5]')
    off = Layout(b, c.family).headers[1][0]
    for nt in range(tmax):
        if nt != T["INT"]:
            c.add('[1, "two", 3.5]: type byte at [0] 2 (int) -> %d (%s)' % (nt, names[nt]), put(b, off, bytes([nt])))

    # --- flags: header byte 1 and flag bits 16..31 at every header
    c.group = "flags"
    for expr in (mixed, neighbours[1], pool('Array[int]([1, 2])', '[[[[1]]]]'), small):
        b = real(expr)
        for off, t, path in Layout(b, c.family).headers:
            h = struct.unpack_from("<I", b, off)[0]
            for what, nh in (("byte 1 = 0xFF", h | 0xFF00), ("bit 16 set", h | FLAG64),
                             ("bit 16 clear", h & ~FLAG64), ("bits 17..31 set", h | 0xFFFE0000)):
                if nh != h and (what == "byte 1 = 0xFF") == (expr == small):
                    c.add("%s: header%s (%s) %s" % (label(expr), at(path), names[t], what), put32(b, off, nh))
    for expr in ('make("Resource", {"resource_name": "x"})', 'make("Node", {})'):
        b = real(expr)
        c.add("%s: object as ID with bit 16 clear (a full object)" % label(expr), put32(b, 0, T["OBJECT"]))
        c.add("%s: object as ID with bits 17..31 set" % label(expr), put32(b, 0, T["OBJECT"] | 0xFFFF0000))
    b = real('obj:make("Resource", {"resource_name": "x"})')
    c.add("%s: full object with bit 16 set (an ID)" % label('obj:make("Resource", {"resource_name": "x"})'),
          put32(b, 0, T["OBJECT"] | FLAG64), objects=True)

    # --- utf8 / string: bytes of every string replaced in place
    strs = [
        '"abcde"', '"日本語"', 'NodePath("/root/a:b")', '{"b": 1, "a": 2, "c": 3}',
        pool('PackedStringArray(["", "a", "ab", "abc", "abcd"])', 'PoolStringArray(["", "a", "ab", "abc", "abcd"])'),
        'obj:make("Resource", {"resource_name": "x"})', '[1, "two", 3.5]',
    ]
    if four:
        strs += ['&"name"', 'Signal(make("Node", {}), "ready")', 'Array([], TYPE_OBJECT, "Node", null)',
                 'Dictionary[String, int]({"a": 1, "b": 2})', 'Array[String](["a", "é"])']
    bad_utf8 = [
        ("FF at byte 0", 0, b"\xff", 1),
        ("80 at the last byte", -1, b"\x80", 1),
        ("overlong NUL C0 80 at byte 0", 0, b"\xc0\x80", 2),
        ("surrogate ED A0 80 at byte 0", 0, b"\xed\xa0\x80", 3),
        ("overlong E0 80 AF at byte 0", 0, b"\xe0\x80\xaf", 3),
        ("F4 90 80 80 (above U+10FFFF) at byte 0", 0, b"\xf4\x90\x80\x80", 4),
        ("cut sequence E6 97 at the end", -2, b"\xe6\x97", 2),
    ]
    quirks = [
        ("NUL at byte 0", 0, b"\0", 1),
        ("NUL at byte 1", 1, b"\0", 2),
        ("BOM EF BB BF at byte 0", 0, b"\xef\xbb\xbf", 3),
        ("BOM EF BB BF at byte 1", 1, b"\xef\xbb\xbf", 4),
    ]
    for expr in strs:
        b = real(expr)
        for off, n, what, path in Layout(b, c.family).strings:
            text = b[off + 4:off + 4 + n]
            if what.endswith(" element") and text.endswith(b"\0"):
                n -= 1  # the NUL the engine writes after each PackedStringArray element
            for grp, variants in (("utf8", bad_utf8), ("string", quirks)):
                for vname, pos, raw, need in variants:
                    if n < need:
                        continue
                    if what == "class name" and (grp == "string" and vname != "NUL at byte 0" or
                                                 vname.startswith(("surrogate", "overlong E0", "F4"))):
                        continue  # another class name would only ask the engine's ClassDB
                    p = pos if pos >= 0 else n + pos
                    c.add("%s: %s%s %s" % (label(expr), what, at(path), vname),
                          put(b, off + 4 + p, raw), objects=mode_of(expr), group=grp)

    # --- nodepath: old format, flag words, padding, in and out of containers
    c.group = "nodepath"
    paths = [e for e in real.enc if e.startswith("NodePath(")]
    for expr in paths + ['[NodePath("a"), NodePath("/root/x:y"), [NodePath(":z")]]',
                         '{"path": NodePath("/root/a:b"), NodePath("k"): 1}']:
        b = real(expr)
        lay = Layout(b, c.family)
        for (off, path) in lay.npflags:
            first = struct.unpack_from("<I", b, off - 8)[0]
            flags = struct.unpack_from("<I", b, off)[0]
            c.add("%s: old format (bit 31 of the name count clear)%s" % (label(expr), at(path)),
                  put32(b, off - 8, first & 0x7FFFFFFF))
            if path:
                continue
            c.add("%s: absolute flag toggled" % label(expr), put32(b, off, flags ^ 1))
            c.add("%s: unknown flag bits 2..31 set" % label(expr), put32(b, off, flags | 0xFFFFFFFC))
            c.add("%s: property flag (bit 1) without the extra subname" % label(expr), put32(b, off, flags | 2))
            c.add("%s: property flag (bit 1) plus an extra subname 'p'" % label(expr), put32(b, off, flags | 2) + sstr("p"))
            c.add("%s: flags 0xFFFFFFFF plus an extra subname 'p'" % label(expr), put32(b, off, 0xFFFFFFFF) + sstr("p"))
        padded = b
        for off, n, what, path in lay.strings:
            for i in range(off + 4 + n, off + 4 + n + (-n) % 4):
                padded = put(padded, i, b"\xaa")
        if padded != b:
            c.add("%s: padding bytes 0xAA (as uninitialized memory)" % label(expr), padded)
    np = c.h("NODE_PATH")
    for n in (1, 2, 3, 0x7FFFFFFF):
        c.add("NodePath old format with name count %s and one name" % hex32(n),
              np + u32(n) + u32(0) + u32(0) + sstr("a"))
    c.add("NodePath old format as an Array element", c.array([c.int_(1), np + u32(4) + pad(b"root")]))
    c.add("NodePath old format as a Dictionary value", c.dictionary([(c.string("k"), np + u32(0))]))
    c.add("NodePath old format as a Dictionary key", c.dictionary([(np + u32(0), c.int_(1))]))
    c.add("NodePath with subnames only and the absolute flag (:a:b, absolute)",
          np + u32(0x80000000) + u32(2) + u32(1) + sstr("a") + sstr("b"))
    c.add("NodePath with no names and flags 3 plus an extra subname",
          np + u32(0x80000000) + u32(0) + u32(3) + sstr("p"))

    # --- packed: byte arrays whose padding is missing, string arrays
    c.group = "packed"
    pba = T["PACKED_BYTE_ARRAY" if four else "POOL_BYTE_ARRAY"]
    psa = T["PACKED_STRING_ARRAY" if four else "POOL_STRING_ARRAY"]
    for n in range(0, 9):
        c.add("PackedByteArray count %d, no padding (top level)" % n, u32(pba) + u32(n) + bytes(range(1, n + 1)))
    nexts = [("int 1", c.int_(1)), ("null", c.h("NIL")), ('"a"', c.string("a")), ("[1]", c.array([c.int_(1)])),
             ("a PackedByteArray [9]", u32(pba) + u32(1) + b"\x09\0\0\0")]
    for n in (1, 2, 3, 5):
        for nname, nb in nexts:
            c.add("Array [PackedByteArray count %d without padding, %s]" % (n, nname),
                  c.h("ARRAY") + u32(2) + u32(pba) + u32(n) + bytes(range(1, n + 1)) + nb)
    for n in (1, 3):
        c.add("Dictionary {PackedByteArray count %d without padding: int 1}" % n,
              c.h("DICTIONARY") + u32(1) + u32(pba) + u32(n) + bytes(range(1, n + 1)) + c.int_(1))
    for expr in (neighbours[2], mixed_dict):
        b = real(expr)
        lay = Layout(b, c.family)
        for off, t, path in lay.headers:
            if names[t] in BYTE_ARRAYS:
                n = struct.unpack_from("<I", b, off + 4)[0]
                end = off + 8 + n
                c.add("%s: padding of the byte array%s removed" % (label(expr), at(path)),
                      b[:end] + b[end + (-n) % 4:])
    for n, body in [(1, u32(1) + b"a\0\0\0"), (2, u32(1) + b"a\0\0\0" + u32(0)),
                    (3, u32(2) + b"a\0\0\0" + u32(3) + b"bc\0\0" + u32(1) + b"\0\0\0\0")]:
        c.add("PackedStringArray of %d without NUL terminators" % n,
              u32(psa) + u32(n) + b"".join(sstr(ch) for ch in "abc"[:n]))
        c.add("PackedStringArray of %d with mixed element lengths" % n, u32(psa) + u32(n) + body)
    for neg in (0x80000000, 0x80000002, 0xFFFFFFFE):
        c.add("Array [PackedStringArray count %s, int 1]" % hex32(neg),
              c.h("ARRAY") + u32(2) + u32(psa) + u32(neg) + c.int_(1))
    c.add("PackedStringArray element length 5 over 'ab' NUL plus padding", u32(psa) + u32(1) + u32(5) + b"ab\0\0\0\0\0\0")

    # --- trailing bytes after real encodings
    c.group = "trailing"
    for expr, extra in [('[1, "two", 3.5]', b"\0\0\0\0"), ('{"a": 1}', b"\xff"), ('NodePath("/root/a:b")', b"\x02\0\0\0"),
                        ('"abcde"', b"\xff\xff\xff"), ("true", c.string("junk")),
                        ('obj:make("Resource", {"resource_name": "x"})', b"\x18\0\0\0"),
                        (pool("PackedByteArray([1, 2, 3])", "PoolByteArray([1, 2, 3])"), b"\x07")]:
        c.add("%s followed by %s" % (label(expr), extra.hex()), real(expr) + extra, objects=mode_of(expr))

    # --- object: with and without permission, properties, IDs
    c.group = "object"
    objs = [e for e in real.enc if e.startswith("obj:")]
    for expr in objs:
        b = real(expr)
        c.add("%s decoded without objects" % short(expr[4:]), b)
        c.add("%s decoded with objects" % short(expr[4:]), b, objects=True)
    for expr in [e for e in real.enc if e.startswith("make(") and not e.endswith("get_parent()")]:
        c.add("%s (object as ID) decoded with objects" % short(expr), real(expr), objects=True)
    res = real('obj:make("Resource", {"resource_name": "x"})')
    for where, data in [("an Array element after int 1", c.array([c.int_(1), res])),
                        ("a Dictionary value", c.dictionary([(c.string("k"), res)])),
                        ("a Dictionary key", c.dictionary([(res, c.int_(1))])),
                        ("the third level of nested Arrays", c.array([c.array([c.array([res])])]))]:
        c.add("full Resource as %s, without objects" % where, data)
        c.add("full Resource as %s, with objects" % where, data, objects=True)
    null_full = c.h("OBJECT") + u32(0)
    c.add("full null object as an Array element, without objects", c.array([null_full]))
    c.add("full null object as an Array element, with objects", c.array([null_full]), objects=True)
    c.add("full null object followed by property data", null_full + u32(1) + sstr("a") + c.int_(1), objects=True)
    vals = ['1', '2.5', '"a"', 'null', 'true', 'Vector2(1, 2)', '[1]', '{"a": 1}',
            pool("PackedByteArray([1, 2, 3])", "PoolByteArray([1, 2, 3])"), 'NodePath("a")', 'make("Node", {})']
    if four:
        vals += ['&"name"', 'Vector2i(1, 2)']
    for v in vals:
        c.add("full Resource with resource_name = %s" % v, c.resource([("resource_name", real(v))]), objects=True)
    c.add("full Resource with resource_name = a full Resource", c.resource([("resource_name", res)]), objects=True)
    for cls in per_family(four, ["Object", "RefCounted", "Node", "InputEventKey", "Resource"],
                          ["Object", "Reference", "Node", "InputEventKey", "Resource"]):
        c.add("full %s with no properties" % cls, c.h("OBJECT") + sstr(cls) + u32(0), objects=True)
        c.add("full %s with no properties, without objects" % cls, c.h("OBJECT") + sstr(cls) + u32(0))
    c.add("full Resource, property count 0x80000001", c.h("OBJECT") + sstr("Resource") + u32(0x80000001)
          + sstr("resource_name") + c.string("x"), objects=True)
    if four:
        for what, v in [("null", c.h("NIL")), ('""', c.string("")), ('"res://"', c.string("res://")),
                        ('&"res://x.gd"', c.h("STRING_NAME") + sstr("res://x.gd")),
                        ('NodePath("a")', real('NodePath("a")')), ('"user://x.gd"', c.string("user://x.gd")),
                        ("an object as ID", real('make("Node", {})'))]:
            c.add("full Resource with script = %s" % what, c.resource([("script", v)]), objects=True)
    else:
        for what, v in [("null", c.h("NIL")), ("5", c.int_(5)), ('"res://nope.gd"', c.string("res://nope.gd"))]:
            c.add("full Resource with script = %s" % what, c.resource([("script", v)]), objects=True)
    for oid in (1, 0x7FFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF):
        idb = c.h("OBJECT", FLAG64) + struct.pack("<Q", oid)
        c.add("object as ID 0x%X in an Array" % oid, c.array([idb, c.int_(1)]))
        c.add("object as ID 0x%X as a Dictionary key" % oid, c.dictionary([(idb, c.int_(1))]))

    # --- typed containers
    c.group = "typed"
    if four:
        typed_elems = ['1', '2.5', '"a"', '&"name"', 'null', 'true', 'Vector2i(1, 2)', 'Vector2(1, 2)',
                       'Quaternion()', 'Basis()', 'Color(1, 0.5, 0.25, 0.125)', 'NodePath("a")',
                       'make("Node", {})', '{"a": 1}', '[1]', 'PackedByteArray([1, 2, 3])']
        items = [real(e) for e in typed_elems]
        for bt in range(tmax):
            c.add("Array typed %d (%s) holding one of each type" % (bt, names[bt]),
                  c.array(items, flags=1 << 16, typedata=u32(bt)))
        for bt in range(tmax):
            c.add("Dictionary key typed %d (%s), keys of each type" % (bt, names[bt]),
                  c.dictionary([(k, c.int_(i)) for i, k in enumerate(items)], flags=1 << 16, typedata=u32(bt)))
        for bt in (T["INT"], T["STRING"], T["STRING_NAME"], T["OBJECT"], T["ARRAY"], T["VECTOR2"], T["COLOR"]):
            c.add("Dictionary value typed %d (%s), values of each type" % (bt, names[bt]),
                  c.dictionary([(c.int_(i), v) for i, v in enumerate(items)], flags=1 << 18, typedata=u32(bt)))
        for bad in (39, 40, 0x80, 0xFF, 0x100, 0x10002, 0x80000002, 0xFFFFFFFF):
            c.add("Array typed with builtin word %s, empty" % hex32(bad), c.array([], flags=1 << 16, typedata=u32(bad)))
            c.add("Dictionary key typed with builtin word %s, empty" % hex32(bad),
                  c.dictionary([], flags=1 << 16, typedata=u32(bad)))
            c.add("Dictionary value typed with builtin word %s, empty" % hex32(bad),
                  c.dictionary([], flags=1 << 18, typedata=u32(bad)))
        objitems = [real('make("Node", {})'), c.int_(1), c.h("NIL"), c.string("a")]
        for cls in ("Node", "Object", "RefCounted", "EncodedObjectAsID", "", "NoSuchClass", b"\xff"):
            shown = cls if isinstance(cls, str) else cls.hex()
            data = c.array(objitems, flags=2 << 16, typedata=sstr(cls))
            c.add("Array of class '%s' holding [object as ID, 1, null, \"a\"], without objects" % shown, data)
            if cls in ("EncodedObjectAsID", "RefCounted", "Object", "", b"\xff"):
                c.add("Array of class '%s' holding [object as ID, 1, null, \"a\"], with objects" % shown, data, objects=True)
            c.add("Dictionary key class '%s', empty, without objects" % shown, c.dictionary([], flags=2 << 16, typedata=sstr(cls)))
        for path in ("res://x.gd", "res://", "", "x.gd", "user://x.gd", b"\xff"):
            shown = path if isinstance(path, str) else path.hex()
            data = c.array([c.int_(1), real('make("Node", {})')], flags=3 << 16, typedata=sstr(path))
            c.add("Array of script '%s' holding [1, object as ID], without objects" % shown, data)
            if path != "res://x.gd":
                c.add("Array of script '%s' holding [1, object as ID], with objects" % shown, data, objects=True)
            c.add("Dictionary value script '%s', empty, without objects" % shown, c.dictionary([], flags=3 << 18, typedata=sstr(path)))
        for expr in ('Array[int]([1, 2])', 'Array[String](["a", "é"])', 'Dictionary[String, int]({"a": 1, "b": 2})',
                     'Array([], TYPE_OBJECT, "Node", null)'):
            b = real(expr)
            h = struct.unpack_from("<I", b, 0)[0]
            for kind in (0, 1, 2, 3):
                for shift in ((16,) if names[h & 0xFF] == "Array" else (16, 18)):
                    nh = (h & ~(3 << shift)) | (kind << shift)
                    if nh != h:
                        c.add("%s: kind bits %d..%d = %d" % (label(expr), shift, shift + 1, kind), put32(b, 0, nh))
    else:
        # Godot 4's typed containers, as Godot 4.6 wrote them, fed to Godot 3
        for expr, b in real.other.items():
            if (expr.startswith(("Array[", "Array(", "Dictionary[", "Dictionary(", "obj:Array("))
                    or expr.startswith("[Array") or expr.startswith('{"ints"')):
                c.add("Godot 4 bytes of %s" % label(expr), b, objects=mode_of(expr))

    # --- depth: 1024 levels accepted, 1025 refused, for every way of nesting
    c.group = "depth"

    def nest(n, wrap, inner):
        out = inner
        for _ in range(n):
            out = wrap(out)
        return out

    arr1 = lambda x: c.h("ARRAY") + u32(1) + x
    dkey = lambda x: c.h("DICTIONARY") + u32(1) + x + c.int_(0)
    prop = lambda x: c.h("OBJECT") + sstr("Object") + u32(1) + sstr("p") + x
    alt = lambda x: arr1(c.h("DICTIONARY") + u32(1) + c.int_(0) + x)
    for n in (1024, 1025):
        c.add("%d Dictionaries nested as keys (innermost key at depth %d)" % (n, n), nest(n, dkey, c.int_(1)))
        c.add("%d Objects nested as property values (innermost value at depth %d)" % (n, n),
              nest(n, prop, c.int_(1)), objects=True)
    c.add("1024 nested Arrays around an invalid type byte (at depth 1024)", nest(1024, arr1, u32(0xFF)))
    # the depth check comes before anything else at depth 1025
    for what, inner in [("a PackedByteArray", u32(pba) + u32(2) + b"\x01\x02\0\0"),
                        ("an invalid type byte", u32(0xFF)),
                        ("a full object, without objects", c.h("OBJECT") + sstr("Object") + u32(0)),
                        ("a cut header", b"\x02\x00")]:
        c.add("1025 nested Arrays around %s (at depth 1025)" % what, nest(1025, arr1, inner))
    c.add("512 Arrays of Dictionaries, alternating, one more Array (innermost value at depth 1025)",
          arr1(nest(512, alt, c.int_(1))))
    c.add("1025 nested Arrays of count 2 holding one element each (int at depth 1025, data ends early)",
          nest(1024, lambda x: c.h("ARRAY") + u32(2) + x, arr1(c.int_(1))))

def main(argv):
    if not 2 <= len(argv) <= 4 or argv[1] not in ("3", "4"):
        raise SystemExit(__doc__)
    for name, mode, hexstr, group in build(int(argv[1]), *argv[2:]):
        assert "\t" not in name and "\n" not in name
        print("%s\t%s\t%s\t%s" % (name, mode, hexstr, group))


if __name__ == "__main__":
    main(sys.argv)
