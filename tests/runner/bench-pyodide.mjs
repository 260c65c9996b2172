// bench-pyodide.mjs: the Pyodide side of bench-runner (Node.js).
//
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Usage: node bench-pyodide.mjs PYODIDE_DIR FILE
// Prints one JSON object: load_ms (start-up), trivial_median_ms (runPython
// of "pass", as Viva's warm round trip), and the output of FILE.

import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [dir, file] = process.argv.slice(2);
const module = await import(pathToFileURL(path.join(dir, "node_modules", "pyodide", "pyodide.mjs")).href);

let started = performance.now();
const pyodide = await module.loadPyodide();
const load_ms = performance.now() - started;

let output = "";
pyodide.setStdout({ batched: (text) => { output += text + "\n"; } });

const times = [];
for (let i = 0; i < 2000; i++) {
  started = performance.now();
  pyodide.runPython("pass");
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);

started = performance.now();
pyodide.runPython(fs.readFileSync(file, "utf8"));
const run_ms = performance.now() - started;

console.log(JSON.stringify({
  version: pyodide.version,
  load_ms,
  trivial_median_ms: times[times.length >> 1],
  run_ms,
  output,
}));
