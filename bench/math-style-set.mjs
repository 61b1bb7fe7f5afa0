// A seeded MATH-style set: answers in the forms MATH and model outputs take (integers, fractions,
// radicals, decimals, intervals, tuples, sets, matrices, polynomials, text), written into
// responses the ways models write them (boxed, Minerva's "Final Answer: The final answer is $…$",
// "Answer:", "####", a trailing math span, a bare answer, prose ending in a number), with near
// misses (a changed digit, a dropped bracket, a flipped sign, an enumeration of answers) labelled
// as wrong. Each row: {response, reference, correct}.

function rng(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

/** Answer forms: [reference as a dataset stores it, an equivalent way a model writes it, a near miss]. */
function answerForms(r) {
  const int = (lo, hi) => lo + Math.floor(r() * (hi - lo + 1));
  const a = int(2, 97);
  const b = int(2, 13);
  const c = int(2, 9);
  const coprime = (p, q) => {
    const gcd = (x, y) => (y === 0 ? x : gcd(y, x % y));
    return gcd(p, q) === 1;
  };
  const den = coprime(a, b) ? b : b + 1;
  return [
    [String(a * 37), `${a * 37}`, `${a * 37 + 1}`, 'number'],
    [`${fmtThousands(a * 1013)}`, `${a * 1013}`, `${a * 1013 - 10}`, 'number'],
    [`\\frac{${a}}{${den}}`, `\\dfrac{${a}}{${den}}`, `\\frac{${den}}{${a}}`, 'fraction'],
    [
      `${c}\\sqrt{${b === 4 || b === 9 ? 2 : b}}`,
      `\\sqrt{${c * c * (b === 4 || b === 9 ? 2 : b)}}`,
      `${c}\\sqrt{${(b === 4 || b === 9 ? 2 : b) + 1}}`,
      'radical',
    ],
    [`${a}.${b}`, `${a}.${b}0`, `${a}.${b}1`, 'decimal'],
    [`[${-b}, ${a})`, `[${-b},${a})`, `(${-b}, ${a})`, 'interval'],
    [`(${b}, ${-c})`, `(${b},${-c})`, `(${-c}, ${b})`, 'tuple'],
    [`\\{${b}, ${a}\\}`, `\\{${a}, ${b}\\}`, `\\{${a}, ${b + 1}\\}`, 'set'],
    [
      `\\begin{pmatrix} ${a} & ${b} \\\\ ${c} & 1 \\end{pmatrix}`,
      `\\begin{pmatrix}${a}&${b}\\\\${c}&1\\end{pmatrix}`,
      `\\begin{pmatrix} ${a} & ${c} \\\\ ${b} & 1 \\end{pmatrix}`,
      'matrix',
    ],
    [`x^2 + ${2 * c}x + ${c * c}`, `(x+${c})^2`, `(x-${c})^2`, 'polynomial'],
    [
      `\\text{${b % 2 === 0 ? 'even' : 'odd'}}`,
      b % 2 === 0 ? 'even' : 'odd',
      b % 2 === 0 ? 'odd' : 'even',
      'text',
    ],
  ];
}

function fmtThousands(n) {
  return n.toLocaleString('en-US').replace(/,/g, ',\\!');
}

/** The ways a response states its final answer. */
const STYLES = [
  (x) => `We simplify step by step and find the result.\n\nTherefore the answer is $\\boxed{${x}}$.`,
  (x) =>
    `Working through the algebra gives the value.\nFinal Answer: The final answer is $${x}$. I hope it is correct.`,
  (x) => `Combining the two cases we get it.\n\n**Answer:** $${x}$`,
  (x) => `Putting it together, the expression simplifies, so $${x}$.`,
  (x) => `${x}`,
  (x) => `Adding the 3 parts and the 12 extra gives ${x}`,
  (x) => `Step 1: compute 4 cases.\n#### ${x}`,
];

/** Which answer forms each style can carry: plain-text styles only carry plain numbers. */
const PLAIN_ONLY = new Set([5, 6]);

export function generateMathStyleSet(count, seed = 7) {
  const r = rng(seed);
  const rows = [];
  while (rows.length < count) {
    const forms = answerForms(r);
    const [reference, equivalent, miss, kind] = forms[Math.floor(r() * forms.length)];
    if (miss.replace(/\s/g, '') === reference.replace(/\s/g, '')) continue;
    const style = Math.floor(r() * STYLES.length);
    if (PLAIN_ONLY.has(style) && kind !== 'number' && kind !== 'decimal') continue;
    const roll = r();
    if (roll < 0.55) {
      rows.push({ response: STYLES[style](roll < 0.3 ? reference : equivalent), reference, correct: true });
    } else if (roll < 0.9) {
      rows.push({ response: STYLES[style](miss), reference, correct: false });
    } else {
      // Answer enumeration: box the right answer and a wrong one.
      rows.push({
        response: `It is either $\\boxed{${miss}}$ or $\\boxed{${reference}}$.`,
        reference,
        correct: false,
      });
    }
  }
  return rows;
}
