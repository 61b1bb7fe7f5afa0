import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadModelsFile } from './models-file.js';

const dir = mkdtempSync(join(tmpdir(), 'rk-models-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('models file backends', () => {
  test('should read a llama_cpp entry with its model path relative to the file', async () => {
    const models = loadModelsFile(
      file(
        'local.yaml',
        'models:\n  local:\n    backend: llama_cpp\n    model_path: weights/judge.gguf\n    context_size: 2048\n    threads: 2\n    gpu: false\n  remote:\n    model: m\n    base_url: http://127.0.0.1:9/v1\n',
      ),
    );
    expect([...models.keys()]).toEqual(['local', 'remote']);
    // The file does not exist: the error shows where the relative path was resolved.
    await expect(
      models.get('local')?.complete({ messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toThrow(`the GGUF file ${join(dir, 'weights', 'judge.gguf')} does not exist`);
  });

  test.each([
    {
      what: 'a bad local setting',
      text: 'models:\n  local:\n    backend: llama_cpp\n    model_path: a.gguf\n    context_size: -1\n',
      error: /models\.local\.context_size: /,
    },
    {
      what: 'an endpoint field on a local model',
      text: 'models:\n  local:\n    backend: llama_cpp\n    model_path: a.gguf\n    base_url: http://x/v1\n',
      error: /models\.local: .*base_url/,
    },
    {
      what: 'a negative price',
      text: 'models:\n  judge:\n    model: m\n    base_url: http://x/v1\n    price: {input: -1, output: 15}\n',
      error: /models\.judge\.price\.input: /,
    },
    {
      what: 'a price without its output rate',
      text: 'models:\n  judge:\n    model: m\n    base_url: http://x/v1\n    price: {input: 3}\n',
      error: /models\.judge\.price\.output: /,
    },
    {
      what: 'an unknown backend',
      text: 'models:\n  local:\n    backend: ollama\n    model: m\n',
      error: /models\.local\.backend: /,
    },
  ])('should name the field of $what', ({ text, error }) => {
    const path = file('bad.yaml', text);
    expect(() => loadModelsFile(path)).toThrow(error);
  });
});
