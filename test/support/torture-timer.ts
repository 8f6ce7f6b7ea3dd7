/** Global setup of the torture suite: prints its total wall time at the end. */
let started = 0;

export function setup(): void {
  started = Date.now();
}

export function teardown(): void {
  process.stderr.write(`[torture] total run time ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
