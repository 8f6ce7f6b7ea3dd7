/**
 * An Embedder that lets a running `recall serve` embed while it has the same embedder and store, so a
 * worker never imports the model library or loads the model (about a second) when a daemon already
 * has it warm. Without such a daemon (none running, another configuration, it died mid-request, a
 * bad answer) it embeds here with `local`, and stays local from then on: the model is loaded now and
 * the daemon has nothing left to save. The vectors are the same either way: the same model run on
 * the same batch, sent back bit for bit.
 */
import type { Embedder } from '../core/ports.js';
import { exchange } from './serve-client.js';
import { decodeVectors, type EmbedAnswer, type EmbedRequest, type ServeIdentity } from './serve-protocol.js';

/** Larger requests are embedded here rather than sent (the daemon reads at most this much per request). */
export const MAX_EMBED_REQUEST_CHARS = 8 * 1024 * 1024;

export interface ServedEmbedderOptions {
  /** The daemon's socket. */
  socketPath: string;
  /** This process's configuration; see serve-identity.ts. */
  identity: ServeIdentity;
}

export function embedderServedFirst(local: Embedder, options: ServedEmbedderOptions): Embedder {
  let here = false;
  return {
    id: local.id,
    async embed(texts) {
      if (!here && texts.length > 0) {
        const served = await embedThroughServe(texts, local.id, options);
        if (served !== null) return served;
        here = true;
      }
      return local.embed(texts);
    },
  };
}

async function embedThroughServe(texts: readonly string[], embedder: string, options: ServedEmbedderOptions): Promise<Float32Array[] | null> {
  const request: EmbedRequest = { v: 1, op: 'embed', expect: options.identity, texts: [...texts] };
  if (JSON.stringify(request).length > MAX_EMBED_REQUEST_CHARS) return null;
  const answer = (await exchange(options.socketPath, request, timeoutFor(texts.length))) as EmbedAnswer | null;
  if (answer?.ok !== true || answer.embedder !== embedder) return null;
  const vectors = decodeVectors(answer.count, answer.dimension, answer.vectors);
  return vectors !== null && vectors.length === texts.length ? vectors : null;
}

/** A hung daemon costs this long before the work moves here; a dead one costs nothing (refused at once). */
function timeoutFor(texts: number): number {
  return 10_000 + 100 * texts;
}
