/**
 * Words left out of the text side's query: English function words and the words of a question
 * ("what", "did", "his"), which match most memories and so rank short ones by chance. The full-text
 * index drops only a short list of its own (LanceDB's English list: "the", "of", "is", ...).
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing done down during each else ever few for from further get got had has have having he her ' +
    'here hers herself him himself his how i if in into is it its itself just let me might more most much must my myself ' +
    'no nor not now of off on once only or other ought our ours ourselves out over own same say said shall she should so ' +
    'some such than that the their theirs them themselves then there these they this those through to too under until up ' +
    'us very was we were what when where which while who whom whose why will with would you your yours yourself yourselves ' +
    'tell know remember recall anything something thing things ever also'
  ).split(' '),
);
