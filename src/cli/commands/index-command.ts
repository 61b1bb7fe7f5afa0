import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import type { CommandState } from '../command-state.js';
import { EXIT } from '../exit-codes.js';
import { positiveInt } from '../number-flags.js';

/** A number flag in [min, max], with an error that names the flag. */
function numberIn(flag: string, min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < min || n > max)
      throw new InvalidArgumentError(`${flag} expects a number from ${min} to ${max}, got "${value}".`);
    return n;
  };
}

export function registerIndexCommand(index: Command, state: CommandState): void {
  index
    .command('build')
    .description('Index a JSONL corpus ({"id", "contents"} or {"id", "title", "text"}) into a directory.')
    .requiredOption('--corpus <file>', 'the corpus, one document per line')
    .requiredOption('--out <dir>', 'the index directory (created; existing index files are replaced)')
    .option('--k1 <n>', 'BM25 term-frequency saturation', numberIn('--k1', 0.01, 10), 1.2)
    .option('--b <n>', 'BM25 length normalization, 0 to 1', numberIn('--b', 0, 1), 0.75)
    .addHelpText(
      'after',
      `
The first line of "contents" is the document's title ({"title", "text"} rows become
"title\\ntext"). Text is split into words by script (ICU word segmentation: spaces for Latin,
dictionary words for Chinese, Japanese and Thai), lowercased and NFKC-normalized.
A row that cannot be read is listed with its file, line and field in <dir>/failed.jsonl and the
exit code is 3; the other rows are indexed.

Example:
  rewardkit index build --corpus examples/corpus/corpus.jsonl --out idx/`,
    )
    .action(async (flags: { corpus: string; out: string; k1: number; b: number }) => {
      const { buildBm25Index, readCorpus, writeBm25Index } = await import('../../retrieval/index.js');
      const start = performance.now();
      const { docs, failed } = await readCorpus(flags.corpus);
      const built = buildBm25Index(docs, { k1: flags.k1, b: flags.b });
      const manifest = writeBm25Index(flags.out, built, {
        file: flags.corpus,
        rows: docs.length + failed.length,
        failed: failed.length,
      });
      writeFileSync(join(flags.out, 'failed.jsonl'), failed.map((f) => `${JSON.stringify(f)}\n`).join(''));
      process.stderr.write(
        `rewardkit index build: ${manifest.doc_count} documents, ${failed.length} failed, ${manifest.term_count} terms; index ${flags.out} (${Math.round(performance.now() - start)} ms)\n`,
      );
      for (const f of failed.slice(0, 5)) process.stderr.write(`  ${f.errors.join('; ')}\n`);
      if (failed.length > 0) state.exitCode = EXIT.rowsFailed;
    });
  index
    .command('query')
    .description('Search a BM25 index and print the best documents for each query.')
    .argument('<query...>', 'one or more queries')
    .requiredOption('--index <dir>', 'the index directory (rewardkit index build)')
    .option('-k, --topk <n>', 'documents per query', positiveInt('--topk'), 3)
    .option('--json', 'one JSON line per query: {"query", "results": [{"id", "score", "contents"}]}')
    .addHelpText(
      'after',
      `
Without --json, each query's documents are printed as a search agent sees them:
"Doc 1 (Title: <first line>) <rest>".

Example:
  rewardkit index query --index idx/ "who founded Velmora" "青石镇是谁建立的"`,
    )
    .action(async (queries: string[], flags: { index: string; topk: number; json?: boolean }) => {
      const { createBm25Retriever, readBm25Index, renderDocuments } = await import(
        '../../retrieval/index.js'
      );
      const { index: loaded } = readBm25Index(flags.index);
      const results = await createBm25Retriever(loaded).search(queries, flags.topk);
      queries.forEach((query, i) => {
        const docs = results[i] ?? [];
        process.stdout.write(
          flags.json
            ? `${JSON.stringify({ query, results: docs })}\n`
            : `# ${query}\n${docs.length === 0 ? '(no documents)' : renderDocuments(docs)}\n`,
        );
      });
    });
  index
    .command('serve')
    .description(
      'Serve a BM25 index over HTTP with the retriever contract, for trainers and other processes.',
    )
    .requiredOption('--index <dir>', 'the index directory (rewardkit index build)')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <n>', 'port (0 picks a free one)', portNumber, 8000)
    .addHelpText(
      'after',
      `
POST /retrieve {"queries": [...], "topk": 3} -> {"result": [[{"document": {"id", "contents"}, "score"}]]},
the contract of --retriever-url and of Search-R1's retrieval server; GET /health. A bad body is a
400 naming the field. Prints one line when listening; Ctrl-C stops it.

Example:
  rewardkit index serve --index idx/ --port 8000
  rewardkit selfplay --retriever-url http://127.0.0.1:8000/retrieve ...`,
    )
    .action(async (flags: { index: string; host: string; port: number }) => {
      const { createBm25Retriever, createRetrieverApp, readBm25Index } = await import(
        '../../retrieval/index.js'
      );
      const { serve } = await import('@hono/node-server');
      const { listenError } = await import('../../server/listen-error.js');
      const { index: loaded, manifest } = readBm25Index(flags.index);
      const app = createRetrieverApp(createBm25Retriever(loaded, flags.index));
      await new Promise<void>((resolve, reject) => {
        const server = serve({ fetch: app.fetch, hostname: flags.host, port: flags.port }, (info) => {
          process.stderr.write(
            `rewardkit index serve: ${manifest.doc_count} documents from ${flags.index}; listening on http://${flags.host}:${info.port}/retrieve\n`,
          );
        });
        // A port in use is one line, not an unhandled 'error' event with a stack.
        server.once('error', (error) => reject(listenError(error, flags)));
        process.once('SIGINT', () => server.close(() => resolve()));
        process.once('SIGTERM', () => server.close(() => resolve()));
      });
    });
}

function portNumber(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError(`--port expects an integer from 0 to 65535, got "${value}".`);
  return n;
}
