// The memories the search benchmarks store, and the questions they ask of them.
//
// `rules` (the default): one distinct rule per memory, written the way the extractor writes them ("You
// MUST ..."), 8 to 40 words with clauses, words drawn with a Zipf skew from about 560 technical nouns,
// verbs, adjectives and tool names, and in half of them a file path, an env var, a function name or a
// ticket. A small vocabulary for a year of work, on purpose: common words match many memories, which
// is what makes a full-text search slow.
//
// `templates` (BENCH_CORPUS=templates): the corpus of the earlier benchmark runs, 2,100 sentences
// ("money: store integer cents in a BIGINT column") repeated with a rule and ticket number, about 476
// copies of each at 1M. recall's dedupe would keep none of the copies, and thousands of them tie on
// BM25 score for a query, the worst case for the full-text index (it cannot skip tied memories); kept to
// measure that worst case.
//
// Everything is a pure function of the memory's number, so every run builds the same store.

import { seededRandom } from '../scripts/seeded-random.mjs';

export const CORPUS = process.env.BENCH_CORPUS === 'templates' ? 'templates' : 'rules';

/** Questions a user asks `recall search`; the warm and cold benchmarks take turns with them. */
export const BENCH_QUERIES = [
  'how should money be stored in the database',
  'which package manager do we use',
  'retry failed webhook requests with backoff',
  'where do the migrations live',
  'timezone of timestamps in reports',
  'run the tests before a release',
  'rotate the api tokens',
  'format of the error logs',
];

/** The text of memory `i` in the chosen corpus. */
export function memoryText(i) {
  return CORPUS === 'templates' ? templateText(i) : ruleText(i);
}

/** A query close to memory `i` but not equal to it: its text without its reference and its first word. */
export function nearText(i) {
  return memoryText(i)
    .replace(/ \((?:rule \d+, see ticket \d+|[^)]*)\)/, '')
    .replace(/^You /, '');
}

const SUBJECTS = ['pnpm', 'the API', 'migrations', 'money', 'the cache', 'CI', 'logging', 'auth tokens', 'Docker images', 'tests', 'retries', 'the mobile app', 'feature flags', 'timestamps', 'error codes'];
const TEMPLATE_VERBS = ['must use', 'should prefer', 'never use', 'always run', 'store', 'validate', 'rotate', 'cache', 'log', 'retry'];
const OBJECTS = ['integer cents in a BIGINT column', 'exponential backoff', 'zod schemas', 'structured JSON', 'UTC timestamptz', 'blue-green deploys', 'short-lived JWTs', 'the pnpm store', 'opaque cursors', 'SQLite offline caches', 'E_CONNRESET handling', 'two-space indentation', 'Terraform plans', 'TestFlight builds'];

/** Memory `i` of the template corpus (also what bench/mcp-latency.mjs stores). */
export function templateText(i) {
  const pick = (list, salt) => list[(i * 7919 + salt * 104729) % list.length];
  return `${pick(SUBJECTS, 1)}: ${pick(TEMPLATE_VERBS, 2)} ${pick(OBJECTS, 3)} (rule ${i}, see ticket ${(i * 31) % 9973}).`;
}

const words = (text) => text.trim().split(/\s+/);
const VERBS = words(`use run prefer avoid store validate rotate cache log retry pin bump lint format test mock deploy
  migrate index compress encrypt sign hash parse serialize stream batch paginate debounce throttle memoize lock release
  tag rebase squash merge review document benchmark profile trace monitor alert rollback seed backfill vendor bundle
  transpile minify split inline escape sanitize redact refresh invalidate expire archive prune compact vacuum shard
  replicate queue schedule cancel wrap export import rename delete check read write update build install configure restart`);
const NOUNS = words(`database table column index query migration schema cache queue worker job cron endpoint route
  handler middleware controller service client server socket request response header cookie session token secret key
  certificate password user account role permission tenant invoice payment money price currency cents order cart
  product inventory shipment email notification webhook event log metric trace span dashboard alert test fixture
  snapshot mock stub coverage build bundle package dependency lockfile version release tag branch commit review
  changelog container image volume cluster pod node deployment config environment flag feature timeout retry backoff
  limit rate page cursor offset file path folder directory stream buffer chunk byte string number integer float date
  timestamp timezone locale translation component hook state store reducer prop style theme layout form input button
  modal error exception warning panic stack frame thread process signal pipe terminal shell script command argument
  option parser lexer grammar compiler linter formatter editor plugin extension api sdk library framework module
  function method class interface type enum struct field record row transaction mutex channel promise callback future
  task scheduler timer clock interval budget quota bucket object blob upload download proxy gateway balancer firewall
  dns domain url host port protocol http grpc json yaml csv xml html css markdown video audio font icon asset cdn
  region zone replica backup restore archive report analytics experiment cohort segment funnel subscription plan trial
  coupon discount tax refund dispute ledger balance transfer wallet`);
const ADJECTIVES = words(`new old shared private public internal external local remote global default custom legacy
  stable flaky slow fast large small empty nested optional required async sync cached stale pending failed retried
  signed encrypted compressed versioned immutable mutable typed generated manual automatic daily nightly weekly staging
  production development primary secondary read-only`);
const TOOLS = words(`pnpm npm yarn vitest jest eslint prettier docker kubectl terraform postgres sqlite redis kafka
  nginx sentry datadog grafana prisma drizzle zod react vue svelte nextjs vite esbuild webpack rollup typescript node
  deno bun python pytest ruff go rust cargo git github gitlab stripe twilio openapi graphql`);
const MODALS = ['MUST', 'MUST NOT', 'SHOULD', 'SHOULD NOT', 'MAY'];
/** Links followed by a clause ("when you ...") or by a noun phrase ("for the ..."). */
const CLAUSE_LINKS = ['when', 'before', 'after', 'unless', 'so that', 'because', 'until', 'whenever'];
const PHRASE_LINKS = ['for', 'in', 'with', 'instead of', 'from', 'into', 'behind', 'per'];


/** The list in a fixed shuffled order, so which words are common is not the order they are written in. */
function shuffled(list, seed) {
  const random = seededRandom(seed);
  const out = [...list];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Draws from `list` with weight 1/(rank + q)^s (Zipf-Mandelbrot: a Zipf tail under a flatter head). */
function zipf(list, s = 1, q = 0) {
  let total = 0;
  const cumulative = list.map((_, k) => (total += 1 / Math.pow(k + 1 + q, s)));
  return (random) => {
    const u = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return list[lo];
  };
}

/** How much flatter than pure Zipf the head of each word list is. */
const HEAD = 5;
const verb = zipf(shuffled(VERBS, 1), 1, HEAD);
const noun = zipf(shuffled(NOUNS, 2), 1, HEAD);
const adjective = zipf(shuffled(ADJECTIVES, 3), 1, HEAD);
const tool = zipf(shuffled(TOOLS, 4), 1, HEAD);
const modal = zipf(MODALS, 0.7);
const clauseLink = zipf(CLAUSE_LINKS, 0.8);
const phraseLink = zipf(PHRASE_LINKS, 0.8);

function nounPhrase(random) {
  const parts = [];
  if (random() < 0.4) parts.push(adjective(random));
  if (random() < 0.25) parts.push(tool(random));
  parts.push(noun(random));
  if (random() < 0.3) parts.push(noun(random));
  return `the ${parts.join(' ')}`;
}

function reference(random) {
  const kind = random();
  const n = Math.floor(random() * 100_000);
  if (kind < 0.25) return `\`src/${noun(random)}/${noun(random)}-${n % 97}.ts\``;
  if (kind < 0.5) return `\`${noun(random).toUpperCase()}_${noun(random).toUpperCase()}\``;
  if (kind < 0.75) return `ticket #${n}`;
  const name = noun(random);
  return `\`${verb(random)}${name[0].toUpperCase()}${name.slice(1)}()\``;
}

function ruleText(i) {
  const random = seededRandom(Math.imul(i, 2654435761) ^ 0x5bd1e995);
  const parts = [`You ${modal(random)} ${verb(random)} ${nounPhrase(random)}`];
  const clauses = 1 + Math.floor(random() * 3);
  for (let c = 0; c < clauses; c += 1) {
    parts.push(random() < 0.5 ? `${clauseLink(random)} you ${verb(random)} ${nounPhrase(random)}` : `${phraseLink(random)} ${nounPhrase(random)}`);
  }
  if (random() < 0.5) parts.push(`(${reference(random)})`);
  return `${parts.join(' ')}.`;
}
