#!/usr/bin/env python3
"""Validates a gpuwcrt --json output against its schema in docs/schema/.

    tests/validate_json.py SCHEMA.json OUTPUT.json

Exit 0 valid, 1 invalid (every error printed), 77 when python3-jsonschema is missing (the
calling test reports it as skipped). The schemas refer to docs/schema/context.json by its
$id; both the `referencing` API (jsonschema >= 4.18) and RefResolver (Debian 12's 4.10) work.
"""
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    print("validate_json: the python3 module jsonschema is missing (Debian: python3-jsonschema)")
    sys.exit(77)


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def validator_for(schema, shared):
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    try:
        from referencing import Registry, Resource

        registry = Registry().with_resources(
            [(s["$id"], Resource.from_contents(s)) for s in shared])
        return cls(schema, registry=registry)
    except ImportError:
        store = {s["$id"]: s for s in shared}
        return cls(schema, resolver=jsonschema.RefResolver.from_schema(schema, store=store))


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    schema_path, output_path = sys.argv[1], sys.argv[2]
    schema = load(schema_path)
    folder = os.path.dirname(os.path.abspath(schema_path))
    shared = [load(os.path.join(folder, "context.json"))]
    errors = sorted(validator_for(schema, shared).iter_errors(load(output_path)), key=lambda e: list(e.path))
    for e in errors:
        print(f"{output_path}: {'/'.join(str(p) for p in e.path) or '(root)'}: {e.message}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
