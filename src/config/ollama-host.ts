/** Ollama base URL normalisation. Node built-ins only: the Endless hook uses it without the config schema. */

/** `localhost:11434`, `0.0.0.0`, `http://host:port/` all become a base URL without a trailing slash. */
export function normalizeOllamaHost(host: string): string {
  let value = host.trim();
  if (!/^https?:\/\//i.test(value)) value = `http://${value}`;
  const url = new URL(value);
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  if (!url.port && url.protocol === 'http:') url.port = '11434';
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}
