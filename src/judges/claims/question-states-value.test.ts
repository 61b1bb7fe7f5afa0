import { describe, expect, test } from 'vitest';
import { questionStatesValue } from './question-states-value.js';

describe('questionStatesValue', () => {
  test.each([
    ['numeric', 'Was 2023 revenue 1,200 million dollars?', '1200', true],
    ['numeric', 'What was the growth rate, in percent?', '12%', false],
    ['numeric', 'How many staff did Acme have in 2023?', '2023', true],
    ['numeric', 'How many staff did Acme have in 2023?', '230', false],
    ['claims', 'Is the capital of France Paris?', 'Paris', true],
    ['claims', 'Is the capital of France Paris?', 'yes', false],
    ['claims', 'Which city is the capital of France?', 'Paris', false],
  ] as const)('%s: %j with %j -> %s', (mode, question, expected, states) => {
    expect(questionStatesValue(mode, question, expected)).toBe(states);
  });
});
