/** Ollama base URL normalisation. Node built-ins only: the Endless hook uses it without the config schema. */

const DEFAULT_PORT = '11434';

/**
 * A base URL without a trailing slash, read as Ollama's own client reads OLLAMA_HOST: a bare host
 * (`localhost`, `0.0.0.0:8080`) is http on port 11434 unless it names one, `:11434` is 127.0.0.1,
 * and an explicit `http://` or `https://` without a port means that scheme's own port (80, 443), as
 * for a proxy in front of Ollama. 0.0.0.0 (where a server listens) is reached as 127.0.0.1. Throws
 * for anything that is not an http(s) URL.
 */
export function normalizeOllamaHost(host: string): string {
  let value = host.trim();
  let explicit = /^[a-z][a-z0-9+.-]*:\/\//i.test(value);
  if (value.startsWith(':')) {
    value = `http://127.0.0.1${value}`;
    explicit = true;
  }
  const url = new URL(explicit ? value : `http://${value}`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`${url.protocol}// is not http or https`);
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  if (!url.port && !explicit) url.port = DEFAULT_PORT;
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/** What is wrong with a host normalizeOllamaHost refused, for a config error. */
export function ollamaHostProblem(host: string): string {
  return `${JSON.stringify(host)} is not an http:// or https:// URL`;
}
