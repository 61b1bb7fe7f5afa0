import type { Sample } from '../../core/index.js';
import { type PairwiseJudgment, promptNonce, untrustedBlock } from '../../judges/index.js';
import type { CallTrace, ChatTool, ToolCall } from '../../llm/index.js';
import type { Skill } from '../skill-package.js';
import { JUDGE_BINDINGS, type SkillResource, VERIFIER_BINDINGS } from '../skill-resource.js';
import type { ShownVerdict } from './parse-text-verdict.js';
import type { SampleResources } from './sample-resources.js';
import { sanitizeLabels } from './sanitize-labels.js';
import type { SkillRmCaps } from './skill-rm-caps.js';
import type { SkillRmRuntime } from './skill-rm-runtime.js';
import type { SkillRmSample } from './skill-rm-sample.js';
import {
  type PairwiseFinalArgs,
  type PointwiseFinalArgs,
  type RunResourceArgs,
  type SandboxArgs,
  skillRmTools,
  type UseSkillArgs,
  type ViewResourceArgs,
} from './skill-rm-tools.js';
import { FINALIZE_HINT, type ToolError, toolError } from './tool-error.js';

/** The responses as the judge sees them in this episode: A and B in shown order, or one response. */
export type ShownResponses = { readonly A: string; readonly B: string } | { readonly response: string };

/** A `final_answer` the session accepted, as the model gave it. */
export type FinalArgs =
  | { readonly mode: 'pairwise'; readonly args: ReturnType<typeof PairwiseFinalArgs.parse> }
  | { readonly mode: 'pointwise'; readonly args: ReturnType<typeof PointwiseFinalArgs.parse> };

/** One tool call as the trace keeps it. */
export interface ToolCallRecord {
  readonly tool: string;
  readonly arguments: unknown;
  readonly error?: ToolError;
  /** What a run found, in a few words (run_resource, sandbox). */
  readonly outcome?: string;
}

/** What a hard resource said about the pair, in shown positions (`null`: it cannot decide). */
export interface ResourceEvidence {
  readonly resource: string;
  readonly hard: boolean;
  readonly favours: ShownVerdict | 'inconsistent' | null;
}

export interface SessionOptions {
  readonly skill: Skill;
  readonly resources: SampleResources;
  readonly runtime: SkillRmRuntime | undefined;
  readonly caps: SkillRmCaps;
  readonly mode: 'pairwise' | 'pointwise';
  readonly sample: SkillRmSample;
  readonly shown: ShownResponses;
  readonly benchmarkVisible: boolean;
  readonly signal: AbortSignal | undefined;
}

const TOOL_GUIDANCE = `## Tools now available
- list_resources{}: the resource index again.
- view_resource{path}: read a resource whose "use" is view_resource, by id (or a document by path).
- run_resource{id}: run a resource whose "use" is run_resource on the response(s); hard resources give facts.
- sandbox{code, language}: run a short program of your own (when the index has a sandbox resource).
- final_answer{...}: finish. Tool errors are JSON with "error", "message" and "hint".`;

const isVerifier = (b: string): b is (typeof VERIFIER_BINDINGS)[number] =>
  (VERIFIER_BINDINGS as readonly string[]).includes(b);
const isJudge = (b: string): b is (typeof JUDGE_BINDINGS)[number] =>
  (JUDGE_BINDINGS as readonly string[]).includes(b);

/**
 * The tool side of one Skill-RM episode: which tools are offered (only `use_skill` and
 * `final_answer` until the skill is opened), each call's arguments checked against its schema,
 * the caps, and every result the model reads — sample data inside nonce-tagged blocks, label
 * keys removed. Never throws for a bad call: the model gets a structured tool error.
 */
export function createSkillRmSession(options: SessionOptions) {
  const { skill, resources, caps, mode, shown, signal } = options;
  const all = skillRmTools(mode);
  const sandboxOffered = resources.sandbox && options.runtime?.codeSandbox !== undefined;
  const texts = 'A' in shown ? [shown.A, shown.B] : [shown.response];
  const nonce = promptNonce(
    options.sample.prompt,
    ...texts,
    ...[...resources.views.values()].filter((v) => v.untrusted).map((v) => v.text),
  );
  let opened = false;
  const viewed = new Set<string>();
  let runs = 0;
  const calls: CallTrace[] = [];
  const evidence: ResourceEvidence[] = [];
  const records: ToolCallRecord[] = [];
  const warnings: string[] = [];

  const tools = (): ChatTool[] =>
    opened
      ? [
          all.use_skill,
          all.final_answer,
          all.list_resources,
          all.view_resource,
          all.run_resource,
          ...(sandboxOffered ? [all.sandbox] : []),
        ]
      : [all.use_skill, all.final_answer];

  const indexText = () => JSON.stringify(resources.index, null, 2);
  const budgets = () =>
    `Budgets for this sample: ${caps.maxViews} distinct resources viewed (${viewed.size} used), ${caps.maxResourceChars} characters per resource, ${caps.maxRuns} runs of run_resource and sandbox together (${runs} used), ${caps.maxSteps} agent steps.`;

  const capError = (cap: string, limit: number) =>
    toolError('cap_exceeded', `the ${cap} cap of ${limit} per sample is reached`, FINALIZE_HINT, {
      cap,
      limit,
    });

  const openSkill = (args: ReturnType<typeof UseSkillArgs.parse>): string | ToolError => {
    if (args.name !== skill.name) {
      return toolError(
        'unknown_skill',
        `no skill named "${args.name}"`,
        `The available skill is "${skill.name}".`,
      );
    }
    opened = true;
    return [
      `Skill "${skill.name}" is open.`,
      '',
      skill.body.trim(),
      '',
      TOOL_GUIDANCE,
      budgets(),
      '',
      '## Resources for this sample',
      indexText(),
    ].join('\n');
  };

  const view = (path: string): string | ToolError => {
    const key = path.replace(/^\.\//, '');
    const resource = resources.views.get(key);
    if (resource === undefined) {
      if (resources.runnable.has(key)) {
        return toolError('not_runnable', `"${key}" is run, not viewed`, `Call run_resource{"id": "${key}"}.`);
      }
      return toolError(
        'unknown_resource',
        `no viewable resource "${key}" for this sample`,
        'list_resources shows the ids; view those whose "use" is view_resource.',
      );
    }
    if (!viewed.has(resource.key) && viewed.size >= caps.maxViews)
      return capError('distinct resources viewed', caps.maxViews);
    viewed.add(resource.key);
    const cut = resource.text.length > caps.maxResourceChars;
    const text = cut ? resource.text.slice(0, caps.maxResourceChars) : resource.text;
    if (cut)
      warnings.push(
        `resource "${resource.id}" cut at ${caps.maxResourceChars} of ${resource.text.length} characters`,
      );
    const header = JSON.stringify({
      resource: resource.id,
      ...(cut && {
        truncated: {
          shown_chars: caps.maxResourceChars,
          total_chars: resource.text.length,
          hint: 'the rest is over the per-resource cap',
        },
      }),
    });
    return `${header}\n${resource.untrusted ? untrustedBlock('resource', text, nonce) : text}`;
  };

  const verifierSample = (response: string): Sample => ({
    id: 'skill-rm',
    prompt: options.sample.prompt,
    response,
    ...(options.sample.reference !== undefined && {
      reference:
        typeof options.sample.reference === 'string'
          ? options.sample.reference
          : [...options.sample.reference],
    }),
    metadata: { ...(options.sample.metadata ?? {}) },
  });

  const runVerifier = async (resource: SkillResource, binding: (typeof VERIFIER_BINDINGS)[number]) => {
    const runtime = options.runtime as SkillRmRuntime;
    const entries =
      'A' in shown
        ? ([
            ['A', shown.A],
            ['B', shown.B],
          ] as const)
        : ([['response', shown.response]] as const);
    const results: Record<string, { result: string; value?: number; reason?: string }> = {};
    for (const [label, text] of entries) {
      try {
        const outcome = await runtime.runVerifier(binding, verifierSample(text), signal);
        results[label] = {
          result: outcome.verdict === 'abstain' ? 'undecided' : outcome.verdict,
          value: outcome.score,
          ...(outcome.reason !== undefined && { reason: outcome.reason }),
        };
      } catch (error) {
        if (signal?.aborted) throw error;
        results[label] = { result: 'error', reason: (error as Error).message };
      }
    }
    let favours: ResourceEvidence['favours'] = null;
    let summary: string;
    if ('A' in shown) {
      const [a, b] = [results.A?.result, results.B?.result];
      if (a === 'pass' && b === 'fail') favours = 'A';
      else if (a === 'fail' && b === 'pass') favours = 'B';
      summary =
        favours !== null
          ? `response ${favours} passes and the other fails: this check favours ${favours}`
          : a === b && (a === 'pass' || a === 'fail')
            ? `inconclusive: both responses ${a === 'pass' ? 'pass' : 'fail'}, so this check cannot decide`
            : 'inconclusive: the check could not decide for both responses';
      evidence.push({ resource: resource.id, hard: resource.hard_or_soft === 'hard', favours });
    } else {
      summary = `the response ${results.response?.result === 'pass' ? 'passes' : results.response?.result === 'fail' ? 'fails' : 'is undecided or errored'}`;
    }
    const clean = sanitizeLabels(results).value;
    return {
      outcome: summary,
      text: `${JSON.stringify({ resource: resource.id, binding, hard_or_soft: resource.hard_or_soft, favours, summary })}\n${untrustedBlock('resource-output', JSON.stringify(clean, null, 2), nonce)}`,
    };
  };

  const SHOWN_OF: Record<PairwiseJudgment['verdict'], string> = {
    first: 'A',
    second: 'B',
    tie: 'tie',
    inconsistent: 'inconsistent',
    invalid: 'invalid',
  };

  const runJudge = async (resource: SkillResource, binding: (typeof JUDGE_BINDINGS)[number]) => {
    if (!('A' in shown)) {
      return toolError(
        'not_runnable',
        `"${resource.id}" compares two responses`,
        'A pointwise sample has one response; use another resource.',
      );
    }
    const runtime = options.runtime as SkillRmRuntime;
    const pair = {
      prompt: options.sample.prompt,
      first: shown.A,
      second: shown.B,
      ...(options.benchmarkVisible &&
        typeof options.sample.reference === 'string' && { reference: options.sample.reference }),
    };
    const judgment = await runtime.runJudge(binding, pair, signal);
    calls.push(...judgment.calls);
    const verdict = SHOWN_OF[judgment.verdict];
    const favours =
      verdict === 'A' || verdict === 'B' || verdict === 'tie' || verdict === 'inconsistent' ? verdict : null;
    evidence.push({ resource: resource.id, hard: resource.hard_or_soft === 'hard', favours });
    const summary = `${binding} judged the pair: ${verdict}`;
    return {
      outcome: summary,
      text: JSON.stringify({
        resource: resource.id,
        binding,
        hard_or_soft: resource.hard_or_soft,
        verdict,
        summary,
        ...(judgment.reason !== undefined && { note: judgment.reason }),
      }),
    };
  };

  const run = async (id: string): Promise<{ outcome: string; text: string } | ToolError> => {
    const resource = resources.runnable.get(id);
    if (resource === undefined) {
      if (resources.views.has(id))
        return toolError(
          'not_runnable',
          `"${id}" is viewed, not run`,
          `Call view_resource{"path": "${id}"}.`,
        );
      return toolError(
        'unknown_resource',
        `no runnable resource "${id}" for this sample`,
        'list_resources shows the ids; run those whose "use" is run_resource.',
      );
    }
    if (options.runtime === undefined) {
      return toolError('resource_failed', `runtime resources are not available here`, FINALIZE_HINT);
    }
    if (runs >= caps.maxRuns) return capError('runtime runs', caps.maxRuns);
    runs++;
    const binding = resource.binding ?? '';
    try {
      if (isVerifier(binding)) return await runVerifier(resource, binding);
      if (isJudge(binding)) return await runJudge(resource, binding);
      return toolError('not_runnable', `"${id}" has no binding this judge can run`, 'Use another resource.');
    } catch (error) {
      if (signal?.aborted) throw error;
      return toolError(
        'resource_failed',
        `"${id}" failed: ${(error as Error).message}`,
        'Use other evidence, or finalize.',
      );
    }
  };

  const sandbox = async (
    args: ReturnType<typeof SandboxArgs.parse>,
  ): Promise<{ outcome: string; text: string } | ToolError> => {
    if (runs >= caps.maxRuns) return capError('runtime runs', caps.maxRuns);
    runs++;
    try {
      const codeSandbox = options.runtime?.codeSandbox;
      if (codeSandbox === undefined) throw new Error('no code sandbox is configured');
      const result = await codeSandbox().runCode(
        {
          code: args.code,
          language: args.language ?? 'python',
          ...(args.stdin !== undefined && { stdin: args.stdin }),
        },
        signal,
      );
      const cap = (s: string | null | undefined) => (s ?? '').slice(0, caps.maxResourceChars);
      const out = {
        status: result.status,
        exit_code: result.run_result?.return_code ?? null,
        stdout: cap(result.run_result?.stdout),
        stderr: cap(result.run_result?.stderr ?? result.compile_result?.stderr ?? result.message),
      };
      return {
        outcome: `sandbox ${result.status}`,
        text: untrustedBlock('sandbox-output', JSON.stringify(out, null, 2), nonce),
      };
    } catch (error) {
      if (signal?.aborted) throw error;
      return toolError(
        'resource_failed',
        `the sandbox failed: ${(error as Error).message}`,
        'Use other evidence, or finalize.',
      );
    }
  };

  const parseArgs = (
    call: ToolCall,
    tool: ChatTool,
  ): { ok: true; value: unknown } | { ok: false; error: ToolError } => {
    let value = call.arguments;
    if (typeof value === 'string') {
      try {
        value = JSON.parse(value === '' ? '{}' : value);
      } catch {
        return {
          ok: false,
          error: toolError(
            'bad_arguments',
            `the arguments of "${call.name}" are not JSON`,
            'Send the arguments as one JSON object.',
          ),
        };
      }
    }
    const parsed = tool.parameters.safeParse(value);
    if (parsed.success) return { ok: true, value: parsed.data };
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    return {
      ok: false,
      error: toolError(
        'bad_arguments',
        `the arguments of "${call.name}" do not match its schema: ${issues}`,
        'Call it again with arguments that match its schema.',
      ),
    };
  };

  /**
   * Carries out one tool call: its result text for the tool message, and the final answer when
   * it was a valid `final_answer`.
   */
  const execute = async (call: ToolCall): Promise<{ content: string; final?: FinalArgs }> => {
    const record = (entry: Omit<ToolCallRecord, 'tool' | 'arguments'>) =>
      records.push({ tool: call.name, arguments: call.arguments, ...entry });
    const fail = (error: ToolError) => {
      record({ error });
      return { content: JSON.stringify(error) };
    };
    const tool = tools().find((t) => t.name === call.name);
    if (tool === undefined) {
      const locked = !opened && call.name in all;
      return fail(
        toolError(
          'unknown_tool',
          `no tool named "${call.name}" is available${locked ? ' before the skill is opened' : ''}`,
          locked
            ? `Open the skill first: use_skill{"name": "${skill.name}"}.`
            : `Available: ${tools()
                .map((t) => t.name)
                .join(', ')}.`,
        ),
      );
    }
    const parsed = parseArgs(call, tool);
    if (!parsed.ok) return fail(parsed.error);
    const args = parsed.value as Record<string, unknown>;
    let result: string | { outcome: string; text: string } | ToolError;
    switch (call.name) {
      case 'final_answer':
        record({});
        return {
          content: '{"ok": true}',
          final:
            mode === 'pairwise'
              ? { mode, args: args as ReturnType<typeof PairwiseFinalArgs.parse> }
              : { mode, args: args as ReturnType<typeof PointwiseFinalArgs.parse> },
        };
      case 'use_skill':
        result = openSkill(args as ReturnType<typeof UseSkillArgs.parse>);
        break;
      case 'list_resources':
        result = `${indexText()}\n${budgets()}`;
        break;
      case 'view_resource':
        result = view((args as ReturnType<typeof ViewResourceArgs.parse>).path);
        break;
      case 'run_resource':
        result = await run((args as ReturnType<typeof RunResourceArgs.parse>).id);
        break;
      default:
        result = await sandbox(args as ReturnType<typeof SandboxArgs.parse>);
    }
    if (typeof result === 'string') {
      record({});
      return { content: result };
    }
    if ('error' in result) return fail(result);
    record({ outcome: result.outcome });
    return { content: result.text };
  };

  return {
    tools,
    execute,
    /** The calls runtime judges made (their usage belongs to this judgment). */
    calls,
    evidence,
    records,
    warnings,
    get opened() {
      return opened;
    },
    usage: () => ({ viewed: [...viewed], runs }),
  };
}

export type SkillRmSession = ReturnType<typeof createSkillRmSession>;
