/**
 * fast-check generators for transcript lines shaped like Claude Code, Factory droid and simplified
 * JSONL records, with injected context (`<system-reminder>`, `<recall-context>`) that must never
 * reach a rendered turn. Shared by the property tests under test/property/.
 */
import fc from 'fast-check';

/** Appears only inside injected-context spans; a turn holding it leaked injected context. */
export const INJECTED = 'INJECTED_CONTEXT_7F3A';

/** Fragments that stress the tag scanner without ever holding the sentinel themselves. */
const TAG_NOISE = [
  '<system-reminder>',
  '</system-reminder>',
  '<recall-context>',
  '</recall-context>',
  '<system-reminder id="x">',
  '<recall-context',
  '<command-name>',
  '</command-args>',
  '<private>',
  '\u001b[31m',
  '\r\n',
  '\n\n\n',
  '   ',
  '<',
  '>',
];

/** Plain text: ASCII, full unicode, or text mixed with tag fragments. */
export const plainText: fc.Arbitrary<string> = fc
  .oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc.array(fc.oneof(fc.constantFrom(...TAG_NOISE), fc.string({ maxLength: 8 })), { maxLength: 8 }).map((parts) => parts.join('')),
  )
  .filter((text) => !text.includes(INJECTED));

/** A span of injected context around the sentinel: closed, with attributes, or cut off (unclosed). */
const injectedSpan: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('system-reminder', 'recall-context'), fc.constantFrom('', ' type="startup"', '\n'), fc.boolean(), fc.constantFrom('', '\n', ' more words '))
  .map(([tag, attr, closed, pad]) => {
    const open = attr === '\n' ? `<${tag}>\n` : `<${tag}${attr}>`;
    return `${open}${pad}${INJECTED}${pad}${closed ? `</${tag}>` : ''}`;
  });

/** Text that may carry injected context anywhere among plain text. */
export const messageText: fc.Arbitrary<string> = fc
  .array(fc.oneof({ weight: 3, arbitrary: plainText }, { weight: 1, arbitrary: injectedSpan }), { maxLength: 5 })
  .map((parts) => parts.join(''));

const toolUseBlock = fc.record({
  type: fc.constant('tool_use'),
  id: fc.string({ minLength: 1, maxLength: 12 }),
  name: fc.oneof(fc.constantFrom('Bash', 'Read', 'Grep', 'Edit', 'Task', 'mcp__x__y'), fc.string({ maxLength: 10 })),
  input: fc.oneof(
    fc.record({ command: messageText }, { requiredKeys: [] }),
    fc.record({ file_path: messageText, pattern: messageText, path: plainText }, { requiredKeys: [] }),
    fc.jsonValue({ maxDepth: 2 }),
  ),
});

const resultContent = fc.oneof(
  messageText,
  fc.array(
    fc.oneof(
      messageText,
      fc.record({ type: fc.constant('text'), text: messageText }),
      fc.record({ type: fc.constant('image'), source: fc.constant({ type: 'base64', data: 'AAAA' }) }),
      fc.jsonValue({ maxDepth: 1 }),
    ),
    { maxLength: 3 },
  ),
  fc.jsonValue({ maxDepth: 1 }),
);

const toolResultBlock = fc.record(
  { type: fc.constant('tool_result'), tool_use_id: fc.string({ maxLength: 12 }), content: resultContent, is_error: fc.boolean() },
  { requiredKeys: ['type', 'content'] },
);

const contentBlocks = fc.array(
  fc.oneof(
    fc.record({ type: fc.constant('text'), text: messageText }),
    messageText,
    toolUseBlock,
    toolResultBlock,
    fc.record({ type: fc.constantFrom('thinking', 'redacted_thinking', 'image', 'document'), thinking: messageText }),
    fc.jsonValue({ maxDepth: 2 }),
  ),
  { maxLength: 4 },
);

export const content: fc.Arbitrary<unknown> = fc.oneof(messageText, contentBlocks, fc.jsonValue({ maxDepth: 2 }));

const role = fc.oneof({ weight: 4, arbitrary: fc.constantFrom('user', 'assistant', 'tool', 'system') }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 0 }) });
/** Mostly absent or false: a true flag makes the whole line yield nothing. */
const flag = fc.oneof({ weight: 6, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.boolean() }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 0 }) });
const flags = fc.record(
  { isSidechain: flag, isMeta: flag, isCompactSummary: flag, uuid: fc.uuid(), sessionId: fc.string() },
  { requiredKeys: [] },
);

/** Claude Code: `{type, message: {id?, role, content}}` plus bookkeeping types. */
const claudeLine = fc
  .tuple(
    fc.constantFrom('user', 'assistant', 'progress', 'system', 'summary', 'file-history-snapshot'),
    fc.record({ id: fc.oneof(fc.string({ maxLength: 6 }), fc.integer()), role, content }, { requiredKeys: ['content'] }),
    flags,
  )
  .map(([type, message, extra]) => ({ ...extra, type, message }));

/** Factory droid: `{type: "message", message: {role, content}}` and `session_start`. */
const factoryLine = fc
  .tuple(fc.constantFrom('message', 'session_start'), fc.record({ role, content }, { requiredKeys: [] }), flags)
  .map(([type, message, extra]) => ({ ...extra, type, message }));

/** Simplified: `{role, content}` or `{type, content}` without `message`. */
const simplifiedLine = fc.oneof(
  fc.record({ role, content }, { requiredKeys: [] }),
  fc.record({ type: fc.constantFrom('user', 'assistant'), content }),
);

/** A transcript record of any of the three shapes, or an arbitrary JSON object. */
export const transcriptRecord: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: claudeLine },
  { weight: 2, arbitrary: factoryLine },
  { weight: 2, arbitrary: simplifiedLine },
  { weight: 1, arbitrary: fc.object({ maxDepth: 2 }) },
);

/** One physical line: a record as JSON, or garbage (never a NUL, which marks a binary file). */
export const transcriptLine: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: transcriptRecord.map((record) => JSON.stringify(record)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 1, arbitrary: transcriptRecord.map((record) => JSON.stringify(record).slice(0, -3)) },
  { weight: 1, arbitrary: fc.constantFrom('', '   ', 'null', '[]', '42', '"text"', '{', '}') },
).map((line) => line.replace(/\0/g, ''));
