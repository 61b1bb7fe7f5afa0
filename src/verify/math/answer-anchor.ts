/**
 * The phrases that introduce a final answer, in English and in the languages of the common
 * multilingual math sets: the answer prefixes of MGSM (lm-evaluation-harness's native chain of
 * thought: "Die Antwort lautet", "La réponse est", "答えは…です", "Ответ —", "答案是"; simple-evals'
 * "Antwort:", "答え:", "উত্তর:") and of multilingual MMLU (simple-evals: "정답:", "답변:", "답:",
 * "答：", "Resposta:", "Risposta:"), with the "final answer" forms of each language.
 * Matched case-insensitively; what follows the last one is the answer.
 */
const PHRASES = [
  // English
  'final\\s+answer\\s*(?:is|:|=)',
  'the\\s+answer\\s+is',
  'answer\\s*[:：]',
  '\\banswer\\s+is',
  'the\\s+result\\s+is',
  'therefore[,\\s]+the\\s+(?:value|solution)\\s+is',
  // Chinese
  '(?:最终|最后的?)?答案\\s*(?:是|为|為|[:：])',
  '最终答案',
  '(?<![\\u4e00-\\u9fff])答\\s*[:：]',
  // Japanese
  '答えは',
  '答え\\s*[:：]',
  '(?:解答|回答)\\s*[:：]',
  // Korean
  '(?<![\\uac00-\\ud7a3])(?:정답|답)\\s*(?:은|[:：])',
  '답변\\s*[:：]',
  // French, German, Spanish, Portuguese, Italian
  'la\\s+réponse\\s+(?:finale\\s+)?est',
  'réponse(?:\\s+finale)?\\s*[:：]',
  'die\\s+(?:endgültige\\s+)?antwort\\s+(?:lautet|ist)',
  'antwort\\s*[:：]',
  'la\\s+respuesta\\s+(?:final\\s+)?es',
  'respuesta(?:\\s+final)?\\s*[:：]',
  'a\\s+resposta\\s+(?:final\\s+)?é',
  'resposta(?:\\s+final)?\\s*[:：]',
  'la\\s+risposta\\s+(?:finale\\s+)?è',
  'risposta(?:\\s+finale)?\\s*[:：]',
  // Russian
  '(?:окончательный\\s+)?ответ\\s*(?:[:：—–]|-(?!\\d)|равен|будет)',
  // Swahili, Bengali, Thai, Telugu (MGSM)
  'jibu\\s+ni',
  'jibu\\s*[:：]',
  'উত্তর\\s*[:：ঃ]',
  'คำตอบคือ',
  'คำตอบ\\s*[:：]',
  'సమాధానం\\s*[:：]?',
];

export const ANSWER_ANCHOR = new RegExp(`(?:${PHRASES.join('|')})\\s*(?:\\*\\*)?\\s*[:：]?\\s*`, 'gi');
