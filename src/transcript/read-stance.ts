/**
 * What a user's message does to the work before it, read from the whole message rather than its first word:
 * it corrects the assistant (a "no", a complaint that something still fails, a request to undo), makes a new
 * decision (use X instead of Y), asks a question, or agrees. A message can open with "ok" and still correct
 * ("ok. uh. no. the ci is running...") or change a decision ("ok. let's use apple container instead of
 * docker"), so corrections and decisions are looked for first, anywhere in the message's opening. Cues are
 * given for English, Chinese, Spanish, German, French, Japanese, Portuguese and Russian. Pure; linear.
 */

export type Stance = 'agrees' | 'corrects' | 'decides' | 'asks';

/** What else a message says about the work before it, for outcomes. */
export interface StanceReading {
  stance?: Stance;
  /** The user says what came before does not work ("still failing", "that broke", "还是报错"). */
  failed: boolean;
  /** The user asks to undo what came before ("revert that", "undo", "回滚"). */
  undo: boolean;
}

/** How far into a message its stance is read: past this it is usually a task description. */
const OPENING_CHARS = 400;

/** A clause that is only a refusal. */
const BARE_NO = /^(?:no+|nope|nah|no no|no way|wrong|incorrect|not quite|not really|not like that|not that|nein|non|não|nao|нет|неа|не так|не то|违う|違う|ちがう|いいえ|いや|だめ|ダメ|不|不对|不是|错了|不行|不要|别|falsch|faux|errado|incorrecto|incorrecta|mal)$/;
/** A clause that opens with a refusal followed by more words ("no I meant", "no, the ci..."). */
const NO_LEAD = /^(?:no+|nope|nah|nein|non|não|нет)\s+(?:i|we|you|that|this|it|not|don'?t|do not|wait|stop|actually|please|the ci|we're|you're|that's|it's|ich|du|das|je|tu|ce|eu|você|я|ты|это)(?![\p{L}\p{N}_])/u;

const FAILED: readonly RegExp[] = [
  // English
  /\b(?:still|again)\s+(?:fail(?:s|ing|ed)?|broken|crash(?:es|ing)?|erroring|errors?|not working|doesn'?t work|does not work|the same|seeing|getting|get|happening|there|red)\b/,
  /\b(?:doesn'?t|does not|didn'?t|did not|isn'?t|is not|won'?t|wasn'?t|not)\s+(?:work(?:ing|ed)?|fixed)\b|\b(?:doesn'?t|does not|didn'?t|did not|won'?t)\s+(?:fix (?:it|anything|the)|help|compile|build|start|load)\b/,
  /\b(?:that|this|it|you|which)\s+(?:broke|breaks|has broken|is broken|broken)\b/,
  /\bbroke (?:the|it|everything|my|our)\b/,
  /\b(?:same|identical) (?:error|issue|problem|result|failure|bug)\b/,
  /\bnothing (?:changed|happens|happened)\b/,
  /\b(?:doesn'?t|does not|didn'?t|did not|won'?t|can'?t|cannot|can no longer|no longer) (?:seem to )?(?:work|let me|handle|show|load|render|save|update|apply|start|build|connect|find|see|be (?:found|highlighted|seen))\b/,
  /\bi (?:don'?t|do not|can'?t|cannot) see (?:the|any|it|them|my|what)\b|\bnot (?:showing|working|loading|updating|rendering|saving)\b/,
  /\b(?:i'?m getting|i get|i got|getting|i see|i'm seeing|hit|it shows|throws)\b[^.]{0,80}\b(?:errors?|exceptions?|fail(?:ed|ure|s)?|crash(?:es|ed)?|404|500|undefined|not found)\b/,
  /\bhere'?s the (?:error|output|log|stack ?trace|traceback)\b|\b(?:fix|see) (?:these|this|the) (?:\w+ )?(?:errors?|warnings?|failures?)\b/,
  /^(?:error|typeerror|syntaxerror|referenceerror|exception|traceback|fatal|failed|=> error|⨯|✗|×)\b/,
  /\bi (?:reverted|undid|discarded|rolled back)\b|\bi'?ve (?:reverted|undone|discarded|rolled back)\b/,
  // Chinese
  /报错|失败(?!时|后|的情况|重试)|无法|错误(?!处理|信息|码|提示|日志|页|边界)|(?:这样|这个|方案|还是|也|都|根本)不行|不行了|行不通|挂了|打不开|白屏|崩了|崩溃|没反应|不生效|还是(?:不行|报错|错|失败|一样|没|不|有问题)|仍然(?:报错|失败|不行|有)|依然(?:报错|失败|不行|有)|没(?:有)?(?:用|效果|解决|生效|成功)|不起作用|不(?:能)?工作|坏了|搞坏|出错了|报错了|失败了|跑不起来|编译不过/,
  // Spanish
  /\b(?:sigue|siguen|todavía|aún)\s+(?:fallando|sin funcionar|igual|dando error|roto|mal|sin)\b|\bno funciona\b|\bno sirve\b|\b(?:se )?rompi(?:ó|ste)\b/,
  // German
  /\b(?:funktioniert|geht|läuft|klappt)\s+(?:immer noch |noch immer |trotzdem )?nicht\b|\bimmer noch (?:kaputt|falsch|fehler|der gleiche|dasselbe|nicht)\b|\bkaputt\b/,
  // French
  /\b(?:ça|cela|ca) ne (?:marche|fonctionne) (?:toujours )?pas\b|\bne (?:marche|fonctionne) (?:toujours |plus )?pas\b|\btoujours (?:pas|la même erreur|le même problème|cassé)\b|\bcassé\b/,
  // Japanese
  /まだ(?:動かない|エラー|失敗|直って|ダメ|駄目|同じ)|動かない|直ってない|直っていない|壊れ|失敗してる|エラーが出/,
  // Portuguese
  /\bainda (?:falha|falhando|não funciona|nao funciona|dá erro|da erro|quebrado|com erro|o mesmo)\b|\bnão (?:funciona|funcionou)\b|\bquebrou\b/,
  // Russian
  /(?:всё|все) (?:ещё|еще) (?:не работает|падает|ошибка|сломано)|до сих пор (?:не работает|падает|ошибка)|не работает|не помогло|сломал(?:ось|ся|и)?|та же ошибка/,
];

const UNDO: readonly RegExp[] = [
  /\b(?:revert|undo|roll ?back|back out)\b(?!\s*(?:\/|or |and )\s*redo|\s+(?:button|endpoint|function|method|command|feature|logic|support|stack|history|manager|behaviou?r|plan))|\breset (?:it|that|this|those|these|your changes|the changes)\b/,
  /\bput (?:it|that|this|them) back\b|\bchange (?:it|that|this) back\b|\bgo back to (?:the )?(?:old|previous|original)\b/,
  /撤销|撤回|回滚|回退|还原|恢复原|改回|退回/,
  /\b(?:deshaz|deshacer|revierte|revertir|vuelve atrás|vuelve a como estaba)\b/,
  /\brückgängig\b|\bzurücksetzen\b|\bzurück(?:nehmen|drehen)\b/,
  /\bannule(?:r|z)?\b|\breviens en arrière\b|\bremets\b/,
  /元に戻|取り消|戻して|リバート/,
  /\b(?:desfaz|desfazer|desfaça|reverte|reverter|volta atrás|volte atrás)\b/,
  /откати|отмени|верни (?:как было|обратно|назад)/,
];

/** An opening clause that stops the assistant. */
const STOPS = /^(?:(?:don'?t|do not|stop|please don'?t|please do not|never do that|wait|hold on|hang on|actually,? (?:no|that|it|the|you))\b|先?(?:别|不要|停|等等|等一下)|先不要)/;

const CORRECTS: readonly RegExp[] = [
  // English
  /\b(?:that'?s|that is|this is|it'?s|it is|you'?re|you are)\s+(?:not (?:right|correct|what|how|it)|wrong|incorrect|the wrong)\b/,
  /\bnot what i (?:asked|wanted|meant|said)\b|\bi (?:said|told you|asked you|meant)\b|\bi didn'?t (?:ask|say|want)\b/,
  /\bwhy (?:did|do|would|are|have) you\b|\bwho told you\b/,
  /\byou (?:broke|forgot|missed|ignored|skipped|deleted|removed|didn'?t|did not|shouldn'?t|should not|should have|were supposed)\b/,
  /\bwrong (?:file|place|branch|directory|folder|function|approach|way|one|answer)\b/,
  /\btry again\b|\bthat didn'?t\b/,
  /\bwrong\b|\bone correction\b|\bnot the (?:issue|problem|point)\b|\b(?:this|that|it)(?:'s| is) confusing\b|\bgoing in circles\b|\bstep back\b/,
  /\byou don'?t understand\b|\bi don'?t think you\b|\bisn'?t that\b|\bremember (?:that|this|we|you|to)\b/,
  /\bi'?ll (?:run|test|do|deploy|check|start|handle) (?:it |that |this |them |the [\w-]+ (?:[\w-]+ )?|fly [\w-]+ |[\w-]+ commands )?(?:myself|manually|by myself)\b|\bdo (?:this|it|that) yourself\b|\bso i can test it manually\b/,
  // Chinese
  /发现(?:了)?.{0,6}问题|误删|不应该|不对|不是这样|不是这个|不是我要的|错了|搞错|你(?:怎么|为什么|为啥)|为什么(?:要|你)|我说的是|我让你|我是说|并没有|别(?:改|动|这样|乱)|不要(?:改|动|这样|乱)|不用这样|停下|等一下/,
  // Spanish
  /\beso no\b|\bno es (?:así|eso|correcto|lo que)\b|\bestá mal\b|\bte dije\b|\bpor qué (?:hiciste|cambiaste|borraste)\b|\bno hagas\b/,
  // German
  /\bstimmt nicht\b|\bdas ist (?:falsch|nicht richtig)\b|\bwarum hast du\b|\bich (?:sagte|habe gesagt|meinte)\b|\bnicht so\b|\bmach das nicht\b/,
  // French
  /\bc'est (?:faux|pas (?:ça|bon|correct))\b|\bpas comme ça\b|\bpourquoi (?:as-tu|tu as)\b|\bje t'ai dit\b|\bne fais pas\b/,
  // Japanese
  /そうじゃない|そうではない|なぜ.{0,20}(?:した|変え|消し)|やめて|違います|間違って/,
  // Portuguese
  /\bnão é (?:isso|assim|o que)\b|\bestá errado\b|\bpor que você\b|\beu disse\b|\bnão faça\b/,
  // Russian
  /неправильно|неверно|зачем ты|я же сказал|я просил|не надо/,
];

const DECIDES: readonly RegExp[] = [
  // English
  /\binstead of\b|\binstead\b|\brather than\b/,
  /\b(?:let'?s|lets|we(?:'ll| will| should)|i(?:'d| would) rather|i want to|we want to)\s+(?:use|go with|switch|move to|change to|stick with|drop|replace|keep using|migrate to|not use)\b/,
  /\bswitch (?:to|over to|back to)\b|\bgo with\b|\bstick with\b|\bmigrate to\b|\breplace \S+(?: \S+){0,4} with\b/,
  /\b(?:we|you) (?:don'?t|do not) (?:need|want)\b|\bno need (?:to|for)\b|\bdoes(?:n'?t| not) need to\b|\bforget (?:the|about)\b|\bput (?:it|that|them) back\b|\bwe should (?:just )?(?:always|never)\b|\blet'?s not\b|\brewrite .{0,40}\bin \w+/,
  /\bfrom now on\b|\bgoing forward\b|\bi(?:'ve| have)? decided\b|\bwe(?:'ve| have)? decided\b|\bchange of plans?\b/,
  // Chinese
  /(?:别|不要|不用)再?用|改用|换成|换用|改成|改为|替换成|代替|替代|而不是|不用.{1,20}(?:了|改用|用)|决定|还是用|就用|统一用|以后(?:都)?用|从现在起|从现在开始/,
  // Spanish
  /\ben (?:lugar|vez) de\b|\bmejor (?:usa|usemos|usar|vamos)\b|\bcambia(?:mos)? a\b|\bvamos a usar\b|\busemos\b|\bdecidí\b|\bhemos decidido\b|\ba partir de ahora\b/,
  // German
  /\bstattdessen\b|\banstatt\b|\blieber\b|\bwechsel(?:n)? (?:zu|auf)\b|\bnehmen wir\b|\blass uns .{0,30}(?:verwenden|nutzen|nehmen)\b|\bab jetzt\b|\bentschieden\b/,
  // French
  /\bau lieu de\b|\bplutôt\b|\bpassons à\b|\butilisons\b|\bon va utiliser\b|\bremplace .{0,30} par\b|\bdésormais\b|\bà partir de maintenant\b|\bj'ai décidé\b/,
  // Japanese
  /代わりに|ではなく|じゃなくて|に(?:変更|切り替え|変え)|にしよう|で行こう|を使おう|今後は/,
  // Portuguese
  /\bem vez de\b|\bao invés de\b|\bvamos usar\b|\btroca(?:r)? (?:para|por)\b|\bmuda(?:r)? para\b|\ba partir de agora\b|\bdecidi\b/,
  // Russian
  /вместо|давай(?:те)? (?:использовать|возьм[её]м|перейд[её]м)|перейди на|лучше (?:используй|возьми)|теперь (?:используем|будем)|решил/,
];

/** An opening that asks for work rather than information, even when it ends in a question mark. */
const REQUEST = /^(?:can you|could you|would you|will you|can we|could we|please|pls|let'?s|lets|mind|may you|能不能|能否|可以帮|帮我|请|麻烦|puedes|podrías|kannst du|könntest du|peux-tu|pourrais-tu|pode|poderia|можешь|не мог бы)/;
const QUESTION_START = /^(?:what|why|how|where|when|which|who|whose|is|are|was|were|does|do|did|has|have|had|should|shall|isn'?t|aren'?t|doesn'?t|didn'?t|any idea|what'?s|how'?s|wait,? (?:what|why|how)|qué|por qué|cómo|dónde|cuál|was|warum|wie|wo|welche|wann|gibt es|est-ce que|pourquoi|comment|quel|quelle|où|por que|porque|como|qual|onde|почему|как|что|где|какой|зачем|ли)(?![\p{L}\p{N}_])/u;
const QUESTION_CJK = /(?:吗|呢|什么|为什么|为啥|怎么|哪|是否|有没有|多少|ですか|ますか|でしょうか|のか|か)[？?]?$/;

const AGREES = /^(?:please do(?: so| it| that)?|do it(?: now)?|begin (?:implementing|the implementation)|start implementing|(?:this|that|it) (?:is great|is perfect|works(?: well| great)?|worked|looks (?:good|great)|is a good (?:plan|idea|approach))|we'?re clean|all good|yes+|yep|yeah|yup|ya|sure|ok(?:ay)?|k|kk|great|perfect|thanks|thank you|thx|ty|lgtm|looks good(?: to me)?|sounds good|good|very good|nice|cool|awesome|excellent|exactly|correct|right|agreed|agree|i agree|go ahead|go for it|do it|proceed|approved?|ship it|works|it works|that works|that worked|love it|beautiful|brilliant|amazing|confirmed|👍|✅|好|好的|可以|行|对|是的|没问题|不错|很好|谢谢|同意|就这样|嗯|sí|si|vale|perfecto|gracias|de acuerdo|correcto|genial|dale|bien|ja|genau|passt|perfekt|danke|gut|super|einverstanden|richtig|stimmt|oui|d'accord|parfait|merci|exactement|c'est bon|très bien|nickel|はい|いいね|いいです|ありがとう|了解|完璧|そうです|sim|perfeito|obrigad[oa]|beleza|certo|ótimo|isso|combinado|да|отлично|спасибо|хорошо|согласен|верно|правильно|ок|супер)(?![\p{L}\p{N}_])/u;

const PLACEHOLDER = /\[pasted [a-z ]+ #\d+\]/g;
/** A log or a stack trace pasted into a reply: the user shows what went wrong. */
const PASTED_FAILURE = /\[pasted (?:log|stack trace) #\d+\]/;
/** The last character of a trimmed message that asks (trimming removes what `\s` matches). */
const QUESTION_END = /^[?？]$/;
/** A first sentence that asks. */
const FIRST_QUESTION = /^[^.!?\n。！？]{3,200}[?？]/;

/** Clauses of the message's opening, lower-cased, split at sentence and clause punctuation. */
function clausesOf(text: string): string[] {
  let opening = text.slice(0, OPENING_CHARS).toLowerCase();
  if (opening.includes('[pasted ')) opening = opening.replace(PLACEHOLDER, ' ');
  if (opening.includes('`')) opening = opening.replace(/`[^`]*`/g, ' code ');
  return opening
    .split(/[.!;,:\n。！；，、…]+|\s+-\s+|\?(?=\s)/)
    .map((c) => c.replace(/\s+/g, ' ').replace(/^(?:uh+|um+|hm+|hmm+|well|so|oh|ah|嗯|呃)\s*/u, '').trim())
    .filter((c) => c !== '');
}

/**
 * One expression matching where any of `patterns` does (all without flags or backreferences): one search of a
 * clause instead of one per pattern.
 */
function anyOf(patterns: readonly RegExp[]): RegExp {
  return new RegExp(patterns.map((p) => `(?:${p.source})`).join('|'));
}

const ANY_FAILED = anyOf(FAILED);
const ANY_UNDO = anyOf(UNDO);
const ANY_CORRECTS = anyOf(CORRECTS);
const ANY_DECIDES = anyOf(DECIDES);

/** Reads what a message does. `reply`: it follows the assistant's work (not the session's opening request). */
export function readStance(text: string, { reply }: { reply: boolean }): StanceReading {
  const clauses = clausesOf(text);
  const opening = clauses.join(' . ');
  const failed = reply && (ANY_FAILED.test(opening) || PASTED_FAILURE.test(text));
  const undo = reply && ANY_UNDO.test(opening);
  const first = clauses[0] ?? '';
  const refusal = clauses.slice(0, 4).some((c) => BARE_NO.test(c) || NO_LEAD.test(c));
  if (reply && (refusal || failed || undo || STOPS.test(first) || clauses.some((c) => ANY_CORRECTS.test(c)))) return { stance: 'corrects', failed, undo };
  if (ANY_DECIDES.test(opening)) return { stance: 'decides', failed, undo };
  const trimmed = text.trim().replace(PLACEHOLDER, '').trim();
  const short = trimmed.length <= 300;
  const asking = QUESTION_END.test(trimmed.slice(-1)) || FIRST_QUESTION.test(trimmed) || (short && (QUESTION_START.test(first) || QUESTION_CJK.test(first)) && !REQUEST.test(first));
  if (asking && !REQUEST.test(first)) return { stance: 'asks', failed, undo };
  if (reply && AGREES.test(first)) return { stance: 'agrees', failed, undo };
  return { failed, undo };
}
