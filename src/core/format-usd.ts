/** US dollars to the cent, and to two significant figures below a cent (a few judge calls cost less). */
export const formatUsd = (n: number): string =>
  n >= 0.01 || n === 0 ? `$${n.toFixed(2)}` : `$${n.toPrecision(2)}`;
