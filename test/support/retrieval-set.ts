/**
 * A labelled retrieval set, generated: memories of four kinds (rules, decisions, session notes, chat
 * turns) from templates and word lists, and questions whose answer is one memory, asked in the
 * template's own words ("exact") or in other words ("paraphrase"), naming a speaker, or naming the
 * day. Each labelled memory is the only one of its template with its subject; every other memory
 * sharing the subject, the template or the speaker is a distractor. Seeded, so the same every run;
 * written once from the kinds of memories recall stores, not fitted to any search method.
 */
import type { MemoryType } from '../../src/core/memory.js';
import { seededRandom } from '../../scripts/seeded-random.mjs';

export interface SetMemory {
  id: string;
  type: MemoryType;
  namespace: string;
  content: string;
  createdAt: string;
}

export type QuestionKind = 'exact' | 'paraphrase' | 'speaker' | 'date';

export interface SetQuestion {
  query: string;
  kind: QuestionKind;
  /** The memory that answers. */
  expected: string;
}

export interface RetrievalSet {
  memories: SetMemory[];
  questions: SetQuestion[];
}

const COMPONENTS = [
  'billing service', 'auth gateway', 'search indexer', 'payment worker', 'email sender', 'image resizer', 'report builder',
  'user directory', 'session store', 'feature flag service', 'audit logger', 'rate limiter', 'checkout page', 'admin dashboard',
  'mobile api', 'webhook relay', 'invoice exporter', 'pricing engine', 'notification hub', 'analytics pipeline', 'cache layer',
  'job scheduler', 'file uploader', 'geo lookup', 'recommendation model', 'chat backend', 'support portal', 'sync daemon',
  'metrics collector', 'config loader', 'search frontend', 'inventory service', 'order tracker', 'shipping calculator',
  'tax module', 'loyalty program', 'coupon validator', 'fraud detector', 'ledger', 'refund handler', 'onboarding flow',
  'password reset', 'sso bridge', 'warehouse loader', 'event bus', 'log shipper', 'backup runner', 'migration tool',
  'docs site', 'design system', 'cli wrapper', 'plugin host', 'queue consumer', 'pdf renderer', 'translation service',
  'video transcoder', 'calendar sync', 'contact importer', 'health checker', 'deploy pipeline',
];
const ENVIRONMENTS = ['staging', 'production', 'local development', 'CI'];
const TOOLS = ['pnpm audit', 'docker compose up', 'terraform plan', 'the lint script', 'vitest', 'playwright', 'a dry-run migration', 'the schema check', 'the load test', 'the smoke suite', 'cargo clippy', 'the license scanner'];
const STORES = ['the vault', 'AWS Secrets Manager', 'the sealed secrets controller', 'doppler', '1Password'];
const LIBS = ['react', 'zod', 'express', 'lodash', 'axios', 'prisma', 'pydantic', 'tokio', 'openssl', 'protobuf'];
const LANGS = ['TypeScript', 'Go', 'Rust', 'Kotlin', 'Python'];
const STYLES = [['composition', 'inheritance'], ['small pure functions', 'classes'], ['early returns', 'nested ifs'], ['named exports', 'default exports']];
const PLATFORMS = ['Kubernetes', 'ECS', 'Fly.io', 'bare metal', 'Cloud Run', 'Nomad'];
const DATABASES = ['Postgres', 'Redis', 'DynamoDB', 'SQLite', 'ClickHouse', 'MongoDB'];
const DATA = ['audit trails', 'user sessions', 'price history', 'draft invoices', 'upload manifests'];
const LEGACY = ['Internet Explorer 11', 'the v1 REST endpoints', 'Python 2 scripts', 'TLS 1.0', 'the XML export'];
const VENDORS = ['Stripe', 'Twilio', 'SendGrid', 'Datadog', 'Sentry', 'Cloudflare', 'Auth0'];
/** What was done (as a note says it), the same asked about ("when did we ..."), and in other words. */
const TASKS = [
  ['fixed a memory leak', 'fix a memory leak', 'repair a leak of memory'],
  ['upgraded the node runtime', 'upgrade the node runtime', 'bump the Node version'],
  ['rewrote the retry logic', 'rewrite the retry logic', 'redo how failed calls are retried'],
  ['added tracing spans', 'add tracing spans', 'instrument requests with traces'],
  ['split the config file', 'split the config file', 'break up the configuration'],
  ['removed dead feature flags', 'remove dead feature flags', 'delete unused toggles'],
  ['profiled slow queries', 'profile slow queries', 'investigate sluggish database calls'],
  ['migrated the tests to vitest', 'migrate the tests to vitest', 'move the test suite to a new runner'],
  ['cleaned up the logging', 'clean up the logging', 'tidy the log output'],
  ['documented the public api', 'document the public api', 'write docs for the external interface'],
];
const OUTCOMES = ['tests pass now', 'still flaky on CI', 'needs a follow-up review', 'deployed to staging afterwards', 'blocked on a vendor ticket'];
const SPEAKERS = ['Maria', 'Tom', 'Priya', 'Chen', 'Alex', 'Sam', 'Lena', 'Omar', 'Jonas', 'Aiko', 'Rui', 'Nadia'];
const PROJECTS = ['project:shop-5e1f0c2a', 'project:api-0b7c1d2e', 'project:infra-9a8b7c6d', 'project:mobile-1f2e3d4c', 'global'];

/** A chat turn template: what the speaker says (with a value), and the question about it in two wordings. */
const CHAT: Array<{ say: (v: string) => string; values: string[]; exact: string; paraphrase: string }> = [
  { say: (v) => `I finally booked the flights to ${v} for the spring holiday`, values: ['Lisbon', 'Osaka', 'Lima', 'Oslo', 'Hanoi'], exact: 'Where did {s} book flights for the spring holiday?', paraphrase: 'Which city is {s} flying to on the spring break?' },
  { say: (v) => `my daughter started ${v} lessons at the community centre`, values: ['violin', 'judo', 'swimming', 'chess', 'ballet'], exact: 'What lessons did the daughter of {s} start at the community centre?', paraphrase: 'Which activity is the kid of {s} learning?' },
  { say: (v) => `we adopted a rescue ${v} last weekend and named it Biscuit`, values: ['greyhound', 'kitten', 'parrot', 'rabbit', 'beagle'], exact: 'What rescue animal did {s} adopt and name Biscuit?', paraphrase: 'Which pet did {s} take home from the shelter?' },
  { say: (v) => `I am reading ${v} this month and cannot put it down`, values: ['Dune', 'Middlemarch', 'The Overstory', 'Piranesi', 'Beloved'], exact: 'Which book is {s} reading this month?', paraphrase: 'What novel has {s} been unable to stop reading?' },
  { say: (v) => `I switched my commute to ${v} and it saves me twenty minutes`, values: ['an e-bike', 'the ferry', 'the night bus', 'a scooter', 'carpooling'], exact: 'What did {s} switch the commute to?', paraphrase: 'How does {s} get to work now?' },
  { say: (v) => `the marathon in ${v} went well, I finished under four hours`, values: ['Berlin', 'Chicago', 'Valencia', 'Tokyo', 'Boston'], exact: 'Where did {s} run the marathon?', paraphrase: 'In which city did {s} complete a long-distance race?' },
  { say: (v) => `I have been baking ${v} every Sunday since the course`, values: ['sourdough', 'croissants', 'bagels', 'focaccia', 'pretzels'], exact: 'What has {s} been baking every Sunday?', paraphrase: 'Which bread does {s} make at the weekend?' },
  { say: (v) => `my brother moved to ${v} for a new job at a hospital`, values: ['Dublin', 'Toronto', 'Nairobi', 'Melbourne', 'Zurich'], exact: 'Where did the brother of {s} move for the hospital job?', paraphrase: 'Which city did the sibling of {s} relocate to for work?' },
  { say: (v) => `we planted ${v} in the garden and the first ones came up`, values: ['tomatoes', 'sunflowers', 'garlic', 'strawberries', 'tulips'], exact: 'What did {s} plant in the garden?', paraphrase: 'Which plants are growing in the yard of {s}?' },
  { say: (v) => `I signed up for a ${v} class on Thursday evenings`, values: ['pottery', 'salsa', 'climbing', 'photography', 'Spanish'], exact: 'Which class did {s} sign up for on Thursday evenings?', paraphrase: 'What course does {s} attend midweek after work?' },
  { say: (v) => `the concert by ${v} was the loudest thing I have ever heard`, values: ['Metallica', 'Rammstein', 'Muse', 'Slipknot', 'Foo Fighters'], exact: 'Whose concert did {s} find the loudest ever?', paraphrase: 'Which band did {s} see live recently?' },
  { say: (v) => `I bought a second-hand ${v} to fix up over the summer`, values: ['sailboat', 'motorbike', 'camper van', 'piano', 'canoe'], exact: 'What second-hand thing did {s} buy to fix up over the summer?', paraphrase: 'Which project vehicle or instrument is {s} restoring?' },
];
const FILLER = [
  'thanks, that sounds great!', 'haha yes', 'see you tomorrow', 'ok', 'sure, why not', 'oh wow', 'good morning everyone',
  'I will think about it', 'that is so kind of you', 'same here, long week', 'lol', 'let me check and get back to you',
  'did you see the game last night?', 'how was your weekend?', 'congrats!', 'so true', 'I miss those days', 'what a day',
];

interface Built {
  memory: Omit<SetMemory, 'id' | 'createdAt' | 'namespace'>;
  /** Questions this memory answers (only some memories are asked about). */
  questions: Array<{ query: string; kind: QuestionKind }>;
}


export function buildRetrievalSet(seed = 20261127): RetrievalSet {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const built: Built[] = [];
  /** One question, in the memory's own words or in other words, by a coin toss. */
  const ask = (exact: string, paraphrase: string): Built['questions'] => [random() < 0.5 ? { query: exact, kind: 'exact' } : { query: paraphrase, kind: 'paraphrase' }];

  for (const comp of COMPONENTS) {
    for (const env of ENVIRONMENTS) {
      const rules: Array<() => Built> = [
        () => ({ memory: { type: 'golden_rule', content: `You MUST run ${pick(TOOLS)} before merging changes to the ${comp} in ${env}.` }, questions: ask(`What must run before merging changes to the ${comp} in ${env}?`, `Which check is required prior to landing code in the ${comp} on ${env}?`) }),
        () => ({ memory: { type: 'golden_rule', content: `Never commit secrets to the ${comp} repo for ${env}; keep them in ${pick(STORES)}.` }, questions: ask(`Where do the secrets of the ${comp} for ${env} live?`, `Where are credentials kept for the ${comp} (${env})?`) }),
        () => ({ memory: { type: 'preference', content: `Always pin ${pick(LIBS)} to an exact version in the ${comp} for ${env}.` }, questions: ask(`Which library is pinned to an exact version in the ${comp} for ${env}?`, `What dependency has a fixed release in the ${comp} (${env})?`) }),
        () => ({ memory: { type: 'preference', content: `Use ${pick(LANGS)} for new modules in the ${comp}; the ${env} build rejects anything else.` }, questions: ask(`Which language for new modules in the ${comp} in ${env}?`, `What should fresh code in the ${comp} be written in for ${env}?`) }),
        () => ({ memory: { type: 'golden_rule', content: `Timeouts in the ${comp} on ${env} MUST stay under ${2 + Math.floor(random() * 28)} seconds.` }, questions: ask(`What is the timeout limit in the ${comp} on ${env}?`, `How long may a call to the ${comp} take on ${env}?`) }),
        () => {
          const [good, bad] = pick(STYLES) as string[];
          return { memory: { type: 'preference', content: `Prefer ${good} over ${bad} in the ${comp} code for ${env}.` }, questions: ask(`Which style is preferred in the ${comp} code for ${env}?`, `What coding convention does the ${comp} favour on ${env}?`) };
        },
      ];
      const decisions: Array<() => Built> = [
        () => ({ memory: { type: 'decision', content: `We decided to move the ${comp} in ${env} to ${pick(PLATFORMS)} because the old hosts kept failing.` }, questions: ask(`Where did we decide to move the ${comp} in ${env}?`, `Which platform does the ${comp} run on in ${env} now?`) }),
        () => {
          const data = pick(DATA);
          return { memory: { type: 'decision', content: `Decision: the ${comp} in ${env} stores ${data} in ${pick(DATABASES)}.` }, questions: ask(`Which database stores the ${data} of the ${comp} in ${env}?`, `Where is ${data} persisted for the ${comp} (${env})?`) };
        },
        () => ({ memory: { type: 'decision', content: `Decided to drop support for ${pick(LEGACY)} in the ${comp} on ${env}.` }, questions: ask(`What support was dropped in the ${comp} on ${env}?`, `Which legacy thing is no longer handled by the ${comp} in ${env}?`) }),
        () => ({ memory: { type: 'decision', content: `We chose ${pick(VENDORS)} as the provider for the ${comp} in ${env}.` }, questions: ask(`Which provider did we choose for the ${comp} in ${env}?`, `Who is the vendor behind the ${comp} on ${env}?`) }),
        () => ({ memory: { type: 'decision', content: `The ${comp} in ${env} will retry failed calls ${2 + Math.floor(random() * 6)} times with exponential backoff.` }, questions: ask(`How many times does the ${comp} in ${env} retry failed calls?`, `How often does the ${comp} try again after an error on ${env}?`) }),
      ];
      // Each (component, environment) gets some of the rules and decisions, never the same template twice.
      for (const make of [...rules, ...decisions]) if (random() < 0.6) built.push(make());
    }
  }
  const rulesAndDecisions = built.length;

  // Session notes: every task in every component, each on its own day.
  const notes: Array<{ built: Built; comp: string; task: readonly string[] }> = [];
  for (const comp of COMPONENTS) {
    for (const task of TASKS) {
      notes.push({ comp, task, built: { memory: { type: 'session', content: `Session notes: ${task[0]} in the ${comp}; ${pick(OUTCOMES)}.` }, questions: [] } });
    }
  }

  // Chat turns: every speaker says each kind of thing once, and a lot of small talk.
  const turns: Built[] = [];
  for (const speaker of SPEAKERS) {
    for (const chat of CHAT) {
      const exact = chat.exact.replace('{s}', speaker);
      const paraphrase = chat.paraphrase.replace('{s}', speaker);
      turns.push({ memory: { type: 'session', content: `${speaker}: ${chat.say(pick(chat.values))}` }, questions: [{ query: random() < 0.5 ? exact : paraphrase, kind: 'speaker' }] });
    }
    for (let i = 0; i < 70; i += 1) turns.push({ memory: { type: 'session', content: `${speaker}: ${pick(FILLER)}` }, questions: [] });
  }

  // Dates: spread over three years; notes of one component never share a day.
  const memories: SetMemory[] = [];
  const questions: SetQuestion[] = [];
  const start = Date.UTC(2023, 0, 1);
  const dayMs = 86_400_000;
  const add = (b: Built, at: number, asked: boolean) => {
    const id = `m${String(memories.length).padStart(5, '0')}`;
    memories.push({ id, ...b.memory, namespace: pick(PROJECTS), createdAt: new Date(at).toISOString() });
    if (asked) for (const q of b.questions) questions.push({ ...q, expected: id });
    return id;
  };
  const randomTime = () => start + Math.floor(random() * 1095) * dayMs + Math.floor(random() * dayMs);
  const askedRules = new Set(sample(random, rulesAndDecisions, 160));
  built.forEach((b, i) => add(b, randomTime(), askedRules.has(i)));

  const byComponentDays = new Map<string, Set<number>>();
  const askedNotes = new Set(sample(random, notes.length, 90));
  notes.forEach((note, i) => {
    const used = byComponentDays.get(note.comp) ?? new Set<number>();
    byComponentDays.set(note.comp, used);
    let day = Math.floor(random() * 1095);
    while (used.has(day)) day = (day + 1) % 1095;
    used.add(day);
    const at = start + day * dayMs + Math.floor(random() * dayMs);
    const id = add(note.built, at, false);
    if (!askedNotes.has(i)) return;
    const date = new Date(at);
    const when = random() < 0.5
      ? `${date.getUTCDate()} ${MONTH_NAMES[date.getUTCMonth()]} ${date.getUTCFullYear()}`
      : `${MONTH_NAMES[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
    // Half ask for the day's work (the date answers which note), half ask when a task was done.
    if (i % 2 === 0) questions.push({ query: `What did we work on in the ${note.comp} on ${when}?`, kind: 'date', expected: id });
    else if (random() < 0.5) questions.push({ query: `When did we ${note.task[1]} in the ${note.comp}?`, kind: 'exact', expected: id });
    else questions.push({ query: `When did someone ${note.task[2]} in the ${note.comp}?`, kind: 'paraphrase', expected: id });
  });

  const targets = turns.map((t, i) => ({ t, i })).filter(({ t }) => t.questions.length > 0);
  const chosenTurns = new Set(sample(random, targets.length, 100).map((k) => targets[k]?.i));
  shuffle(random, turns.map((t, i) => ({ t, i }))).forEach(({ t, i }) => add(t, randomTime(), chosenTurns.has(i)));
  return { memories, questions };
}

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `count` distinct indexes below `n`. */
function sample(random: () => number, n: number, count: number): number[] {
  return shuffle(random, Array.from({ length: n }, (_, i) => i)).slice(0, Math.min(n, count));
}

function shuffle<T>(random: () => number, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}
