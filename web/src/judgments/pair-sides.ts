/** What the two responses of a pair are called on the page: the judged one and what it was compared with. */
export interface PairSides {
  first: string;
  second: string;
}

/** Who an order's A/B winner is in the pair's terms: in `forward` A is the first response, in `backward` the second. */
export function sideOf(order: 'forward' | 'backward', winner: 'A' | 'B' | 'same', sides: PairSides): string {
  if (winner === 'same') return 'same';
  return (winner === 'A') === (order === 'forward') ? sides.first : sides.second;
}
