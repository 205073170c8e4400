// Runs Python in real Pyodide under node, as xlwings Lite runs a book's code in its pane.
//
//   node runner.mjs CONFIG.json
//
// CONFIG names the Pyodide folder (indexURL: pyodide.mjs, pyodide-lock.json and the package
// files the lock names), host folders to mount into Pyodide's file system (NODEFS), the
// lock's packages to load, the wheels to install with micropip (emfs: URLs inside the mounts)
// and the Python code to run (top-level await allowed). Pyodide's own file system, umask
// and everything else stay as Pyodide starts them. Prints one JSON line of timings (seconds)
// last; the Python code's own output goes before it. Exits 1 when the code raises.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const config = JSON.parse(readFileSync(process.argv[2], "utf8"));
const { loadPyodide } = await import(pathToFileURL(path.join(config.indexURL, "pyodide.mjs")));
const times = {};
let start = performance.now();
const pyodide = await loadPyodide({ indexURL: config.indexURL + path.sep });
times.boot = (performance.now() - start) / 1000;
for (const [where, folder] of Object.entries(config.mounts ?? {})) {
  pyodide.FS.mkdirTree(where);
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: folder }, where);
}
start = performance.now();
await pyodide.loadPackage(["micropip", ...(config.packages ?? [])], { messageCallback: () => {} });
if ((config.wheels ?? []).length) {
  const micropip = pyodide.pyimport("micropip");
  await micropip.install(config.wheels);
}
times.install = (performance.now() - start) / 1000;
start = performance.now();
let failed = false;
try {
  await pyodide.runPythonAsync(config.code);
} catch (error) {
  console.error(String(error));
  failed = true;
}
times.run = (performance.now() - start) / 1000;
console.log(JSON.stringify({ times }));
process.exit(failed ? 1 : 0);
