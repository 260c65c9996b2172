#!/usr/bin/env python3
# The exam schema and the loader agree on the fixtures: every good exam
# file validates, and the bad ones the schema can judge do not.
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    print('1..0 # SKIP python3-jsonschema is not installed')
    sys.exit(0)

root = os.environ['VIVA_SOURCE_ROOT']
schema = json.load(open(os.path.join(root, 'data', 'viva-exam.schema.json')))
exams = os.path.join(root, 'tests', 'classroom', 'exams')
validator = jsonschema.Draft202012Validator(schema)
jsonschema.Draft202012Validator.check_schema(schema)

cases = []
for name in sorted(os.listdir(exams)):
    if name.startswith('good-'):
        cases.append((name, True))
    elif name in ('bad-many.json', 'bad-format.json', 'bad-newer.json', 'bad-array.json'):
        cases.append((name, False))

print('1..%d' % len(cases))
failed = False
for i, (name, good) in enumerate(cases, 1):
    with open(os.path.join(exams, name)) as f:
        errors = list(validator.iter_errors(json.load(f)))
    ok = (not errors) if good else bool(errors)
    failed |= not ok
    detail = '' if ok else ' # ' + '; '.join(e.message for e in errors[:3])
    print('%s %d %s%s' % ('ok' if ok else 'not ok', i, name, detail))
sys.exit(1 if failed else 0)
