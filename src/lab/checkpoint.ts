import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { z } from 'zod';
import { RewardKitError } from '../core/index.js';
import type { TrainState } from './adamw.js';
import type { Params } from './layers.js';

const tensorsSchema = z.record(z.string(), z.object({ shape: z.array(z.number().int()), data: z.string() }));
const checkpointSchema = z.object({
  version: z.literal(1),
  step: z.number().int().min(0),
  params: tensorsSchema,
  m: tensorsSchema,
  v: tensorsSchema,
  /** The experiment's own resumable state (metric lines so far, divergence monitor, …). */
  extra: z.unknown(),
});

// Float32 bytes as base64: exact, so a resumed run continues bit for bit.
const encode = (params: Params) =>
  Object.fromEntries(
    Object.entries(params).map(([n, t]) => {
      const data = t.dataSync() as Float32Array;
      return [
        n,
        {
          shape: t.shape,
          data: Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64'),
        },
      ];
    }),
  );
const decode = (tensors: z.output<typeof tensorsSchema>): Params =>
  Object.fromEntries(
    Object.entries(tensors).map(([n, { shape, data }]) => {
      const bytes = Buffer.from(data, 'base64');
      const floats = new Float32Array(
        bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
      );
      return [n, tf.tensor(floats, shape)];
    }),
  );

/** Writes the state atomically (a temp file renamed over the old), so a crash never leaves half a checkpoint. */
export function saveCheckpoint(path: string, state: TrainState, extra: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  const body = {
    version: 1,
    step: state.step,
    params: encode(state.params),
    m: encode(state.m),
    v: encode(state.v),
    extra,
  };
  writeFileSync(`${path}.tmp`, JSON.stringify(body));
  renameSync(`${path}.tmp`, path);
}

export function loadCheckpoint(path: string): { state: TrainState; extra: unknown } {
  let parsed: z.output<typeof checkpointSchema>;
  try {
    parsed = checkpointSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
  } catch (error) {
    throw new RewardKitError(
      'RK_INPUT_PARSE',
      `${path}: not a lab checkpoint (${(error as Error).message.split('\n')[0]})`,
      {
        cause: error,
      },
    );
  }
  return {
    state: { step: parsed.step, params: decode(parsed.params), m: decode(parsed.m), v: decode(parsed.v) },
    extra: parsed.extra,
  };
}

const paramsSchema = z.object({ version: z.literal(1), params: tensorsSchema });

/** Writes parameters alone (a trained model another stage starts from), atomically. */
export function saveParams(path: string, params: Params): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, JSON.stringify({ version: 1, params: encode(params) }));
  renameSync(`${path}.tmp`, path);
}

export function loadParams(path: string): Params {
  try {
    return decode(paramsSchema.parse(JSON.parse(readFileSync(path, 'utf8'))).params);
  } catch (error) {
    throw new RewardKitError(
      'RK_INPUT_PARSE',
      `${path}: not a lab parameter file (${(error as Error).message.split('\n')[0]})`,
      {
        cause: error,
      },
    );
  }
}
