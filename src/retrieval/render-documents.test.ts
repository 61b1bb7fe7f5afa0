import { expect, test } from 'vitest';
import { renderDocuments } from './render-documents.js';

test('should render each document as "Doc i (Title: first line) rest"', () => {
  expect(
    renderDocuments([{ contents: 'Velmora\nA river town.\nFounded in 1432.' }, { contents: 'Only a title' }]),
  ).toBe('Doc 1 (Title: Velmora) A river town. Founded in 1432.\nDoc 2 (Title: Only a title)');
});
