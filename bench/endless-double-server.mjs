// The Ollama-protocol double answering compact observations at once, as its own process (the
// benchmarks time the hook with spawnSync, which would stall a double living in their own event loop).
// Prints one JSON line {"url", "port"} and serves until killed.
import { OllamaDouble } from '../scripts/ollama-double.mjs';
import { compactObservationReply } from '../test/fixtures/endless/compact-reply.mjs';

const double = new OllamaDouble({ reply: compactObservationReply });
const started = await double.start(0);
console.log(JSON.stringify({ url: started.url, port: started.port }));
const stop = () => void started.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
