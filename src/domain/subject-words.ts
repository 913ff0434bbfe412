// The words of a subject as community matching takes them: lower-case runs of letters and digits
// of at least two characters, each once, in order, without the English stop words (PostgreSQL's
// 'english' configuration drops the same ones, so both engines count the same words), at most
// MAX_SUBJECT_WORDS of them (each costs one index lookup).

export const MAX_SUBJECT_WORDS = 16;

/** The Snowball English stop words (PostgreSQL's english.stop). */
const STOP_WORDS = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself ' +
    'she her hers herself it its itself they them their theirs themselves what which who whom this ' +
    'that these those am is are was were be been being have has had having do does did doing a an ' +
    'the and but if or because as until while of at by for with about against between into through ' +
    'during before after above below to from up down in out on off over under again further then ' +
    'once here there when where why how all any both each few more most other some such no nor not ' +
    'only own same so than too very s t can will just don should now'
  ).split(' '),
);

export function subjectWords(subject: string): string[] {
  const words = subject
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 2 && !STOP_WORDS.has(w));
  return [...new Set(words)].slice(0, MAX_SUBJECT_WORDS);
}
