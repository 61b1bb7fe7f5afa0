/**
 * The CLUB worked vectors of ../shared/methods/rl.md ("DIR"): q's class probabilities per sample,
 * the samples' labels and Î. The number version (dir-objective.test.ts) and the tensor version
 * (dir.test.ts) are both held to them.
 */
export const CLUB_WORKED_VECTORS: readonly [label: string, q: number[][], labels: number[], club: number][] =
  [
    [
      'A = [0,1], q rows [0.9,0.1], [0.1,0.9]',
      [
        [0.9, 0.1],
        [0.1, 0.9],
      ],
      [0, 1],
      1.098612,
    ],
    [
      'identical q rows',
      [
        [0.7, 0.3],
        [0.7, 0.3],
      ],
      [0, 1],
      0,
    ],
    [
      'q rows [0.5,0.5], [0.75,0.25]',
      [
        [0.5, 0.5],
        [0.75, 0.25],
      ],
      [0, 1],
      -0.274653,
    ],
    [
      'three samples',
      [
        [0.8, 0.2],
        [0.3, 0.7],
        [0.6, 0.4],
      ],
      [0, 1, 0],
      0.387373,
    ],
  ];
