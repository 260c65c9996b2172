#!/usr/bin/env python3
"""A student for `viva-cli defend --answer-with`: reads the question (one
JSON object on stdin) and answers it. MODE right runs a prediction's call
on CODE itself (plain Python, outside Viva) and answers with its repr or
"raises X"; wrong answers a literal no call returns; junk answers words;
mixed answers the plan's P1 rightly, P2 wrongly and P3 with junk.
CODE "-" is the question's own `code` (the student's code as the examiner
reads it). Every question it was given is appended to LOG, one JSON
object a line."""

import json
import sys

mode, code, log = sys.argv[1], sys.argv[2], sys.argv[3]
question = json.loads(sys.stdin.read())
with open(log, "a", encoding="utf-8") as f:
    f.write(json.dumps(question) + "\n")

if mode == "mixed":
    mode = {"P1": "right", "P2": "wrong"}.get(question.get("item"), "junk")

if question.get("kind") != "prediction":
    print("It depends on the initial choice; the result is only a local minimum of the error.")
elif mode == "junk":
    print("I think two")
elif mode == "wrong":
    print(repr(["surely", "not", "this"]))
else:
    namespace = {}
    if code == "-":
        exec(question["code"], namespace)
    else:
        with open(code, encoding="utf-8") as f:
            exec(f.read(), namespace)
    try:
        print(repr(eval(question["call"], namespace)))
    except Exception as error:
        print("raises " + type(error).__name__)
