"""Lists the public declarations of the given modules that have no doc comment; exits 1 if any.

Usage: undocumented.py SYMBOLGRAPH_DIR MODULE...
Enum cases, protocol conformance members the compiler synthesises, and Codable's init(from:) /
encode(to:) (documented once by the protocol) are not counted.
"""
import json
import os
import sys

EXEMPT_NAMES = {"init(from:)", "encode(to:)", "==(_:_:)", "hash(into:)", "hashValue", "description",
                "rawValue", "init(rawValue:)", "allCases", "AllCases", "RawValue", "id", "ID"}

directory, modules = sys.argv[1], sys.argv[2:]
missing = []
for module in modules:
    for name in os.listdir(directory):
        if not (name == f"{module}.symbols.json" or name.startswith(f"{module}@")):
            continue
        with open(os.path.join(directory, name)) as handle:
            graph = json.load(handle)
        for symbol in graph["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            if symbol["kind"]["identifier"] in ("swift.enum.case",):
                continue
            title = symbol["names"]["title"]
            if title in EXEMPT_NAMES or symbol.get("docComment"):
                continue
            path = ".".join(symbol["pathComponents"])
            location = symbol.get("location", {}).get("uri", "").replace("file://", "")
            line = symbol.get("location", {}).get("position", {}).get("line", 0) + 1
            missing.append(f"{os.path.relpath(location) if location else module}:{line}: {module}.{path}")
for entry in sorted(set(missing)):
    print(f"undocumented: {entry}")
if missing:
    print(f"{len(set(missing))} public declarations without a doc comment", file=sys.stderr)
    sys.exit(1)
