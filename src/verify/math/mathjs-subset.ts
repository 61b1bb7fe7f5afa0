import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FactoryFunctionMap, MathJsFactory, MathJsInstance } from 'mathjs';

/**
 * The mathjs factories `expression.ts` needs, by the file under `mathjs/lib/cjs/` that defines
 * each: parse, compile/evaluate, simplify, the allowed functions and operators, the constants
 * pi, e, i and Infinity, complex numbers, and every dependency these declare, optional ones
 * included (as mathjs's own `*Dependencies` objects do, so results match `create(all)`).
 * Importing 'mathjs' itself builds its whole default instance up front, about 0.5 s, most of
 * `rewardkit verify math`'s start-up; the package's `exports` hide these files, so they are
 * required by path. The paths are mathjs internals: package.json pins its exact version, and
 * mathjs-subset.test.ts compares this instance with `create(all)`.
 */
const FACTORY_FILES: Record<string, string> = {
  createAbs: 'function/arithmetic/abs.js',
  createAccessorNode: 'expression/node/AccessorNode.js',
  createAcos: 'function/trigonometry/acos.js',
  createAdd: 'function/arithmetic/add.js',
  createAddScalar: 'function/arithmetic/addScalar.js',
  createArrayNode: 'expression/node/ArrayNode.js',
  createAsin: 'function/trigonometry/asin.js',
  createAssignmentNode: 'expression/node/AssignmentNode.js',
  createAtan: 'function/trigonometry/atan.js',
  createBigNumberClass: 'type/bignumber/BigNumber.js',
  createBignumber: 'type/bignumber/function/bignumber.js',
  createBlockNode: 'expression/node/BlockNode.js',
  createCeil: 'function/arithmetic/ceil.js',
  createCombinations: 'function/probability/combinations.js',
  createCompile: 'expression/function/compile.js',
  createComplexClass: 'type/complex/Complex.js',
  createConcat: 'function/matrix/concat.js',
  createConditionalNode: 'expression/node/ConditionalNode.js',
  createConj: 'function/complex/conj.js',
  createConstantNode: 'expression/node/ConstantNode.js',
  createCos: 'function/trigonometry/cos.js',
  createCosh: 'function/trigonometry/cosh.js',
  createCot: 'function/trigonometry/cot.js',
  createCsc: 'function/trigonometry/csc.js',
  createDenseMatrixClass: 'type/matrix/DenseMatrix.js',
  createDet: 'function/matrix/det.js',
  createDivide: 'function/arithmetic/divide.js',
  createDivideScalar: 'function/arithmetic/divideScalar.js',
  createDot: 'function/matrix/dot.js',
  createE: 'constants.js',
  createEqual: 'function/relational/equal.js',
  createEqualScalar: 'function/relational/equalScalar.js',
  createEvaluate: 'expression/function/evaluate.js',
  createExp: 'function/arithmetic/exp.js',
  createFactorial: 'function/probability/factorial.js',
  createFix: 'function/arithmetic/fix.js',
  createFloor: 'function/arithmetic/floor.js',
  createFormat: 'function/string/format.js',
  createFraction: 'type/fraction/function/fraction.js',
  createFractionClass: 'type/fraction/Fraction.js',
  createFunctionAssignmentNode: 'expression/node/FunctionAssignmentNode.js',
  createFunctionNode: 'expression/node/FunctionNode.js',
  createGamma: 'function/probability/gamma.js',
  createI: 'constants.js',
  createIdentity: 'function/matrix/identity.js',
  createIndexNode: 'expression/node/IndexNode.js',
  createInfinity: 'constants.js',
  createInv: 'function/matrix/inv.js',
  createIsBounded: 'function/utils/isBounded.js',
  createIsInteger: 'function/utils/isInteger.js',
  createIsNumeric: 'function/utils/isNumeric.js',
  createIsZero: 'function/utils/isZero.js',
  createLog: 'function/arithmetic/log.js',
  createLog10: 'function/arithmetic/log10.js',
  createMatrix: 'type/matrix/function/matrix.js',
  createMatrixClass: 'type/matrix/Matrix.js',
  createMultiply: 'function/arithmetic/multiply.js',
  createMultiplyScalar: 'function/arithmetic/multiplyScalar.js',
  createNode: 'expression/node/Node.js',
  createNthRoot: 'function/arithmetic/nthRoot.js',
  createNumber: 'type/number.js',
  createNumeric: 'function/utils/numeric.js',
  createObjectNode: 'expression/node/ObjectNode.js',
  createOperatorNode: 'expression/node/OperatorNode.js',
  createParenthesisNode: 'expression/node/ParenthesisNode.js',
  createParse: 'expression/parse.js',
  createPi: 'constants.js',
  createPow: 'function/arithmetic/pow.js',
  createRangeNode: 'expression/node/RangeNode.js',
  createRelationalNode: 'expression/node/RelationalNode.js',
  createReplacer: 'json/replacer.js',
  createResolve: 'function/algebra/resolve.js',
  createResultSet: 'type/resultset/ResultSet.js',
  createRound: 'function/arithmetic/round.js',
  createSec: 'function/trigonometry/sec.js',
  createSimplify: 'function/algebra/simplify.js',
  createSimplifyConstant: 'function/algebra/simplifyConstant.js',
  createSimplifyCore: 'function/algebra/simplifyCore.js',
  createSin: 'function/trigonometry/sin.js',
  createSinh: 'function/trigonometry/sinh.js',
  createSize: 'function/matrix/size.js',
  createSparseMatrixClass: 'type/matrix/SparseMatrix.js',
  createSqrt: 'function/arithmetic/sqrt.js',
  createSubset: 'function/matrix/subset.js',
  createSubtract: 'function/arithmetic/subtract.js',
  createSubtractScalar: 'function/arithmetic/subtractScalar.js',
  createSymbolNode: 'expression/node/SymbolNode.js',
  createTan: 'function/trigonometry/tan.js',
  createTanh: 'function/trigonometry/tanh.js',
  createTypeOf: 'function/utils/typeOf.js',
  createTyped: 'core/function/typed.js',
  createUnaryMinus: 'function/arithmetic/unaryMinus.js',
  createUnaryPlus: 'function/arithmetic/unaryPlus.js',
  createUnitClass: 'type/unit/Unit.js',
  createZeros: 'function/matrix/zeros.js',
};

const require = createRequire(import.meta.url);
let instance: MathJsInstance | undefined;

/**
 * A mathjs instance with only the functions an answer may use, numbers as JavaScript numbers;
 * built on the first call, since every spec registers the math kind and building it cost a
 * process's start-up about 40 ms whether or not a math answer was ever checked.
 */
export function mathjsSubset(): MathJsInstance {
  if (!instance) {
    const root = join(dirname(require.resolve('mathjs/package.json')), 'lib', 'cjs');
    const { create } = require(join(root, 'core', 'create.js')) as MathJsFactory;
    const factories: FactoryFunctionMap = Object.fromEntries(
      Object.entries(FACTORY_FILES).map(([name, file]) => [name, require(join(root, file))[name]]),
    );
    instance = create(factories, { number: 'number' });
  }
  return instance;
}
