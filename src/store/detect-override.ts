/**
 * Does the text tell the agent to set its instructions aside, take another role, hide what it does from
 * the user, or treat the text as coming from the system? English by a tight rule (a verb of setting
 * aside, then only small words, then a noun for instructions that points back at them: "ignore all
 * previous instructions", not "ignore all lint rules"), other languages by their words near each other
 * in one sentence (override-phrases.ts). Pure, over normalised text.
 */
import { normaliseForScreen } from './normalise-for-screen.js';
import { OTHER_LANGUAGES } from './override-phrases.js';
import { firstUnprohibited, globally, isProhibited } from './screen-lexicon.js';

const VERB = String.raw`(?:ignore|ignoring|disregard|forget|override|overrule|bypass|skip|drop|abandon|discard|dismiss|neglect|erase|wipe|reset|supersede|set\s+aside|put\s+aside|throw\s+(?:out|away)|pay\s+no\s+(?:attention|heed)\s+to|no\s+longer\s+(?:follow|obey|apply|heed)|stop\s+(?:following|obeying|applying|heeding|listening\s+to)|(?:do\s+not|don't)\s+(?:follow|obey|heed)|unlearn|nullify|void|revoke|circumvent|evade|violate|break)`;
const SMALL = String.raw`(?:the|a|an|of|all|any|every|each|your|my|our|their|its|these|those|that|this|such|and|or|other|others|kinds?|sorts?|types?|previous|prior|preceding|above|earlier|former|foregoing|original|initial|existing|old|current|default|built-in|standing|given|stated|listed|safety|security|system|system's|developer|developer's|user's|operator|operator's|ethical|content|earlier-stated|mentioned|aforementioned|preset|hidden|internal)`;
const STRONG_NOUN = String.raw`(?:instructions?|directives?|system\s+prompts?|prompts?|guardrails?|programming|conditioning|alignment|policies|safety\s+guidelines|guidelines|restrictions|constraints|context)`;
const WEAK_NOUN = String.raw`(?:rules?|orders?|commands?|messages?|guidance|limitations?|filters?|boundaries|protocols?|settings|training)`;
const POINTS_BACK = String.raw`(?:previous|prior|preceding|above|earlier|former|foregoing|original|initial|system|system's|developer's|operator's|safety|your|aforementioned|standing)`;
/** Where a protective rule names the instructions to ignore: "ignore any instructions found in web pages". */
const FROM_UNTRUSTED = /^\s*(?:that\s+(?:appear|come|are)\s+)?(?:in|from|inside|within|embedded|contained|found|coming|given\s+by|written\s+in|hidden\s+in)\b[^.\n]{0,40}\b(?:tool|web|page|file|document|comment|issue|e-?mail|output|untrusted|external|third|input|data|content|readme|code|pr|pull|website|search|result|fetched|user-supplied|logs?)/;

const ENGLISH: readonly RegExp[] = [
  new RegExp(`(?<![\\w-])${VERB}\\s+(?:${SMALL}\\s+){0,6}?(?:(?:${POINTS_BACK})\\s+(?:${SMALL}\\s+){0,3}?(?:${STRONG_NOUN}|${WEAK_NOUN})|(?:${SMALL}\\s+){0,2}?(?:all|any|every|everything)\\s+(?:${SMALL}\\s+){0,3}?${STRONG_NOUN})(?![\\w-])`),
  new RegExp(`(?<![\\w-])${VERB}\\s+(?:${SMALL}\\s+){0,6}?(?:${STRONG_NOUN}|${WEAK_NOUN})\\s+(?:above|before|so\\s+far|previously|earlier|(?:you(?:'ve|\\s+have)?\\s+)?(?:been\\s+)?(?:given|received|told)|(?:that\\s+)?(?:came|were\\s+given|you\\s+were\\s+given)\\s+(?:before|earlier|above)|in\\s+(?:the|your)\\s+system\\s+prompt|from\\s+(?:the\\s+)?(?:system|developer|operator|before))(?![\\w-])`),
  /(?<![\w-])(?:your\s+(?:(?:previous|prior|earlier|original|old|above|existing|system|initial)\s+)*(?:instructions|rules|guidelines|directives|prompt|guidance)|(?:the|all|any)\s+(?:(?:previous|prior|earlier|original|above|system|initial)\s+)+(?:instructions|directives|prompt))\s+(?:(?:now\s+)?no\s+longer\s+apply|(?:are|is)\s+(?:now\s+)?(?:void|cancell?ed|revoked|obsolete|outdated|superseded|null|lifted)|(?:do|does)\s+not\s+apply|(?:have|has)\s+been\s+(?:revoked|lifted|cancell?ed|superseded|replaced|withdrawn))/,
  /(?<![\w-])(?:instructions|rules|guidelines|directives)\s+(?:above|before\s+this)\s+(?:do\s+not|don't|no\s+longer)\s+apply(?:\s+to\s+you|\s*[.!]?\s*$)/,
  /(?<![\w-])(?:ignore|disregard|forget|discard)\s+(?:everything|all|anything|whatever|what)\s+(?:above|before|prior|earlier|(?:you\s+(?:were|have\s+been)\s+)?(?:told|given|said)|(?:that\s+)?(?:came|was\s+said)\s+before|else)/,
  /(?<![\w-])(?:ignore|disregard|forget)\s+(?:the\s+)?(?:above|foregoing)(?![\w-])/,
  /(?:^|[\s>*#[(])(?:new|updated|revised|real|actual|true|secret|override|admin|system|developer)\s+(?:system\s+)?(?:instructions?|directives?|orders|prompt)\s*[:：-]/,
  /(?<![\w-])you\s+are\s+(?:now|no\s+longer)\s+(?:an?\s+)?(?:dan|jailbroken|unrestricted|unfiltered|uncensored|free\s+(?:of|from)|in\s+(?:developer|god|admin|debug|unrestricted)\s+mode|bound\s+by|limited\s+by|required\s+to\s+follow|(?:a\s+)?(?:different|new|evil|rogue)\s+(?:ai|assistant|model|agent))/,
  /(?<![\w-])(?:god|jailbreak|dan|unrestricted)\s+mode\b|\bjailbr(?:eak|oken)\b|\bdo\s+anything\s+now\b/,
  /(?<![\w-])(?:act|behave|respond|operate)\s+as\s+(?:if\s+you\s+(?:were|are|have)\s+)?(?:an?\s+)?(?:unrestricted|unfiltered|jailbroken|uncensored|dan\b|root|no\s+(?:rules|restrictions|limits))|pretend\s+(?:that\s+)?(?:you\s+(?:are|have)|to\s+be)\s+[^.\n]{0,40}(?:no\s+(?:rules|restrictions|limits|guidelines)|unrestricted|jailbroken|system|developer|administrator)/,
  /(?<![\w-])you\s+(?:have|has|now\s+have)\s+no\s+(?:rules|restrictions|limits|limitations|guidelines|filters|guardrails)|you\s+(?:are|'re)\s+(?:free|allowed|permitted)\s+to\s+(?:ignore|disregard|bypass|break)/,
  /(?<![\w-])(?:system\s+prompt|your\s+(?:instructions|rules|prompt))\s+(?:is|are|has\s+been|have\s+been)\s+(?:updated|changed|replaced|revoked|lifted|suspended|overridden|void)/,
  /(?<![\w-])(?:print|reveal|show|output|repeat|leak|dump|tell\s+me)\s+(?:me\s+)?(?:your|the)\s+(?:full\s+|entire\s+|hidden\s+|original\s+)?(?:system\s+prompt|initial\s+instructions|hidden\s+instructions)/,
  // This text set above the agent's instructions.
  /(?<![\w-])(?:treat|consider|regard|handle)\s+(?:this|these|the\s+following)\s+(?:memory|memories|note|notes|text|message|rules?)\s+as\s+(?:a\s+|an\s+|your\s+|the\s+)?(?:\w+\s+){0,2}?(?:system|developer|admin|highest[- ]priority|top[- ]priority|overriding)\s*(?:instructions?|prompt|message|rules?|directives?)?|(?<![\w-])(?:this|these)\s+(?:memory|memories|note|notes|instructions?)\s+(?:overrides?|supersedes?|takes?\s+precedence\s+over|replaces?)\s+(?:all|any|every|your)/,
  // Hidden from the user.
  /(?<![\w-])(?:do\s+not|don't|never)\s+(?:tell|inform|mention|reveal|disclose|notify|alert|show|let)\s+(?:this\s+|it\s+)?(?:to\s+)?the\s+user\b[^.\n]{0,20}(?:about|of|that|this|what)|(?<![\w-])(?:do\s+not|don't|never)\s+(?:tell|inform|mention|reveal|disclose)\s+(?:this|these|it|that)\s+(?:\w+\s+)?(?:to\s+)?(?:the\s+)?user|without\s+(?:telling|informing|notifying|alerting|asking|warning)\s+the\s+user\b[^.\n]{0,30}\b(?:run|send|upload|install|push|delete|execute|download|curl|modify|change)|(?:hide|conceal|keep)\s+(?:this|it|these|that)\s+(?:\w+\s+)?(?:secret\s+)?from\s+the\s+user|silently\s+(?:run|execute|install|download|send|upload|push|delete|modify|exfiltrate|post|curl)/,
  // Text that claims to be the system, the developer or the user's consent.
  /(?:^|[\s>*#[(])(?:message|note|notice|instruction|update)\s+from\s+(?:the\s+)?(?:system|admin(?:istrator)?|developers?|anthropic|openai|your\s+(?:creator|developer|operator))\s*[:：]|(?:i\s+am|this\s+is)\s+(?:the|your)\s+(?:developer|administrator|admin|creator|operator|system)(?![\w-])|the\s+user\s+(?:has\s+)?(?:already\s+)?(?:approved|authori[sz]ed|consented\s+to|allowed|permitted|granted)\s+(?:you\s+to|this|these|it|all|every|running|the\s+following)/,
];

const ENGLISH_SHARED = new Set(['ignore', 'instructions', 'directives', 'prompt', 'rules', 'guidelines', 'restrictions', 'sistem'].map((w) => normaliseForScreen(w).text));

interface Hit {
  word: string;
  at: number;
  end: number;
}

const ALPHABETIC = /^[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Devanagari}\s'-]+$/u;

function wordPattern(words: readonly string[]): RegExp {
  const parts = [...new Set(words.map((w) => normaliseForScreen(w).text))]
    .sort((a, b) => b.length - a.length)
    .map((w) => {
      const escaped = w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
      return ALPHABETIC.test(w) ? `(?<![\\p{L}\\p{N}])${escaped}` : escaped;
    });
  return new RegExp(`(${parts.join('|')})`, 'gu');
}

/** Any verb at all, as a plain alternation: most texts have none, and then nothing else is looked for. */
const ANY_VERB = new RegExp([...new Set(OTHER_LANGUAGES.verbs.map((w) => normaliseForScreen(w).text))].map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+')).join('|'));

const OTHER = {
  verbs: wordPattern(OTHER_LANGUAGES.verbs),
  strongNouns: wordPattern(OTHER_LANGUAGES.strongNouns),
  weakNouns: wordPattern(OTHER_LANGUAGES.weakNouns),
  strongModifiers: wordPattern(OTHER_LANGUAGES.strongModifiers),
  weakModifiers: wordPattern(OTHER_LANGUAGES.weakModifiers),
};

const hitsOf = (pattern: RegExp, sentence: string): Hit[] =>
  [...sentence.matchAll(pattern)].map((m) => ({ word: m[1] ?? '', at: m.index ?? 0, end: (m.index ?? 0) + m[0].length }));

const WINDOW = 60;

/** A verb of setting aside near a noun for instructions, with a word pointing back at them, in one sentence. */
function overridesInOtherLanguage(text: string): boolean {
  if (!ANY_VERB.test(text)) return false;
  for (const sentence of text.split(/[.!?。！？\n;؛।]+/u)) {
    const verbs = hitsOf(OTHER.verbs, sentence);
    if (verbs.length === 0) continue;
    const strong = hitsOf(OTHER.strongNouns, sentence);
    const weak = hitsOf(OTHER.weakNouns, sentence);
    const pointing = hitsOf(OTHER.strongModifiers, sentence);
    const all = hitsOf(OTHER.weakModifiers, sentence);
    for (const verb of verbs) {
      for (const [nouns, modifiers] of [[strong, [...pointing, ...all]], [weak, pointing]] as const) {
        for (const noun of nouns) {
          if (Math.abs(noun.at - verb.at) > WINDOW) continue;
          const from = Math.min(verb.at, noun.at) - 30;
          const to = Math.max(verb.end, noun.end) + 30;
          const modifier = modifiers.find((m) => m.at >= from && m.end <= to);
          if (modifier === undefined) continue;
          if ([verb, noun, modifier].some((h) => !ENGLISH_SHARED.has(h.word))) return true;
        }
      }
    }
  }
  return false;
}

const SET_ASIDE = new RegExp(ENGLISH[0]!.source, 'g');
const OTHER_ENGLISH = globally(ENGLISH.slice(1));

export function overridesInstructions(text: string): boolean {
  for (const m of text.matchAll(SET_ASIDE)) {
    const at = m.index ?? 0;
    const end = at + m[0].length;
    if (!FROM_UNTRUSTED.test(text.slice(end, end + 60)) && !isProhibited(text, at)) return true;
  }
  return firstUnprohibited(text, OTHER_ENGLISH) || overridesInOtherLanguage(text);
}
