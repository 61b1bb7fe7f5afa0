import { createServer } from 'node:net';
import { availableParallelism, hostname } from 'node:os';
import { join } from 'node:path';
import { type Command, Option } from 'commander';
import {
  errorMessage,
  RewardKitError,
  type RewardResult,
  type Sample,
  sampleText,
} from '../../core/index.js';
import type { RewardApp } from '../../server/index.js';
import type { SourceStat, Store } from '../../store/index.js';
import type { ShardMerger } from '../../store/sqlite-shard-merger.js';
import type { CommandState } from '../command-state.js';
import { addDeprecatedFlag } from '../deprecated-flag.js';
import { EXIT } from '../exit-codes.js';
import { loadConfiguredModels, pickModel, requireModelsReady } from '../models-location.js';
import { finiteNumber, nonNegativeInt, positiveInt } from '../number-flags.js';
import { pairwiseJudgeNames } from '../pairwise-judge-of.js';
import { parseByteSize } from '../parse-byte-size.js';
import { parseDuration } from '../parse-duration.js';
import { port } from '../port-flag.js';
import { runSpecName } from '../run-spec-name.js';
import { sandboxNodeModules } from '../sandbox-node-path.js';
import { createScoringEvaluator, TRACES_FLAG_HELP, workersOption } from '../scoring-evaluator.js';
import {
  parseProcesses,
  reportListening,
  reportSummary,
  runServePrimary,
  serveProcessRun,
} from '../serve-processes.js';
import { requireSpecModels, specModelNames } from '../spec-model-names.js';
import { openStoreFromFlag, STORE_FLAG_HELP } from '../store-location.js';

interface ServeFlags {
  spec: string;
  port: number;
  host: string;
  store?: string;
  models?: string;
  groupMethod: string;
  groupJudgeModel?: string;
  groupJudgeKind: string;
  sampleText: boolean;
  traces: boolean;
  concurrency: number;
  maxQueue: number;
  deadline: number;
  maxBody: number;
  headersTimeout: number;
  bodyTimeout: number;
  token: string[];
  failedReward: number;
  cache: boolean;
  cacheTtl?: number;
  allowUnsafeCode: boolean;
  runCodeMaxRun: number;
  runCodeMaxCompile: number;
  runCodeMaxMemory: number;
  runCodeWhenFull: 'wait' | 'refuse';
  sandboxNodePath: string[];
  sandboxPool?: number;
  workers: number;
  processes: number;
  ui: boolean;
}

export function registerServeCommand(serve: Command, state: CommandState): void {
  serve
    .option('-s, --spec <file|preset>', 'reward spec file (YAML/JSON) or built-in preset', 'default')
    .option('-p, --port <n>', 'port to listen on; 0 picks a free one', port, 8000)
    .option('--host <address>', 'address to listen on (0.0.0.0 for every interface)', '127.0.0.1')
    .option('--store <path|url>', STORE_FLAG_HELP)
    .option('--ui', "also serve the inspector (rewardkit view) at /ui/, over this server's store", false)
    .option('--models <file>', 'models file naming the LLMs judge sources use (default: $REWARDKIT_MODELS)')
    .option(
      '--group-method <name>',
      'group method when a /v1/groups request names none (grpo, etr, brpo, clipo, rfn, tri_factor, afrl_stepwise)',
      'grpo',
    )
    .option(
      '--no-sample-text',
      'store results without the prompt and response they judged (less to write; `rewardkit view` then shows no text)',
    )
    .option('--no-traces', TRACES_FLAG_HELP)
    .option('--group-judge-model <name>', "BRPO's pairwise judge: a model from the models file (both orders)")
    .addOption(
      new Option('--group-judge-kind <kind>', 'which pairwise judge kind --group-judge-model runs')
        .choices(pairwiseJudgeNames())
        .default('genrm'),
    )
    .option('-c, --concurrency <n>', 'samples (or groups) scored at once', positiveInt('--concurrency'), 8)
    .addOption(workersOption('serve'))
    .addOption(
      new Option(
        '--processes <n|auto>',
        `server processes sharing the port, each parsing, verifying and storing on its own core (auto: one per core, ${availableParallelism()} here)`,
      )
        .argParser(parseProcesses)
        .default(1),
    )
    .option(
      '--max-queue <n>',
      'jobs that may wait for a worker before requests get 429',
      nonNegativeInt('--max-queue'),
      1024,
    )
    .addOption(
      new Option('--deadline <duration>', 'longest a request may take (90s, 10m); clients may ask for less')
        .argParser(parseDuration('--deadline'))
        .default(600_000, '10m'),
    )
    .addOption(
      new Option('--max-body <size>', 'largest request body (16MiB, 500kb); larger ones get 413')
        .argParser(parseByteSize('--max-body'))
        .default(16 * 1024 * 1024, '16MiB'),
    )
    .addOption(
      new Option(
        '--headers-timeout <duration>',
        'longest the request line and headers may take to arrive; then 408 and the connection closed',
      )
        .argParser(parseDuration('--headers-timeout'))
        .default(10_000, '10s'),
    )
    .addOption(
      new Option(
        '--body-timeout <duration>',
        'longest a request body may take to arrive; then 408 and the connection closed',
      )
        .argParser(parseDuration('--body-timeout'))
        .default(60_000, '60s'),
    )
    .addOption(
      new Option(
        '--token <token>',
        'accepted bearer token, repeatable; without any, comma-separated $REWARDKIT_SERVER_TOKENS; none configured: no auth',
      )
        .argParser((value: string, previous: string[] = []) => [...previous, value])
        .default([], 'none'),
    )
    .option(
      '--failed-reward <x>',
      'the float /get_reward sends for a sample that could not be scored (flagged in extra_logs.failed)',
      finiteNumber('--failed-reward'),
      0,
    )
    .option('--no-cache', 'call the models even for requests already answered in the store')
    .option(
      '--cache-ttl <duration>',
      'judge answers older than this are asked again',
      parseDuration('--cache-ttl'),
    )
    .option(
      '--allow-unsafe-code',
      'run Python without OS isolation when bubblewrap is unavailable (unsafe)',
      false,
    )
    .addOption(
      new Option(
        '--run-code-max-run <duration>',
        '/run_code: the longest run_timeout a request gets (larger asks are lowered)',
      )
        .argParser(parseDuration('--run-code-max-run'))
        .default(60_000, '60s'),
    )
    .addOption(
      new Option('--run-code-max-compile <duration>', '/run_code: the longest compile_timeout a request gets')
        .argParser(parseDuration('--run-code-max-compile'))
        .default(60_000, '60s'),
    )
    .option(
      '--run-code-max-memory <MB>',
      '/run_code: the largest memory_limit_MB a request gets',
      positiveInt('--run-code-max-memory'),
      4096,
    )
    .addOption(
      new Option(
        '--run-code-when-full <mode>',
        '/run_code when the queue is full: wait for a worker until the deadline, then 504 (verl retries 504 only), or refuse with 429',
      )
        .choices(['wait', 'refuse'])
        .default('wait'),
    )
    .addOption(
      new Option(
        '--sandbox-node-path <dir>',
        '/run_code: a folder of Node modules programs may require (and jest runs from), bound read-only; repeatable (default: $REWARDKIT_SANDBOX_NODE_PATH, colon-separated)',
      )
        .argParser((value: string, previous: string[] = []) => [...previous, value])
        .default([], 'none'),
    )
    .option(
      '--sandbox-pool <n>',
      '/run_code: bubblewrap sandboxes kept started ahead of requests, each used for one job only (0: start each on its request; default 2)',
      nonNegativeInt('--sandbox-pool'),
    )
    .addHelpText(
      'after',
      `
Prints the URL it listens on as the one line of stdout (e.g. http://127.0.0.1:8000); everything
else goes to stderr. SIGTERM / SIGINT: stop accepting, finish the requests in flight, close the
store run, exit 0. Every result is stored under its request id (X-Request-Id, echoed back);
see them with: rewardkit runs show <run-id> --request <id>.

Routes (docs/server.md):
  POST /v1/rewards   {"samples": [Sample]}                 -> {"request_id", "results": [RewardResult]}
  POST /v1/groups    {"groups": [{"group", "samples"}], "method"?, "options"?}
                                                           -> {"request_id", "groups": [{"advantages", ...}]}
  POST /get_reward   OpenRLHF: {"query", "prompts", "labels"} -> {"rewards", "scores", "extra_logs"}
  POST /run_code     SandboxFusion: {"code", "language", "stdin", ...}
  GET  /healthz (liveness), GET /readyz (asks the store), GET /metrics (Prometheus)

Examples:
  rewardkit serve --spec math --port 8000
  rewardkit serve --spec writing.yaml --models models.yaml --token "$TOKEN" --host 0.0.0.0
  # OpenRLHF: --reward.remote_url http://host:8000/get_reward`,
    )
    .action(async (flags: ServeFlags) => {
      const child = serveProcessRun();
      if (flags.processes > 1 && !child) {
        await servePrimary(flags, state);
        return;
      }
      const { loadSpec, sourceKinds, sourceName, specWarnings } = await import('../../spec/index.js');
      const { createCodeSandbox } = await import('../../verify/code/index.js');
      const { createRewardApp, createResultWriter, listenRewardApp } = await import('../../server/index.js');
      const {
        createSummaryAccumulator,
        defaultRouteWarning,
        startStoreWriter,
        storeWriterFor,
        storeWritesInline,
      } = await import('../../runner/index.js');
      const spec = loadSpec(flags.spec);
      const nodeModules = sandboxNodeModules(flags.sandboxNodePath);
      const configured = await loadConfiguredModels(flags.models);
      const { models } = configured;
      // A judge without its model would fail every request: refused before the port is taken.
      const modelNames = specModelNames(spec, sourceKinds, sourceName);
      requireSpecModels(modelNames, models, configured.from);
      await requireModelsReady(modelNames.map(({ model }) => models.get(model)));
      // The port is bound first: a port in use stops the command at once, with one line, before
      // the store opens, so no run is created (and none left `running`).
      // The socket enforces both timeouts (node's 408s, a backstop for the body); the app's body
      // reader the body one: one object, so the two cannot disagree.
      const timeouts = { headersTimeoutMs: flags.headersTimeout, bodyTimeoutMs: flags.bodyTimeout };
      let startApp: (app: RewardApp) => void = () => {};
      const listening = await listenRewardApp(
        new Promise<RewardApp>((resolve) => {
          startApp = resolve;
        }),
        { port: flags.port, host: flags.host, ...timeouts },
      );
      let appStarted = false;
      try {
        const store = await openStoreFromFlag(flags.store);
        if (store && flags.cache && models.size > 0) {
          const { withResponseCache } = await import('../../llm/index.js');
          const ttl = flags.cacheTtl === undefined ? {} : { ttlMs: flags.cacheTtl };
          for (const [name, model] of models) models.set(name, withResponseCache(model, store, ttl));
        }
        const judgeModel = flags.groupJudgeModel
          ? pickModel(configured, flags.groupJudgeModel, 'serve --group-judge-model')
          : undefined;
        const judge = judgeModel
          ? (await import('../pairwise-judge-of.js')).pairwiseJudgeOf(
              flags.groupJudgeKind,
              models.get(flags.groupJudgeModel as string) ?? judgeModel,
              {},
              '--group-judge-kind',
            )
          : undefined;
        const sandboxOptions = {
          allowUnsafeLocal: flags.allowUnsafeCode,
          ...(nodeModules.length > 0 && { nodeModules }),
          ...(flags.sandboxPool !== undefined && { sandboxPool: flags.sandboxPool }),
        };
        const evaluator = await createScoringEvaluator(spec, {
          workers: flags.workers,
          models,
          allowUnsafeCode: flags.allowUnsafeCode,
          traces: flags.traces,
        });
        // Said once: by this process, or by the primary of `--processes`.
        if (!child) sayWarnings(specWarnings(spec));
        let runCodeSandbox: ReturnType<typeof createCodeSandbox> | undefined;
        // A serve process of `--processes` writes to its primary's run; the primary finishes it.
        const run = child
          ? child.runId === undefined
            ? undefined
            : { id: child.runId }
          : store
            ? await store.createRun({
                spec_name: `serve:${runSpecName(spec, flags.spec)}`,
                spec,
                input: 'http',
              })
            : undefined;
        const [{ encodeSqliteResults }, { openSqliteShard }] = await Promise.all([
          import('../../store/sqlite-result-rows.js'),
          import('../../store/sqlite-shard.js'),
        ]);
        // One process with a SQLite file inserts on a thread with its own connection, so the event
        // loop parses, verifies and answers while the rows go in; a copy of `--processes` appends
        // to a shard of its own on that thread (REWARDKIT_STORE_WRITER=inline: on the event loop,
        // where every core already runs a copy). Answers still wait for the commit.
        const shardPath = child?.shardsFolder && join(child.shardsFolder, `${process.pid}.sqlite`);
        const inline = storeWritesInline();
        const shard = shardPath && inline ? openSqliteShard(shardPath) : undefined;
        const storeThread = shardPath
          ? inline
            ? undefined
            : startStoreWriter(shardPath, { target: 'shard' })
          : !child && run
            ? storeWriterFor(store)
            : undefined;
        const writer =
          store && run
            ? createResultWriter(async (results, requestIds, texts) => {
                const options = { requestId: requestIds, ...(flags.sampleText && { samples: texts }) };
                if (shard) return shard.append(run.id, encodeSqliteResults(results, options));
                // A thread that died fails the batches it held; later ones go into the store here.
                if (storeThread && !storeThread.stopped())
                  return storeThread.commit(run.id, encodeSqliteResults(results, options));
                return store.saveResults(run.id, results, options);
              })
            : undefined;
        // A dataset no route takes is said on its first sample (by each process of `--processes`).
        const summary = createSummaryAccumulator({
          storedStats: true,
          onDefaultRoute: (dataSource) =>
            process.stderr.write(`rewardkit serve: warning: ${defaultRouteWarning(spec, dataSource)}\n`),
        });
        const started = performance.now();
        const rewardApp = createRewardApp({
          evaluator,
          codeSandbox: () => {
            runCodeSandbox ??= createCodeSandbox(sandboxOptions);
            return runCodeSandbox;
          },
          record: async (results: readonly RewardResult[], requestId: string, samples: readonly Sample[]) => {
            await writer?.save(results, requestId, flags.sampleText ? samples.map(sampleText) : undefined);
            // Counted once saved: a save that failed (its request answered 503) is not in the run.
            for (const result of results) summary.add(result);
          },
          ...(run && { runId: run.id }),
          ...(store && { store }),
          ...(store && { state: store }),
          ...(judge && { judge }),
          options: {
            concurrency: flags.concurrency,
            maxQueue: flags.maxQueue,
            deadlineMs: flags.deadline,
            maxBodyBytes: flags.maxBody,
            ...timeouts,
            tokens: tokensOf(flags),
            groupMethod: flags.groupMethod,
            failedReward: flags.failedReward,
            runCode: {
              maxRunTimeoutS: flags.runCodeMaxRun / 1000,
              maxCompileTimeoutS: flags.runCodeMaxCompile / 1000,
              maxMemoryMb: flags.runCodeMaxMemory,
              whenFull: flags.runCodeWhenFull,
              // Upstream's executor_pod_name comes from the pod's $MY_POD_NAME.
              executorName: process.env.MY_POD_NAME || hostname(),
            },
          },
        });
        if (flags.ui && store) {
          const { createViewApp } = await import('../../view/index.js');
          rewardApp.app.route('/ui', createViewApp({ store }));
        }
        startApp(rewardApp);
        appStarted = true;
        if (child) await reportListening(listening.url);
        else {
          process.stdout.write(`${listening.url}\n`);
          process.stderr.write(`rewardkit serve: ${banner(flags, spec.name, run?.id)}\n`);
        }
        const signal = await new Promise<NodeJS.Signals>((resolve) => {
          process.once('SIGTERM', () => resolve('SIGTERM'));
          process.once('SIGINT', () => resolve('SIGINT'));
        });
        const who = child ? `process ${process.pid}` : 'rewardkit serve';
        process.stderr.write(
          `${who}: ${signal}: no new requests; finishing ${rewardApp.requestsInFlight()} in flight\n`,
        );
        try {
          await listening.close();
          await writer?.flush();
          const finished = summary.summary(performance.now() - started);
          const sources = summary.storedSourceStats();
          if (child) await reportSummary({ summary: finished, sources });
          else if (store && run) {
            await store.finishRun(
              run.id,
              finished,
              'finished',
              await keptSourceStats(store, run.id, finished.rows, [sources]),
            );
          }
          if (!child) process.stderr.write('rewardkit serve: stopped\n');
        } catch (error) {
          process.stderr.write(`rewardkit serve: error while stopping: ${errorMessage(error)}\n`);
          state.exitCode = EXIT.error;
        } finally {
          // Everything acknowledged is committed by now (answers wait for the commit).
          await storeThread?.close().catch((error: unknown) => {
            process.stderr.write(`rewardkit serve: error while stopping: ${errorMessage(error)}\n`);
            state.exitCode = EXIT.error;
          });
          shard?.close();
          await evaluator.close();
          await runCodeSandbox?.close();
          await store?.close();
        }
      } finally {
        // Setting up failed before the app could answer: free the port, or the process hangs on it.
        if (!appStarted) await listening.close();
      }
    });
  // A flag ending in "-judge" names a judge kind elsewhere (`--judge`); the model flag says it is one.
  addDeprecatedFlag(serve, {
    flags: '--group-judge <model>',
    replacement: '--group-judge-model',
    apply: (value) => [['groupJudgeModel', value]],
  });
}

/**
 * The run's per-source statistics from what the server's processes tallied as they saved, when
 * they cover the run: every saved result a row of its own (no sample saved twice, as a retried
 * request would, and no process lost without its summary). Otherwise undefined, and the store
 * reads every row at the finish — for a run of millions of rows, seconds of a shutdown.
 */
async function keptSourceStats(
  store: Store,
  runId: string,
  savedRows: number,
  parts: readonly (readonly SourceStat[] | undefined)[],
): Promise<SourceStat[] | undefined> {
  const tallies = parts.filter((part) => part !== undefined);
  if (tallies.length !== parts.length) return undefined;
  const { results } = await store.runTotals(runId);
  if (results !== savedRows) return undefined;
  const { mergeSourceStats } = await import('../../store/source-stats-tally.js');
  return mergeSourceStats(tallies);
}

const sayWarnings = (warnings: readonly string[]) => {
  for (const warning of warnings) process.stderr.write(`rewardkit serve: warning: ${warning}\n`);
};

const tokensOf = (flags: ServeFlags) =>
  (flags.token.length > 0 ? flags.token : (process.env.REWARDKIT_SERVER_TOKENS ?? '').split(','))
    .map((t) => t.trim())
    .filter((t) => t !== '');

const banner = (flags: ServeFlags, specName: string, runId: string | undefined) => {
  const tokens = tokensOf(flags);
  return [
    `spec "${specName}" from ${flags.spec}`,
    ...(flags.processes > 1 ? [`${flags.processes} processes`] : []),
    runId ? `store run ${runId}` : 'no store',
    tokens.length > 0 ? 'bearer auth on' : 'no auth',
  ].join('; ');
};

/**
 * The primary of `--processes N`: creates the store run, starts the processes, prints the URL
 * once all listen, and at shutdown finishes the run with their merged summaries.
 */
async function servePrimary(flags: ServeFlags, state: CommandState): Promise<void> {
  const { loadSpec, sourceKinds, sourceName, specWarnings } = await import('../../spec/index.js');
  const { mergeRunSummaries } = await import('../../runner/index.js');
  const spec = loadSpec(flags.spec);
  const configured = await loadConfiguredModels(flags.models);
  const modelNames = specModelNames(spec, sourceKinds, sourceName);
  requireSpecModels(modelNames, configured.models, configured.from);
  await requireModelsReady(modelNames.map(({ model }) => configured.models.get(model)));
  sayWarnings(specWarnings(spec));
  await refuseBusyPort(flags.port, flags.host);
  const store = await openStoreFromFlag(flags.store);
  if (store && (flags.store ?? process.env.REWARDKIT_STORE) === ':memory:') {
    await store.close();
    throw new RewardKitError(
      'RK_USAGE',
      '--processes needs a store every process can open: a SQLite file or a postgres:// URL, not ":memory:".',
    );
  }
  const started = performance.now();
  let merger: ShardMerger | undefined;
  try {
    const run = store
      ? await store.createRun({ spec_name: `serve:${runSpecName(spec, flags.spec)}`, spec, input: 'http' })
      : undefined;
    const [{ isSqliteStore }, { runShardsFolder }, { startShardMerger }] = await Promise.all([
      import('../../store/is-sqlite-store.js'),
      import('../../store/sqlite-shard.js'),
      import('../../store/sqlite-shard-merger.js'),
    ]);
    const log = (line: string) => process.stderr.write(`rewardkit serve: ${line}\n`);
    // With SQLite the copies append to shards of their own and this process merges them into the
    // store file while they serve: the file takes one writer at a time, the shards one each.
    const sqlite = store && run && isSqliteStore(store) ? { store, run } : undefined;
    merger = sqlite && startShardMerger(sqlite.store.path, sqlite.run.id, log);
    const summaries = await runServePrimary({
      processes: flags.processes,
      runId: run?.id,
      ...(sqlite && { shardsFolder: runShardsFolder(sqlite.store.path, sqlite.run.id) }),
      onListening: (url) => {
        process.stdout.write(`${url}\n`);
        process.stderr.write(`rewardkit serve: ${banner(flags, spec.name, run?.id)}\n`);
      },
      log,
    });
    if (merger) {
      const { merged, lastPass } = await merger.stop();
      merger = undefined;
      // The last pass is the backlog: what the copies answered faster than one writer merged.
      log(
        `merged ${merged} results from the processes' shards (${lastPass.merged} of them at shutdown, in ${lastPass.seconds.toFixed(1)} s)`,
      );
    }
    if (store && run) {
      const merged = mergeRunSummaries(
        summaries.map((part) => part.summary),
        performance.now() - started,
      );
      const sources = await keptSourceStats(
        store,
        run.id,
        merged.rows,
        summaries.map((part) => part.sources),
      );
      await store.finishRun(run.id, merged, 'finished', sources);
    }
    // Every row is in the store file now; the shards are no longer needed.
    if (sqlite) await sqlite.store.removeShards(sqlite.run.id);
    process.stderr.write('rewardkit serve: stopped\n');
  } catch (error) {
    process.stderr.write(`rewardkit serve: ${errorMessage(error)}\n`);
    state.exitCode = EXIT.error;
  } finally {
    // Stopped early (a copy failed to start): the shards stay, merged when the store is next opened.
    await merger?.stop().catch(() => {});
    await store?.close();
  }
}

/**
 * Stops `--processes` before it creates a run when its port is taken: the processes bind it only
 * once forked (the port could be taken in between, and then they fail as a single server does).
 */
async function refuseBusyPort(port: number, host: string): Promise<void> {
  if (port === 0) return;
  const { listenError } = await import('../../server/listen-error.js');
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error) => reject(listenError(error, { port, host })));
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}
