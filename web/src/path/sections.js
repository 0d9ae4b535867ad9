// The guided path's sections (site/index.html), in the page's order: one arc through the first article,
// with the second folded in where its ideas belong. Each names its figure (what figures.js draws and
// which core computation feeds it) and, where the learner predicts first, its question: the right
// choice and the number revealed are read from the figure's own result — the trace or the core's
// figure it drew — never written here. The words are in words.js; the idea ids are the design's.
import { argmax, matrix, rowOf, tokensOf } from './trace_read.js';

/** A spec with one field replaced, the rest as the example has it. */
const withWeights = (spec, weights) => ({ ...spec, weights: { ...(spec.weights ?? {}), ...weights } });
const square = (n, value) => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => value(i, j)));

/** The translation example's specs the comparisons derive from its own (W_q changed, nothing else). */
const uniformWeights = (spec) => withWeights(spec, { wq: square(spec.x[0].length, () => 0) }); // every score 0: c is the mean of the values
const sharper = (spec, factor) => withWeights(spec, { wq: square(spec.x[0].length, (i, j) => (i === j ? factor : 0)) });

/** The first query row's largest weight, and on which key. */
const rowPeak = (trace, row, head = 0) => {
  const weights = rowOf(trace, 'weights', head, row);
  const k = argmax(weights);
  return { key: k, weight: weights[k] };
};

/** The answer of a "which word does row R look at most" question: the choice whose word is the row's argmax. */
function wordQuestion(row, choices) {
  return (trace) => {
    const rowIndex = tokensOf(trace, 'query').indexOf(row);
    const { key, weight } = rowPeak(trace, rowIndex);
    const word = tokensOf(trace, 'key')[key];
    const right = Object.entries(choices).find(([, w]) => w === word)?.[0] ?? null;
    return { right, value: weight };
  };
}

/**
 * The path's own small sentence example (applications): a question and a summary query over "The cat sat on
 * the mat". Four hand-made dimensions, named on the figure: animal, action, place, function word. The
 * question "where?" asks for a place; the summary asks for the content words (animal, action, place).
 */
export const QA_SPEC = {
  x: [[0, 0, 2, 0], [1, 1, 1, -1]],
  memory: [[0, 0, 0, 1], [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1], [0, 0, 0, 1], [0, 0, 1, 0]],
  tokens: { query: ['where?', 'summary'], key: ['The', 'cat', 'sat', 'on', 'the', 'mat'] },
  score: 'dot',
};
export const QA_DIMENSIONS = { en: ['animal', 'action', 'place', 'function word'], zh: ['动物', '动作', '地点', '虚词'] };
export const QA_QUERIES = { zh: ['在哪里？', '摘要'] };

export const SECTIONS = [
  {
    id: 'rnn-limits',
    // a seeded random RNN (weights N(0, 1)·gain/√fan_in): the example sentence's words as its inputs
    figure: { kind: 'rnn', example: 'long-range', request: { hidden: 8, seed: 3, gain: 0.7 } },
    // which word keeps the least influence on the RNN's last state: read from the core's Jacobian norms
    question: {
      choices: ['first', 'middle', 'last'],
      answer: (result) => {
        const influence = result.influence_rnn;
        const least = influence.indexOf(Math.min(...influence));
        const right = least === 0 ? 'first' : least === influence.length - 1 ? 'last' : 'middle';
        return { right, value: influence[0] / influence[influence.length - 1] };
      },
    },
  },
  {
    id: 'encoder-decoder',
    figure: {
      kind: 'compare', stage: 'context', example: 'translation',
      panels: [{ label: 'fixed_c', spec: uniformWeights }, { label: 'attention_c', spec: (s) => s }],
    },
  },
  { id: 'core-idea', figure: { kind: 'stepper', example: 'translation', stage: 'context', view: 'matrix' } },
  {
    id: 'qkv-retrieval',
    figure: {
      kind: 'compare', stage: 'weights', example: 'translation',
      panels: [{ label: 'soft', spec: (s) => s }, { label: 'hard', spec: (s) => sharper(s, 20) }],
    },
  },
  {
    id: 'score-functions',
    figure: {
      kind: 'compare', stage: 'weights', example: 'score-functions',
      panels: ['dot', 'scaled_dot', 'additive', 'bilinear'].map((variant) => ({ label: variant, variant })),
    },
    question: {
      choices: ['larger', 'smaller', 'same'],
      answer: ([dot, scaled]) => {
        const a = rowPeak(dot, 0).weight, b = rowPeak(scaled, 0).weight;
        return { right: Math.abs(a - b) < 1e-6 ? 'same' : b > a ? 'larger' : 'smaller', value: b, other: a };
      },
    },
  },
  { id: 'softmax', figure: { kind: 'stepper', example: 'numpy-3x4', stage: 'exp', view: 'matrix' } },
  { id: 'weighted-sum', figure: { kind: 'stepper', example: 'numpy-3x4', stage: 'context', view: 'matrix' } },
  {
    id: 'numpy-example',
    figure: { kind: 'stepper', example: 'numpy-3x4', stage: 'weights', view: 'matrix' },
    question: {
      choices: ['a', 'b', 'c'],
      // the choices are about 0.33, 0.51 and 0.80: the right one is the nearest to the core's weight
      answer: (trace) => {
        const w = matrix(trace, 'weights', 0).data[0];
        const near = { a: 1 / 3, b: 0.51, c: 0.8 };
        const right = Object.keys(near).reduce((best, k) => (Math.abs(near[k] - w) < Math.abs(near[best] - w) ? k : best));
        return { right, value: w };
      },
    },
  },
  {
    id: 'why-sqrt-dk',
    figure: { kind: 'sqrtdk', request: { d_k: [4, 8, 16, 32, 64, 128, 256, 512], n_keys: 16, trials: 200, seed: 1 } },
    question: {
      choices: ['up', 'down', 'same'],
      answer: (result) => {
        const k = result.d_k.indexOf(64);
        const before = result.unscaled.max_weight[k], after = result.scaled.max_weight[k];
        return { right: Math.abs(after - before) < 1e-6 ? 'same' : after > before ? 'up' : 'down', value: after, other: before };
      },
    },
  },
  {
    id: 'self-attention',
    figure: { kind: 'stepper', example: 'long-range', stage: 'weights', view: 'lines' },
    question: {
      choices: ['cat', 'mouse', 'chased'],
      answer: (trace) => {
        const row = tokensOf(trace, 'query').indexOf('was');
        const { key, weight } = rowPeak(trace, row);
        const word = tokensOf(trace, 'key')[key];
        return { right: ['cat', 'mouse', 'chased'].includes(word) ? word : null, value: weight };
      },
    },
  },
  {
    id: 'multi-head',
    figure: {
      kind: 'compare', stage: 'weights', example: 'multi-head', heads: true,
      panels: [{ label: 'one_head', spec: (s) => ({ ...s, heads: 1 }) }, { label: 'two_heads', spec: (s) => s }],
    },
    question: {
      choices: ['yes', 'no'],
      // rows of the two-head trace whose heads pick different keys
      answer: ([, two]) => {
        const n = matrix(two, 'weights', 0).rows;
        const queries = tokensOf(two, 'query'), keys = tokensOf(two, 'key');
        const rows = [];
        for (let i = 0; i < n; i++) {
          const one = argmax(rowOf(two, 'weights', 0, i)), other = argmax(rowOf(two, 'weights', 1, i));
          if (one !== other) rows.push({ query: queries[i], one: keys[one], other: keys[other] });
        }
        return { right: rows.length === 0 ? 'yes' : 'no', value: rows.length, integer: true, rows };
      },
    },
  },
  { id: 'cross-attention', figure: { kind: 'stepper', example: 'translation', stage: 'scores', view: 'matrix' } },
  {
    id: 'translation',
    figure: { kind: 'stepper', example: 'translation', stage: 'weights', view: 'lines' },
    question: { choices: ['cat', 'sat', 'mat', 'the'], answer: wordQuestion('垫子', { cat: 'cat', sat: 'sat', mat: 'mat', the: 'the' }) },
  },
  {
    id: 'masks',
    figure: { kind: 'stepper', example: 'masking', variant: 'causal', stage: 'masked', view: 'matrix' },
    question: {
      choices: ['zero', 'third', 'one'],
      answer: (trace) => {
        const w = rowOf(trace, 'weights', 0, 0)[2];
        return { right: w < 1e-6 ? 'zero' : w > 0.99 ? 'one' : 'third', value: w };
      },
    },
  },
  {
    id: 'positional-encoding',
    figure: {
      kind: 'compare', stage: 'weights', example: 'positional-encoding',
      panels: [{ label: 'no_pe', variant: 'none' }, { label: 'sinusoidal', variant: 'sinusoidal' }],
      open: { variant: 'sinusoidal', stage: 'pe' }, // the curves: the playground's PE stage
    },
    question: {
      choices: ['yes', 'no'],
      // the largest difference between the first two rows (two copies of the same word) without positions
      answer: ([none]) => {
        const a = rowOf(none, 'weights', 0, 0), b = rowOf(none, 'weights', 0, 1);
        const most = Math.max(...a.map((v, j) => Math.abs(v - b[j])));
        return { right: most < 1e-6 ? 'yes' : 'no', value: most };
      },
    },
  },
  { id: 'cnn-rnn-attention', figure: { kind: 'table', request: { n: [8, 32, 128, 512], d: 32, kernel: 3 } } },
  { id: 'complexity', figure: { kind: 'stepper', example: 'complexity', stage: 'scores', view: 'matrix' } },
  { id: 'interpretability', figure: { kind: 'stepper', example: 'translation', stage: 'weights', view: 'matrix' } },
  {
    id: 'applications',
    figure: { kind: 'compare', stage: 'weights', spec: QA_SPEC, dimensions: QA_DIMENSIONS, queryNames: QA_QUERIES, panels: [{ label: 'qa', spec: (s) => s }] },
    question: { choices: ['cat', 'sat', 'mat'], answer: ([trace]) => wordQuestion('where?', { cat: 'cat', sat: 'sat', mat: 'mat' })(trace) },
  },
  { id: 'cv-attention', figure: { kind: 'stepper', example: 'se-block', stage: 'gate' } },
  {
    id: 'context-window',
    figure: {
      kind: 'compare', stage: 'weights', example: 'context-window',
      panels: [{ label: 'window_10', variant: 'window-10' }, { label: 'window_4', variant: 'window-4' }],
    },
    question: {
      choices: ['zero', 'some', 'most'],
      answer: ([, narrow]) => {
        const q = tokensOf(narrow, 'query');
        const w = rowOf(narrow, 'weights', 0, q.indexOf('那家店'))[q.indexOf('蜀香园')];
        return { right: w < 1e-6 ? 'zero' : w > 0.5 ? 'most' : 'some', value: w };
      },
    },
  },
  {
    id: 'practice',
    figure: {
      kind: 'compare', stage: 'weights', example: 'context-window', counts: true,
      panels: [{ label: 'full', variant: 'window-10' }, { label: 'sparse', variant: 'window-2' }],
    },
  },
  { id: 'evolution', figure: { kind: 'timeline' } },
  // last: from the hand-made examples into a trained model reading the second article's sentence
  { id: 'real-model', figure: { kind: 'model', text: '我今天去了火锅店，那家店需要提前预约吗' } },
];


/** The timeline (evolution): each year's step and the section that shows its idea. */
export const TIMELINE = [
  ['2014', 'core-idea'], ['2015', 'score-functions'], ['2017', 'multi-head'], ['2018', 'self-attention'],
  ['2019', 'real-model'], ['2020', 'cv-attention'], ['2021', 'practice'],
];
