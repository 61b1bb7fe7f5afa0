import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Every runtime name of every package entry (`package.json` "exports"), so that adding, moving or
 * removing a public name is a visible change of this file, reviewed like any other.
 */
const names = async (entry: string) => Object.keys(await import(entry)).sort();

/** The package's entries as `package.json` declares them, each with the source module behind it. */
const declaredEntries = (): { entry: string; module: string }[] => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    exports: Record<string, { default: string } | string>;
  };
  // Module entries only: "./package.json" is exported for tools that read the manifest.
  const modules = Object.entries(pkg.exports).filter(
    (entry): entry is [string, { default: string }] => typeof entry[1] !== 'string',
  );
  return modules.map(([subpath, target]) => ({
    entry: subpath === '.' ? 'rewardkit' : `rewardkit/${subpath.slice(2)}`,
    module: target.default.replace(/^\.\/dist\//, './'),
  }));
};

describe('one name, one meaning', () => {
  it('should export a name from two entries only as the same value', async () => {
    const owners = new Map<string, { entry: string; value: unknown }>();
    const clashes: string[] = [];
    for (const { entry, module } of declaredEntries()) {
      for (const [name, value] of Object.entries(await import(module))) {
        const first = owners.get(name);
        if (first === undefined) owners.set(name, { entry, value });
        else if (first.value !== value) clashes.push(`${name}: ${first.entry} and ${entry} differ`);
      }
    }
    expect(clashes).toEqual([]);
  });
});

describe('package entries', () => {
  it('rewardkit', async () => {
    expect(await names('./index.js')).toMatchInlineSnapshot(`
      [
        "CalibrationMapSchema",
        "RewardKitError",
        "RewardResultSchema",
        "SampleSchema",
        "SourceFailedError",
        "SpecError",
        "applyCalibration",
        "calibrationMetrics",
        "checkInstructions",
        "containsMatch",
        "createCodeSandbox",
        "createEvaluator",
        "crossFittedPredictions",
        "defineSourceKind",
        "exactMatch",
        "exploits",
        "extractAnswer",
        "extractCode",
        "extractMathAnswer",
        "fitCalibrationMap",
        "fitIsotonic",
        "fitPlatt",
        "ifevalInstructionIds",
        "jsonCheck",
        "lastBoxed",
        "lengthCheck",
        "liftsReward",
        "loadCalibrationMap",
        "loadSpec",
        "mathEquivalent",
        "normalizeAnswer",
        "normalizeMathAnswer",
        "openDataset",
        "parseSpec",
        "presetNames",
        "presetText",
        "regexCheck",
        "runRedteam",
        "safeParseSpec",
        "scoreFile",
        "sourceKinds",
        "stripThinking",
        "summariseLift",
        "taggedBlocks",
        "tokenF1",
        "verifyCode",
        "verifyMath",
        "verifyReference",
      ]
    `);
  });
  it('rewardkit/judges', async () => {
    expect(await names('./judges/index.js')).toMatchInlineSnapshot(`
      [
        "PROXY_GRM_COMBINERS",
        "RubricSchema",
        "aggregateClaims",
        "aggregateRubric",
        "authorRubric",
        "categoryCounts",
        "cohenKappa",
        "combineProxyGrm",
        "corruptionCurve",
        "createConstraintCache",
        "createGenrmJudge",
        "createLlmPremiseAuditor",
        "createOpenrsJudge",
        "defineJudgeRole",
        "evolveMetaRubric",
        "extractVisualConstraints",
        "factScore",
        "fleissKappa",
        "genrmRubricProducer",
        "heldOutCheck",
        "judgeAnswerEquivalence",
        "judgeByProxy",
        "judgeGenrm",
        "judgeMedicalRubric",
        "judgeOpenrs",
        "judgeRubric",
        "judgeSteps",
        "judgeToolPlan",
        "krippendorffAlpha",
        "lintRubric",
        "llmEvpvRoles",
        "loadMedicalRubrics",
        "loadOpenrsFiles",
        "marchClaimCheck",
        "medicalRubricProducer",
        "openrsRubricProducer",
        "panelAgreement",
        "parseRubricMarkdown",
        "parseToolPlan",
        "promptNonce",
        "proposeClaims",
        "ragasFaithfulness",
        "refcheckerAggregate",
        "renderMetaRubric",
        "renderRubricMarkdown",
        "rubricJudgeProducer",
        "ruleBasedPremiseAuditor",
        "scoreEvpvProblem",
        "scoreRubricQuality",
        "summarizeRubricQuality",
        "toolPlanReport",
        "untrustedBlock",
        "weightedCohenKappa",
      ]
    `);
  });
  it('rewardkit/llm', async () => {
    expect(await names('./llm/index.js')).toMatchInlineSnapshot(`
      [
        "BackendDownError",
        "ChatModelError",
        "caching",
        "callStructured",
        "createCircuitBreaker",
        "createEndpointLimits",
        "createLlamaCppModel",
        "createOpenAICompatibleModel",
        "droppingRejectedThinking",
        "endpointLimited",
        "loadModelsFile",
        "logging",
        "modelsFromEnv",
        "openAIEndpoint",
        "retrying",
        "rotatingEndpoints",
        "usageOf",
        "withResponseCache",
        "wrapChatModel",
      ]
    `);
  });
  it('rewardkit/rl', async () => {
    expect(await names('./rl/index.js')).toMatchInlineSnapshot(`
      [
        "GROUP_METHODS",
        "GROUP_METHOD_NAMES",
        "afrlReward",
        "applyReferenceNormalization",
        "bestOfNReport",
        "brpoGroup",
        "brpoRewards",
        "clipoBatch",
        "clipoContrastiveReward",
        "clippedObjective",
        "createClipoHeadState",
        "createShapingSummary",
        "defineGroupMethod",
        "etrClipBounds",
        "fitReferenceNormalization",
        "groupMethod",
        "groupStd",
        "grpoAdvantages",
        "knockoutBestOfN",
        "modeBalancedLoss",
        "parseGroupOptions",
        "pickBestByScore",
        "shapeGroup",
        "stepwiseGroupAdvantages",
        "triFactorWeights",
        "weightedReward",
      ]
    `);
  });
  it('rewardkit/server', async () => {
    expect(await names('./server/index.js')).toMatchInlineSnapshot(`
      [
        "ApiError",
        "DEFAULT_SERVER_OPTIONS",
        "GroupsRequestSchema",
        "OpenRlhfRequestSchema",
        "RewardsRequestSchema",
        "createResultWriter",
        "createRewardApp",
        "createRlGroupShaper",
        "listenRewardApp",
      ]
    `);
  });
  it('rewardkit/bench', async () => {
    expect(await names('./bench/index.js')).toMatchInlineSnapshot(`
      [
        "BENCH_DATASETS",
        "BenchRecordSchema",
        "buildBenchReport",
        "judgeMetrics",
        "readDatasetRows",
        "runBench",
      ]
    `);
  });
  it('rewardkit/retrieval', async () => {
    expect(await names('./retrieval/index.js')).toMatchInlineSnapshot(`
      [
        "DEFAULT_BM25_PARAMS",
        "buildBm25Index",
        "createBm25Retriever",
        "createHttpRetriever",
        "createRetrieverApp",
        "readBm25Index",
        "readCorpus",
        "renderDocuments",
        "searchBm25",
        "writeBm25Index",
      ]
    `);
  });
  it('rewardkit/selfplay', async () => {
    expect(await names('./selfplay/index.js')).toMatchInlineSnapshot(`
      [
        "ProblemPool",
        "proposerReward",
        "ragCheck",
        "runSearchAgent",
        "runSelfplay",
        "runSspRound",
        "scoreSolverAnswer",
        "solveRate",
        "solverReward",
      ]
    `);
  });

  it('rewardkit/skills', async () => {
    expect(await names('./skills/index.js')).toMatchInlineSnapshot(`
      [
        "EVOLVE_MODES",
        "applySkillPatch",
        "createSkillRmJudge",
        "evolveJudge",
        "evolveSeed",
        "evolveSkill",
        "formatViolation",
        "judgeSkillRmPair",
        "judgeSkillRmPointwise",
        "loadSkill",
        "parseSkill",
        "parseSkillPatch",
        "patchSkill",
        "readSkillFiles",
        "readTrajectories",
        "runSkillRmEpisode",
        "skeletonSkill",
        "writeSkillFiles",
      ]
    `);
  });

  it('rewardkit/store', async () => {
    expect(await names('./store/index.js')).toMatchInlineSnapshot(`
      [
        "openPostgresStore",
        "openSqliteStore",
        "sampleLabelValue",
      ]
    `);
  });

  it('rewardkit/lab', async () => {
    expect(await names('./lab/index.js')).toMatchInlineSnapshot(`
      [
        "DIR_ATTRIBUTES",
        "DIR_CLAIM",
        "DIR_DEFAULTS",
        "GAP_CLAIM",
        "GAP_DEFAULTS",
        "GAP_MODES",
        "MDM_CLAIM",
        "MDM_DEFAULTS",
        "MDM_FULL",
        "RLVR_CLAIM",
        "RLVR_DEFAULTS",
        "RLVR_METHODS",
        "SIAMESENORM_CLAIM",
        "SIAMESENORM_DEFAULTS",
        "SIAMESENORM_FULL",
        "adamwStep",
        "charCorpus",
        "createTrainState",
        "dirVerdicts",
        "disposeTrainState",
        "forward",
        "gapVerdicts",
        "grammarText",
        "httpBatchReward",
        "initParams",
        "lmBatch",
        "loadCheckpoint",
        "loadParams",
        "loadTf",
        "mdmVerdicts",
        "parseLabConfig",
        "policyShape",
        "rlvrVerdicts",
        "runDirExperiment",
        "runGapExperiment",
        "runMdmExperiment",
        "runRlvrExperiment",
        "runSiameseNormExperiment",
        "saveCheckpoint",
        "saveParams",
        "siameseNormVerdicts",
        "trainRun",
        "warmupCosine",
        "writeLabReport",
      ]
    `);
  });
});
