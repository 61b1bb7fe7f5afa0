import { createRequire } from 'node:module';

// franc (an ES module, required as one: Node ≥ 20.19) is loaded on the first language check:
// every process that registers the ifeval kind loads this module, and franc's trigram tables cost
// its start-up about 14 ms whether or not a language was ever detected.
const require = createRequire(import.meta.url);
let loadedFranc: typeof import('franc').franc | undefined;
const franc: typeof import('franc').franc = (...args) => {
  loadedFranc ??= (require('franc') as typeof import('franc')).franc;
  return loadedFranc(...args);
};

/** franc's ISO 639-3 codes for the languages IFEval asks for (and a few more), as ISO 639-1. */
const ISO_639_1: Record<string, string> = {
  eng: 'en',
  spa: 'es',
  por: 'pt',
  arb: 'ar',
  hin: 'hi',
  fra: 'fr',
  rus: 'ru',
  deu: 'de',
  jpn: 'ja',
  ita: 'it',
  ben: 'bn',
  ukr: 'uk',
  tha: 'th',
  urd: 'ur',
  tam: 'ta',
  tel: 'te',
  bul: 'bg',
  kor: 'ko',
  pol: 'pl',
  heb: 'he',
  pes: 'fa',
  vie: 'vi',
  npi: 'ne',
  swh: 'sw',
  kan: 'kn',
  mar: 'mr',
  guj: 'gu',
  pan: 'pa',
  mal: 'ml',
  fin: 'fi',
  cmn: 'zh',
  nld: 'nl',
  swe: 'sv',
  tur: 'tr',
  ind: 'id',
  ces: 'cs',
  ron: 'ro',
  hun: 'hu',
  ell: 'el',
  dan: 'da',
};
const CANDIDATES = Object.keys(ISO_639_1);

/**
 * The ISO 639-1 code of the text's language, or null when the text is too short or ambiguous
 * to tell (IFEval then counts the instruction as followed, as it does when langdetect fails).
 */
export function detectLanguage(text: string): string | null {
  const code = franc(text, { only: CANDIDATES, minLength: 10 });
  return ISO_639_1[code] ?? null;
}
