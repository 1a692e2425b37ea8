#!/usr/bin/env python3
"""Malformed and unusual inputs for the Godot decoders.

    python3 gen_decode_cases.py 4 > cases4.tsv     # Godot 4.x type ids
    python3 gen_decode_cases.py 3 > cases3.tsv     # Godot 3.x type ids

Prints one case a line: NAME <TAB> obj|raw <TAB> HEX. "obj" means the bytes
are decoded with objects allowed (bytes_to_var_with_objects /
bytes2var(b, true)), "raw" without. HEX may be empty (the empty input).
generate.sh feeds these to the engines and records their verdicts in
godot4-decode.jsonl / godot3-decode.jsonl.
"""

import struct
import sys

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

    def h(self, tname, flags=0):
        return u32(self.T[tname] | flags)

    def add(self, name, data, objects=False):
        self.rows.append((name, "obj" if objects else "raw", data.hex()))

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


def build(family):
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
    c.add("empty input", b"")
    c.add("1 byte", b"\x02")
    c.add("2 bytes", b"\x02\x00")
    c.add("3 bytes", b"\x02\x00\x00")
    c.add("type byte = VARIANT_MAX (%d)" % T["MAX"], u32(T["MAX"]))
    c.add("type byte = 0xFF", u32(0xFF))
    if four:
        c.add("type 38 PackedVector4Array (new in 4.3), empty", c.h("PACKED_VECTOR4_ARRAY") + u32(0))

    # --- header bits the type does not use
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
    for name, tname, size in (FIXED4 if four else FIXED3):
        c.add("truncated %s: %d of %d payload bytes" % (name, size - 4, size), c.h(tname) + ramp(size - 4))
    c.add("truncated int64: 4 of 8 payload bytes", c.h("INT", FLAG64) + u32(1))
    c.add("truncated float64: 7 of 8 payload bytes", c.h("FLOAT", FLAG64) + f64(0.1)[:7])
    c.add("truncated Vector2: 7 of 8 payload bytes", c.h("VECTOR2") + ramp(7))
    if four:
        c.add("truncated Signal: name but no object id", c.h("SIGNAL") + sstr("ready"))
        c.add("truncated Signal: 4 of 8 object id bytes", c.h("SIGNAL") + sstr("ready") + u32(1))
        c.add("Signal with name and object id 0", c.h("SIGNAL") + sstr("ready") + i64(0))
        c.add("Callable (no payload)", c.h("CALLABLE"))
    else:
        c.add("RID (header only)", c.h("RID"))
        c.add("RID followed by 8 bytes", c.h("RID") + i64(13))

    # --- strings
    c.add("string length -1", c.h("STRING") + u32(0xFFFFFFFF) + b"abcd")
    c.add("string length 0x7FFFFFFF", c.h("STRING") + u32(0x7FFFFFFF) + b"abcd")
    c.add("string length 100 with 4 bytes of data", c.h("STRING") + u32(100) + b"abcd")
    c.add("string length 3, padding missing", c.h("STRING") + u32(3) + b"abc")
    c.add("string length 5, 2 of 3 padding bytes", c.h("STRING") + u32(5) + b"abcde\0\0")
    c.add("string length 3, non-zero padding byte", c.h("STRING") + u32(3) + b"abc\xff")
    c.add("string, no length word", c.h("STRING"))
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
        c.add("invalid UTF-8: " + name, c.string(raw))
    c.add("string with a leading BOM EF BB BF", c.string(b"\xef\xbb\xbfabc"))
    c.add("string with a BOM in the middle", c.string(b"a\xef\xbb\xbfb"))
    c.add("string with a NUL inside (a NUL b)", c.string(b"a\0b"))
    c.add("string with a trailing NUL", c.string(b"ab\0"))
    c.add("string of one NUL", c.string(b"\0"))
    c.add("valid 4-byte UTF-8 U+10FFFF", c.string(b"\xf4\x8f\xbf\xbf"))
    if four:
        c.add("StringName with padding missing", c.h("STRING_NAME") + u32(2) + b"ab")
        c.add("StringName with invalid UTF-8", c.h("STRING_NAME") + sstr(b"\xff"))

    # --- NodePath
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
    c.add("Array count with bit 31 set ([1])", c.h("ARRAY") + u32(0x80000001) + c.int_(1))
    c.add("Dictionary count with bit 31 set ({1: 2})", c.h("DICTIONARY") + u32(0x80000001) + c.int_(1) + c.int_(2))
    c.add("Array count 5, one element present", c.h("ARRAY") + u32(5) + c.int_(1))
    c.add("Array count 0x7FFFFFFF, no elements", c.h("ARRAY") + u32(0x7FFFFFFF))
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
    c.add("Array with an invalid element type", c.h("ARRAY") + u32(1) + u32(0xFF))

    # --- packed arrays
    c.add("PackedByteArray count 3, final padding missing (top level)", c.h(pba) + u32(3) + b"\x01\x02\x03")
    c.add("PackedByteArray count 3, padding missing, last element of an Array",
          c.array([c.h(pba) + u32(3) + b"\x01\x02\x03"]))
    c.add("PackedByteArray count 3, padding missing, int 1 right after its data, in an Array",
          c.h("ARRAY") + u32(2) + c.h(pba) + u32(3) + b"\x01\x02\x03" + c.int_(1))
    c.add("PackedByteArray count 3, padding byte 0xAA, followed by int 7 in an Array",
          c.h("ARRAY") + u32(2) + c.h(pba) + u32(3) + b"\x01\x02\x03\xaa" + c.int_(7))
    c.add("PackedByteArray count larger than the data", c.h(pba) + u32(9) + b"\x01\x02\x03\x00")
    c.add("PackedByteArray count -1", c.h(pba) + u32(0xFFFFFFFF))
    c.add("PackedInt32Array count -1", c.h(pia) + u32(0xFFFFFFFF) + u32(1))
    c.add("PackedInt32Array count 3, one element present", c.h(pia) + u32(3) + u32(1))
    c.add("PackedInt32Array count 0x40000001 (size overflows int32)", c.h(pia) + u32(0x40000001) + u32(1))
    c.add("PackedFloat32Array count 2, 7 bytes", c.h(pfa) + u32(2) + f32(1) + f32(2)[:3])
    c.add("PackedVector2Array count -1", c.h(pv2) + u32(0xFFFFFFFF))
    c.add("PackedColorArray count 1, 12 of 16 bytes", c.h(pca) + u32(1) + ramp(12))
    c.add("packed array with no count word", c.h(pia))
    if four:
        c.add("PackedInt64Array count -1", c.h("PACKED_INT64_ARRAY") + u32(0xFFFFFFFF))
        c.add("PackedInt64Array count 2, 12 bytes", c.h("PACKED_INT64_ARRAY") + u32(2) + i64(1) + u32(2))
        c.add("PackedFloat64Array count 0x20000000 (size overflows int32)", c.h("PACKED_FLOAT64_ARRAY") + u32(0x20000000))
        c.add("PackedVector4Array count 1, 12 of 16 bytes", c.h("PACKED_VECTOR4_ARRAY") + u32(1) + ramp(12))
    c.add("PackedStringArray count -1", c.h(psa) + u32(0xFFFFFFFF))
    c.add("PackedStringArray count -1 followed by data", c.h(psa) + u32(0xFFFFFFFF) + u32(2) + b"a\0\0\0")
    c.add("PackedStringArray element without NUL (length 1, 'a')", c.h(psa) + u32(1) + u32(1) + pad(b"a"))
    c.add("PackedStringArray element with NUL in the middle", c.h(psa) + u32(1) + u32(4) + b"a\0b\0")
    c.add("PackedStringArray count 2, one element present", c.h(psa) + u32(2) + u32(2) + b"a\0\0\0")
    c.add("PackedStringArray element with invalid UTF-8", c.h(psa) + u32(1) + u32(2) + b"\xff\0\0\0")
    c.add("PackedStringArray element length 0 (no NUL)", c.h(psa) + u32(1) + u32(0))

    # --- trailing bytes
    c.add("int 1 followed by 4 trailing bytes", c.int_(1) + b"\xff\xff\xff\xff")
    c.add("int 1 followed by 1 trailing byte", c.int_(1) + b"\x00")
    c.add("nil followed by a whole second value", c.h("NIL") + c.int_(5))

    # --- objects
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
    return c.rows


def main(argv):
    if len(argv) != 2 or argv[1] not in ("3", "4"):
        raise SystemExit(__doc__)
    for name, mode, hexstr in build(int(argv[1])):
        assert "\t" not in name
        print("%s\t%s\t%s" % (name, mode, hexstr))


if __name__ == "__main__":
    main(sys.argv)
