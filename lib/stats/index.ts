/**
 * Statistics for grading LLM answers with clinicians. Pure TypeScript, no database.
 * Rows = units/subjects, columns = raters or rubric items, `null` = missing (nominal statistics
 * also take text labels). Degenerate input
 * yields `null` values with a `reason`, never NaN and never a throw.
 * Conventions are pinned by ../shared/golden/stats-vectors.json (see its README).
 */
export type { Degenerate, Interval, Rating, RatingMatrix } from "./types";
export type { WeightScheme } from "./internal";
export { ratingPatterns, type UnitCounts } from "./internal";

export { cronbachAlpha, feldtInterval } from "./cronbach";
export type { CronbachOptions, CronbachResult, NanPolicy } from "./cronbach";

export { cliffsDelta, cliffsDeltaCI, cliffsDeltaNaive, cliffsMagnitude } from "./cliffs";
export type { CliffMagnitude, CliffsDeltaCIResult, CliffsDeltaResult } from "./cliffs";

export { gwetAC1, gwetAC2, gwetAC2BootstrapCI } from "./gwet";
export type { GwetAC1Options, GwetAC2Options, GwetOptions, GwetResult } from "./gwet";

export { encodeNominal } from "./categories";
export type { Category, NominalMatrix, NominalRating } from "./categories";

export { cohenKappa } from "./cohen";
export type { CohenOptions, CohenResult, KappaConvention, KappaWeights } from "./cohen";

export { pairwiseCohenKappa } from "./cohen-pairwise";
export type { PairwiseKappa, PairwiseKappaResult } from "./cohen-pairwise";

export { kendallW } from "./kendall-w";
export type { KendallWOptions, KendallWResult } from "./kendall-w";

export { friedmanTest, wilcoxonPosthoc } from "./friedman";
export type { FriedmanResult, PosthocOptions, PosthocPair } from "./friedman";

export { wilcoxonSignedRank } from "./wilcoxon";
export type { WilcoxonOptions, WilcoxonResult } from "./wilcoxon";

export { pAdjust } from "./p-adjust";
export type { PAdjustMethod } from "./p-adjust";

export { descriptives, quantileType7 } from "./descriptives";
export type { DescriptivesResult } from "./descriptives";

export { cliffsDeltaFamily } from "./cliffs-family";
export type { CliffsComparison, CliffsFamilyMember, CliffsFamilyOptions, CliffsFamilyResult } from "./cliffs-family";

export { fleissKappa } from "./fleiss";
export type { FleissOptions, FleissResult } from "./fleiss";

export { krippendorffAlpha, krippendorffAlphaBootstrapCI } from "./krippendorff";
export type { KrippendorffLevel, KrippendorffOptions, KrippendorffResult } from "./krippendorff";

export { icc } from "./icc";
export type { IccOptions, IccResult, IccType } from "./icc";

export { averageRanks, spearman } from "./spearman";
export type { SpearmanResult } from "./spearman";

export { bootstrapCI, mulberry32, percentileInterval } from "./bootstrap";
export type { BootstrapOptions, BootstrapResult } from "./bootstrap";

export { describe } from "./describe";
export type { DescribeResult } from "./describe";

export { blandAltman } from "./bland-altman";
export type { BlandAltmanResult } from "./bland-altman";

export { classification, confusionMatrix } from "./classification";
export type { ClassificationResult, ConfusionMatrix } from "./classification";

export { kendallTau } from "./kendall-tau";
export type { KendallTauResult } from "./kendall-tau";

export { expectedScore, modalSample, mostProbableLevel, probabilityConfidence, roundHalfUp, sampleConfidence, sampleMean } from "./judge-readings";
export type { LevelProbability } from "./judge-readings";

export { DEFERRAL_CUTOFFS, deferralCurve, exactAgreement } from "./deferral";
export type { DeferralJudgment, DeferralPoint } from "./deferral";

// Reference-based text metrics (sacreBLEU BLEU, rouge-score ROUGE; conventions in each file).
export { bleuFromStats, bleuStats, bleuStatsFromTokens, corpusBleu, sentenceBleu, sumBleuStats } from "./bleu";
export type { BleuStats } from "./bleu";
export { lcsLength, rouge1FromTokens, rougeF1, rougeLFromTokens } from "./rouge";
export type { RougeScore } from "./rouge";
export { pySplit, tokenize13a, tokenizeRouge } from "./text-tokenize";
export { prepareReference, scoreAnswer } from "./text-metrics";
export type { AnswerMetrics, PreparedReference } from "./text-metrics";

export { bradleyTerry, bradleyTerryFromCounts, countPreferences, emptyCounts, predicted } from "./bradley-terry";
export { bradleyTerryBootstrap } from "./bradley-terry-bootstrap";
export type { BradleyTerryBootstrapResult } from "./bradley-terry-bootstrap";
export type { BradleyTerryOptions, BradleyTerryResult, Preference, PreferenceCounts, PreferenceOutcome } from "./bradley-terry";

export { binomialTest, pairSummary, shareTest, wilsonInterval } from "./preference";
export type { PairSummary, ProportionResult, ShareTest } from "./preference";

export { analysePreferences, preferencesFromScores, PREFERENCE_CHOICES } from "./pairwise";
export type { AnswerScore, AxisAnalysis, PairRow, PairwiseAnalysis, PairwiseOptions, PreferenceChoice, PreferenceObservation } from "./pairwise";
export { percentileRanks, rankDisagreements, SPEARMAN_CI_METHOD, spearmanCI, spearmanInterval } from "./rank-correlation";
export type { RankGap, SpearmanCIResult } from "./rank-correlation";
