// Preloaded with `node --require` into a process under test: writes what the process loaded to the file
// named by RECALL_TEST_MODULE_PROBE, as JSON: node's own modules (process.moduleLoadList, e.g.
// "NativeModule net") and the files loaded through require() (the ESM loader's files are not in
// require.cache: a process that loads any has "NativeModule internal/modules/esm/loader" in its list).
// By default as the process exits; with RECALL_TEST_MODULE_PROBE_AT set, at the first write to stdout
// that contains that text (what had been loaded when that answer went out). Plain CommonJS: no build step.
'use strict';
// A preload given to `node --require` must be CommonJS: an ESM one would start the ESM loader it looks for.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { writeFileSync } = require('node:fs');

const out = process.env.RECALL_TEST_MODULE_PROBE;
const at = process.env.RECALL_TEST_MODULE_PROBE_AT;
const record = () => writeFileSync(out, JSON.stringify({ builtins: process.moduleLoadList, required: Object.keys(require.cache) }));

if (out && at) {
  const write = process.stdout.write.bind(process.stdout);
  let done = false;
  process.stdout.write = (chunk, ...rest) => {
    if (!done && String(chunk).includes(at)) {
      done = true;
      record();
    }
    return write(chunk, ...rest);
  };
} else if (out) {
  process.on('exit', record);
}
