#!/usr/bin/env python3
"""Turns the JSON lines printed by make3.gd / make4.gd into fixture files.

    split.py DIR < lines.jsonl

Every line names a file. A line with "base64" (Godot 4: the engine's file
system is in the browser) carries the file itself, which is written to DIR;
Godot 3 writes its files to DIR directly. The lines, without "base64", go to
DIR/manifest.jsonl in the order printed.
"""
import base64
import json
import os
import sys

def main():
    out = sys.argv[1]
    manifest = []
    for line in sys.stdin:
        line = line.strip()
        if not line.startswith("{"):
            continue
        rec = json.loads(line)
        b64 = rec.pop("base64", None)
        path = os.path.join(out, rec["file"])
        if b64 is not None:
            with open(path, "wb") as f:
                f.write(base64.b64decode(b64))
        if not os.path.exists(path):
            sys.exit("split.py: %s was not written" % path)
        keys = ["file", "how", "compression", "big_endian", "objects", "values"]
        manifest.append({k: rec[k] for k in keys if k in rec})
    if not manifest:
        sys.exit("split.py: no file lines in the input")
    with open(os.path.join(out, "manifest.jsonl"), "w") as f:
        for rec in manifest:
            f.write(json.dumps(rec, separators=(", ", ": ")) + "\n")

main()
