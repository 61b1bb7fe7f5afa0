import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { type Document, isNode, LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { readCalibrationMap } from '../calibration/index.js';
import { RewardKitError } from '../core/index.js';
import { sourceName } from './aggregate.js';
import { closestName } from './closest-name.js';
import { presetNames, presetText } from './presets.js';
import { type SourceKindRegistry, sourceKinds } from './source-kinds.js';
import { formatPath, SpecError, type SpecIssue } from './spec-error.js';
import {
  type LeafSpec,
  LeafSpecSchema,
  type ResolvedSpec,
  type RoutedSpec,
  RoutedSpecSchema,
  type SourceConfig,
} from './spec-schema.js';

type Path = (string | number)[];

/** Result of `safeParseSpec`, in the style of zod's SafeParseResult. */
export type SafeSpecResult = { success: true; data: ResolvedSpec } | { success: false; error: SpecError };

/**
 * Parses and validates a spec document (YAML or JSON text). Every problem in the document is
 * collected — YAML syntax, schema, unknown kinds and presets, each kind's params — and thrown
 * once as a SpecError whose issues carry the path and the line.
 */
export function parseSpec(
  text: string,
  file: string,
  registry: SourceKindRegistry = sourceKinds,
): ResolvedSpec {
  const result = safeParseSpec(text, file, registry);
  if (!result.success) throw result.error;
  return result.data;
}

export function safeParseSpec(
  text: string,
  file: string,
  registry: SourceKindRegistry = sourceKinds,
): SafeSpecResult {
  const lines = new LineCounter();
  // `logLevel: 'error'`: the YAML library would print a Node warning for a key that is a list or
  // a map; the schema names that key as an issue instead.
  const doc = parseDocument(text, {
    lineCounter: lines,
    prettyErrors: false,
    uniqueKeys: true,
    logLevel: 'error',
  });
  const at = (path: Path): SpecIssue['position'] => locate(doc, lines, path);
  if (doc.errors.length > 0) {
    const issues = doc.errors.map<SpecIssue>((e) => {
      const pos = lines.linePos(e.pos[0]);
      return {
        code: 'invalid_yaml',
        path: [],
        message: e.message.split('\n')[0] ?? e.message,
        position: { line: pos.line, column: pos.col },
      };
    });
    return { success: false, error: new SpecError(file, issues) };
  }
  let value: unknown;
  try {
    value = doc.toJS();
  } catch (error) {
    // Aliases are resolved only here: one to an anchor set later (as in a merge key) or one that
    // would expand past the YAML library's limit (an alias bomb) throws instead of listing an error.
    const issue: SpecIssue = { code: 'invalid_yaml', path: [], message: (error as Error).message };
    return { success: false, error: new SpecError(file, [issue]) };
  }
  const routed = typeof value === 'object' && value !== null && 'routes' in value;
  const parsed = (routed ? RoutedSpecSchema : LeafSpecSchema).safeParse(value);
  if (!parsed.success) {
    // The shape is wrong somewhere, but every source that has a kind is still checked: a typo in a
    // kind and a bad weight are reported together, in the order they appear in the file.
    const schema = zodIssues(parsed.error.issues, [], at);
    const covered = (path: SpecIssue['path']) =>
      schema.some((issue) => formatPath(issue.path) === formatPath(path));
    const kinds = rawSourceIssues(value, registry, at, dirname(file)).filter((issue) => !covered(issue.path));
    return { success: false, error: new SpecError(file, inDocumentOrder([...schema, ...kinds])) };
  }
  const issues: SpecIssue[] = [];
  const base = dirname(file);
  const resolved = routed
    ? resolveRouted(parsed.data as RoutedSpec, registry, issues, at, base)
    : leafAsResolved(checkLeaf(parsed.data as LeafSpec, [], registry, issues, at, base));
  if (issues.length > 0) return { success: false, error: new SpecError(file, issues) };
  return { success: true, data: resolved };
}

/**
 * Loads a spec by reference: a path to a YAML/JSON file, or the name of a built-in preset.
 * A name that is neither is an RK_UNKNOWN_PRESET error listing the presets.
 */
export function loadSpec(ref: string, registry: SourceKindRegistry = sourceKinds): ResolvedSpec {
  const looksLikePath = /[\\/]|\.(ya?ml|json)$/i.test(ref);
  if (looksLikePath || existsSync(ref)) {
    if (!existsSync(ref)) throw new RewardKitError('RK_USAGE', `Spec file not found: ${ref}`);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(ref));
    } catch (error) {
      throw new RewardKitError('RK_SPEC_PARSE', `Cannot read spec ${ref}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    return parseSpec(text, ref, registry);
  }
  const preset = presetText(ref);
  if (preset === undefined) {
    const names = presetNames();
    const hint = closestName(ref, names);
    throw new RewardKitError(
      'RK_UNKNOWN_PRESET',
      `Unknown preset "${ref}"${hint ? ` (did you mean "${hint}"?)` : ''}. Built-in presets: ${names.join(', ')}; or pass a path to a spec file.`,
    );
  }
  return parseSpec(preset, `preset:${ref}`, registry);
}

function resolveRouted(
  spec: RoutedSpec,
  registry: SourceKindRegistry,
  issues: SpecIssue[],
  at: (path: Path) => SpecIssue['position'],
  base: string,
): ResolvedSpec {
  const resolveRef = (ref: string | LeafSpec, path: Path): LeafSpec =>
    typeof ref === 'string'
      ? resolvePresetRef(ref, path, registry, issues, at)
      : checkLeaf(ref, path, registry, issues, at, base);
  const routes = spec.routes.map((route, i) => ({
    data_source: typeof route.data_source === 'string' ? [route.data_source] : route.data_source,
    spec: resolveRef(route.spec, ['routes', i, 'spec']),
  }));
  return {
    name: spec.name,
    ...(spec.description !== undefined && { description: spec.description }),
    routes,
    ...(spec.default !== undefined && { default: resolveRef(spec.default, ['default']) }),
  };
}

/** A leaf spec is a routed spec with only a default branch. */
function leafAsResolved(leaf: LeafSpec): ResolvedSpec {
  return {
    name: leaf.name,
    ...(leaf.description !== undefined && { description: leaf.description }),
    routes: [],
    default: leaf,
  };
}

/**
 * Checks each source's kind, name, params and calibration map; returns the leaf with params parsed
 * by their kinds and each calibration path replaced by the map it names (`base`: the spec's folder).
 */
function checkLeaf(
  spec: LeafSpec,
  path: Path,
  registry: SourceKindRegistry,
  issues: SpecIssue[],
  at: (path: Path) => SpecIssue['position'],
  base: string,
): LeafSpec {
  const seen = new Map<string, number>();
  const sources = spec.sources.map((source, i) => {
    const here = [...path, 'sources', i];
    const name = sourceName(source);
    const first = seen.get(name);
    if (first !== undefined) {
      issues.push({
        code: 'duplicate_source',
        path: [...here, source.name === undefined ? 'kind' : 'name'],
        message: `Duplicate source name "${name}" (also sources[${first}]); give each source of the same kind a distinct "name"`,
        position: at([...here, source.name === undefined ? 'kind' : 'name']),
      });
    }
    seen.set(name, i);
    const params = checkKindAndParams(source, here, registry, issues, at, base);
    const calibration = loadSourceCalibration(source.calibration, base, [...here, 'calibration'], issues, at);
    return {
      ...source,
      ...(params !== undefined && { params }),
      ...(calibration !== undefined && { calibration }),
    };
  });
  const leaf: LeafSpec = { ...spec, sources };
  if (leaf.aggregate === 'weighted_mean' && sources.every((s) => s.weight === 0)) {
    issues.push({
      code: 'schema',
      path: [...path, 'sources'],
      message:
        'All sources have weight 0, so weighted_mean has nothing to average; give one source a positive weight',
      position: at([...path, 'sources']),
    });
  }
  return leaf;
}

/**
 * The map a source's `calibration` path names, read now so that a missing or malformed map is a
 * spec error at load time, never a failure while scoring. An inline map (a resolved spec read
 * back from the store) is kept as it is.
 */
function loadSourceCalibration(
  calibration: SourceConfig['calibration'],
  base: string,
  here: Path,
  issues: SpecIssue[],
  at: (path: Path) => SpecIssue['position'],
): SourceConfig['calibration'] {
  if (typeof calibration !== 'string') return calibration;
  const result = readCalibrationMap(resolve(base, calibration));
  if (result.ok) return result.map;
  issues.push({
    code: 'calibration',
    path: here,
    message: `Cannot use calibration map "${calibration}": ${result.problem}`,
    position: at(here),
  });
  return undefined;
}

/** Checks a source's kind and the params that kind takes; returns the parsed params, or undefined after an issue. */
function checkKindAndParams(
  source: { kind: string; params?: unknown },
  here: Path,
  registry: SourceKindRegistry,
  issues: SpecIssue[],
  at: (path: Path) => SpecIssue['position'],
  base: string,
): Record<string, unknown> | undefined {
  const kind = registry.get(source.kind);
  if (!kind) {
    const hint = closestName(source.kind, [...registry.keys()]);
    issues.push({
      code: 'unknown_kind',
      path: [...here, 'kind'],
      message: `Unknown source kind "${source.kind}"${hint ? ` (did you mean "${hint}"?)` : ''}; known kinds: ${[...registry.keys()].join(', ')}`,
      position: at([...here, 'kind']),
    });
    return undefined;
  }
  const params = kind.params.safeParse(source.params);
  if (!params.success) {
    issues.push(...zodIssues(params.error.issues, [...here, 'params'], at, 'params'));
    return undefined;
  }
  if (!kind.readFiles) return params.data as Record<string, unknown>;
  const read = kind.readFiles(params.data, base);
  if ('params' in read) return read.params as Record<string, unknown>;
  for (const problem of read.problems) {
    const path = [...here, 'params', problem.param];
    issues.push({ code: 'params', path, message: problem.message, position: at(path) });
  }
  return undefined;
}

/** Kind and params issues of every source in a document whose shape did not parse. */
function rawSourceIssues(
  value: unknown,
  registry: SourceKindRegistry,
  at: (path: Path) => SpecIssue['position'],
  base: string,
): SpecIssue[] {
  const issues: SpecIssue[] = [];
  const leaf = (spec: unknown, path: Path) => {
    const sources = (spec as { sources?: unknown } | null)?.sources;
    if (!Array.isArray(sources)) return;
    sources.forEach((source: unknown, i) => {
      const kind = (source as { kind?: unknown } | null)?.kind;
      if (typeof kind === 'string' && kind !== '') {
        // As the schema's default: a source without params has `{}`.
        const params = (source as { params?: unknown }).params ?? {};
        checkKindAndParams({ kind, params }, [...path, 'sources', i], registry, issues, at, base);
      }
    });
  };
  const routes = (value as { routes?: unknown } | null)?.routes;
  if (Array.isArray(routes)) {
    routes.forEach((route: unknown, i) => {
      leaf((route as { spec?: unknown } | null)?.spec, ['routes', i, 'spec']);
    });
    leaf((value as { default?: unknown }).default, ['default']);
  } else leaf(value, []);
  return issues;
}

/** Issues sorted by where they are in the file; those without a place keep their order, last. */
function inDocumentOrder(issues: SpecIssue[]): SpecIssue[] {
  const key = (issue: SpecIssue) =>
    issue.position ? issue.position.line * 1e6 + issue.position.column : Number.POSITIVE_INFINITY;
  return issues
    .map((issue, i) => ({ issue, i }))
    .sort((a, b) => key(a.issue) - key(b.issue) || a.i - b.i)
    .map(({ issue }) => issue);
}

function resolvePresetRef(
  name: string,
  path: Path,
  registry: SourceKindRegistry,
  issues: SpecIssue[],
  at: (path: Path) => SpecIssue['position'],
): LeafSpec {
  const text = presetText(name);
  const placeholder = { sources: [] } as unknown as LeafSpec;
  if (text === undefined) {
    const hint = closestName(name, presetNames());
    issues.push({
      code: 'unknown_preset',
      path,
      message: `Unknown preset "${name}"${hint ? ` (did you mean "${hint}"?)` : ''}; built-in presets: ${presetNames().join(', ')}`,
      position: at(path),
    });
    return placeholder;
  }
  const preset = parseSpec(text, `preset:${name}`, registry);
  if (preset.routes.length > 0 || preset.default === undefined) {
    issues.push({
      code: 'unknown_preset',
      path,
      message: `Preset "${name}" routes by data_source itself and cannot be used inside a route; use a preset with sources`,
      position: at(path),
    });
    return placeholder;
  }
  return preset.default;
}

function zodIssues(
  issues: readonly z.core.$ZodIssue[],
  prefix: Path,
  at: (path: Path) => SpecIssue['position'],
  code: SpecIssue['code'] = 'schema',
): SpecIssue[] {
  return issues.map((issue) => {
    const path = [...prefix, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))];
    return { code, path, message: issue.message, position: at(path) };
  });
}

/** The line of the deepest node that exists along `path` (a missing key points at its parent). */
function locate(doc: Document, lines: LineCounter, path: Path): SpecIssue['position'] {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
    if (isNode(node) && node.range) {
      const pos = lines.linePos(node.range[0]);
      return { line: pos.line, column: pos.col };
    }
  }
  return undefined;
}
