// Preloaded with `node --require` into a process under test: as the process exits, writes what it loaded
// to the file named by RECALL_TEST_MODULE_PROBE, as JSON: node's own modules (process.moduleLoadList,
// e.g. "NativeModule net") and the files loaded through require() (the ESM loader's files are not in
// require.cache: a process that loads any has "NativeModule internal/modules/esm/loader" in its list).
// Plain CommonJS: no build step.
'use strict';
// A preload given to `node --require` must be CommonJS: an ESM one would start the ESM loader it looks for.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { writeFileSync } = require('node:fs');

const out = process.env.RECALL_TEST_MODULE_PROBE;
if (out) {
  process.on('exit', () => {
    writeFileSync(out, JSON.stringify({ builtins: process.moduleLoadList, required: Object.keys(require.cache) }));
  });
}
