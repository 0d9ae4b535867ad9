// Hand-written declarations for attention-playground. Field names are docs/spec.md's contract.

/** Every stage id, in trace order. A stage that does not apply to a spec is absent from its trace. */
export type StageId =
  | 'pe' | 'x' | 'memory' | 'q' | 'k' | 'v' | 'q_rot' | 'k_rot' | 'scores' | 'scaled' | 'masked'
  | 'row_max' | 'exp' | 'row_sum' | 'weights' | 'context'
  | 'online_max' | 'online_rescale' | 'online_sum' | 'online_acc' | 'online_output' | 'concat' | 'output';

/** The worked examples' ids. */
export type ExampleId =
  | 'numpy-3x4' | 'basic-attention' | 'translation' | 'long-range' | 'bank' | 'coreference'
  | 'context-window' | 'score-functions' | 'multi-head' | 'masking' | 'positional-encoding' | 'complexity'
  | 'online-softmax' | 'se-block' | 'eca-block' | 'cbam-block' | 'coordinate-attention';

/** The vision blocks (docs/spec.md "Vision attention"). */
export type VisionBlock = 'se' | 'eca' | 'cbam' | 'ca';

/** Every vision stage id; a block's trace holds its own, from `feature` to `output`. */
export type VisionStageId =
  | 'feature' | 'pool_avg' | 'pool_max' | 'fc1' | 'relu' | 'fc2' | 'conv1d' | 'gate'
  | 'mlp_avg' | 'mlp_max' | 'channel_gate' | 'channel_refined' | 'spatial_avg' | 'spatial_max' | 'spatial_conv' | 'spatial_gate'
  | 'pool_h' | 'pool_w' | 'conv1' | 'bn' | 'act' | 'gate_h' | 'gate_w' | 'output';

export type ScoreKind = 'dot' | 'scaled_dot' | 'additive' | 'bilinear';

/** A row-major matrix: an array of rows (plain arrays or typed arrays). */
export type Matrix = ReadonlyArray<ReadonlyArray<number> | Float32Array | Float64Array>;
export type Vector = ReadonlyArray<number> | Float32Array | Float64Array;

/** "causal": key j > query i is masked; window k: query i sees keys i-k < j <= i; matrix: 0 = masked. */
export type Mask = 'none' | 'causal' | { window: number } | { matrix: Matrix };
/** "rotary": q and k of every head turned by their positions after the projections (θ 10000, or { rotary: θ }). */
export type Positional = 'none' | 'sinusoidal' | { learned: Matrix } | 'rotary' | { rotary: number };

/** What to compute. Math convention Q = X·W_q; every W is d_model × d_model (W_k and W_v: d_model × d_kv). */
export interface Spec {
  /** Query-side inputs, n_q × d_model. */
  x: Matrix;
  /** Key/value-side inputs, n_k × d_model (cross-attention); absent = self-attention. */
  memory?: Matrix | null;
  /** Labels only. */
  tokens?: { query?: string[]; key?: string[] };
  /** Each optional; an absent projection is the identity. bo needs wo. */
  weights?: { wq?: Matrix; bq?: Vector; wk?: Matrix; bk?: Vector; wv?: Matrix; bv?: Vector; wo?: Matrix; bo?: Vector };
  /** Default "scaled_dot". */
  score?: ScoreKind;
  /** e_ij = tanh(q_i·W1 + k_j·W2)·v; W1, W2: d_head × d_a, v: d_a. Only with score "additive". */
  additive?: { w1: Matrix; w2: Matrix; v: Vector };
  /** e_ij = q_i·W·k_jᵀ; W: d_head × d_head. Only with score "bilinear". */
  bilinear?: { w: Matrix };
  /** Default 1, at most 64; must divide d_model. */
  heads?: number;
  /** Key/value heads (grouped-query attention), dividing heads; default heads. Query head h reads key/value
   * head ⌊h / (heads / kv_heads)⌋; W_k, W_v are d_model × d_kv with d_kv = kv_heads · d_head, and are needed
   * when kv_heads < heads. Gradients and training refuse kv_heads < heads. */
  kv_heads?: number;
  /** Default "none". */
  mask?: Mask;
  /** Written into masked scores before softmax; negative; default -1e9. A masked key never gets weight
   * while its row keeps a key, even when a kept score is below mask_value. */
  mask_value?: number;
  /** Default "none"; sinusoidal and learned are added to x and to memory; rotary turns q and k (d_head even;
   * gradients and training refuse it). */
  positional?: Positional;
  /** Also compute the online (streaming) softmax B keys at a time and keep its state after every tile:
   * stages online_max … online_output (1 <= block <= n_k). */
  online_softmax?: { block: number };
}

/** A spec with what its last stage (output with wo, else concat; n_q × d_model) should be. */
export interface GradSpec extends Spec {
  /** "mse" (default): mean over every element of (y − target)²; "cross_entropy": mean over rows of −log softmax(y_i)[labels[i]];
   * "upstream": the gradient dL/dy of a later loss is given, the loss is the linear stand-in Σ upstream ⊙ y. */
  loss?: 'mse' | 'cross_entropy' | 'upstream';
  /** n_q × d_model, with "mse". */
  target?: Matrix;
  /** n_q column indices into the last stage, with "cross_entropy". */
  labels?: number[];
  /** n_q × d_model, with "upstream": dL/dy sent back by what follows (a language model's layers above its attention). */
  upstream?: Matrix;
}

/** A spec with "train" (DESIGN "Gradients and training"): full batch over data, PyTorch's Adam or SGD. */
export interface TrainSpec extends Spec {
  loss?: 'mse' | 'cross_entropy';
  train: {
    data: { x: Matrix; memory?: Matrix; target?: Matrix; labels?: number[] }[];
    params: ('wq' | 'bq' | 'wk' | 'bk' | 'wv' | 'bv' | 'wo' | 'bo' | 'additive.w1' | 'additive.w2' | 'additive.v' | 'bilinear' | 'learned')[];
    optimizer: { adam: { lr: number; beta1?: number; beta2?: number; eps?: number } } | { sgd: { lr: number } };
    /** Default 1. */
    steps?: number;
  };
}

/** The training tasks: alignment (猫 → cat), reversing with and without PE, ÷√d_k or not at d = 64. */
export type TaskId = 'alignment' | 'positions-pe' | 'positions-no-pe' | 'scaling-sqrt-dk' | 'scaling-none';

export interface Trainer {
  /** train.steps of the spec it was made from. */
  readonly steps: number;
  /** Steps done so far (a refused step is not counted). */
  readonly done: number;
  /** Runs count full-batch steps; each loss is the one before its step. A step whose numbers overflow float
   * throws AttentionError (with .losses: the steps before it) and leaves the weights as they were. */
  step(count?: number): Float32Array;
  /** The learning rate from the next step on (the optimizer's moments are kept). */
  setLearningRate(lr: number): void;
  spec(): NormalisedSpec;
  dispose(): void;
}

/** dL/d(parameter), each present when the spec has the parameter; matrices as arrays of rows. */
export interface ParamGrads {
  x: number[][]; memory?: number[][];
  wq?: number[][]; bq?: number[]; wk?: number[][]; bk?: number[]; wv?: number[][]; bv?: number[]; wo?: number[][]; bo?: number[];
  additive?: { w1: number[][]; w2: number[][]; v: number[] };
  bilinear?: { w: number[][] };
  /** The learned positional table's gradient, every row (rows no position uses are 0). */
  learned?: number[][];
}

export interface GradResult {
  loss: number;
  grads: ParamGrads;
  /** dL/d(stage) for every stage of the trace, in trace order, shaped as the stage (the online-softmax stages are 0). */
  stage_grads: { id: StageId; shape: number[]; data: Float32Array }[];
}

/** The spec as the core read it: every default written out, rows as plain arrays. */
/** The guided path's figures computed by the core (docs/figures.md): figure(name, request). */
export type FigureName = 'rnn-limits' | 'why-sqrt-dk' | 'cnn-rnn-attention';
/** rnn-limits: x (n × d: n 2..64, d 1..64) is required; hidden 1..64 (8), seed (1), gain in (0, 16] (0.9). */
export interface RnnLimitsRequest { x: Matrix; hidden?: number; seed?: number; gain?: number }
/** ‖∂h_{n−1}/∂x_t‖_F of a tanh RNN and ‖∂c_{n−1}/∂x_t‖_F of self-attention (Q = K = V = x), for t = 0..n−1. */
export interface RnnLimitsFigure {
  influence_rnn: number[]; influence_attention: number[];
  /** n − 1 − t */
  distance: number[];
  steps: { rnn: number; attention: 1 };
  n: number; d: number; hidden: number; seed: number; gain: number;
}
/** why-sqrt-dk: d_k 1..16 values of 1..1024 ([4, 8, …, 512]), n_keys 2..256 (16), trials 1..1000 (200), seed (1). */
export interface WhySqrtDkRequest { d_k?: number[]; n_keys?: number; trials?: number; seed?: number }
/** Per d_k, means over trials: the largest weight, ‖diag(α) − ααᵀ‖_F, the scores' standard deviation. */
export interface SoftmaxMeans { max_weight: number[]; grad_norm: number[]; score_std: number[] }
export interface WhySqrtDkFigure { d_k: number[]; unscaled: SoftmaxMeans; scaled: SoftmaxMeans; n_keys: number; trials: number; seed: number }
/** cnn-rnn-attention: n 1..12 values of 2..1024 ([8, 16, …, 256]), d 1..256 (32), kernel odd 3..9 (3). */
export interface CnnRnnAttentionRequest { n?: number[]; d?: number; kernel?: number }
export interface PerKind { rnn: number; cnn: number; attention: number }
export interface CnnRnnAttentionRow {
  n: number; path_length: PerKind; sequential_steps: PerKind; multiply_adds: PerKind; memory_floats: PerKind;
  /** one layer of each, measured by the core: the best of 3 runs */
  microseconds: PerKind;
}
export interface CnnRnnAttentionFigure { n: number[]; d: number; kernel: number; rows: CnnRnnAttentionRow[] }

export interface NormalisedSpec extends Spec {
  x: number[][];
  memory?: number[][];
  score: ScoreKind;
  heads: number;
  mask: Mask;
  mask_value: number;
  positional: Positional;
}

export interface Bilingual {
  en: string;
  zh: string;
}

export interface Stage {
  id: StageId;
  /** English title, e.g. "Attention weights α". */
  title: string;
  /** Chinese title, e.g. "注意力权重 α". */
  title_zh: string;
  /** The formula for this spec, e.g. "α_ij = exp(e_ij − m_i) / s_i". */
  formula: string;
  /** What the stage does and why, after the source articles. */
  explain: Bilingual;
  /** How its values are coloured (the registry's). */
  scale: ColorScale;
  /** Its term in the formula map for this spec, e.g. "Q = XW_q", or "Q = X" without W_q. */
  term: string;
  /** The stages this one is computed from, for this spec (e.g. weights: ["exp", "row_sum"]). */
  operands: StageId[];
  /** e.g. [heads, n_q, n_k] for weights, [n_q, d_model] for x. */
  shape: number[];
  /** Row-major values, a copy owned by JavaScript. */
  data: Float32Array;
}

export interface ExampleDocument {
  id: ExampleId;
  source: Bilingual;
  title: Bilingual;
  summary: Bilingual;
  /** How the example's small embeddings were made. */
  embeddings: Bilingual;
  dimensions?: Bilingual[];
  notes?: Partial<Record<StageId, Bilingual>>;
  variants?: { id: string; title: Bilingual; patch: Partial<Spec> }[];
  sizes?: number[];
  d_model?: number;
  /** A vision example's channel names in Chinese, shown in zh mode (the spec's channels are English). */
  channels_zh?: string[];
}

/** What the rows or columns of a stage's (one head's) matrix stand for. */
export type AxisKind = 'query' | 'key' | 'position' | 'feature' | 'head_feature' | 'single' | 'tile' | 'tile_feature' | 'hidden' | 'vocab';

/** The facts every kind's stage registry gives a stage (sequence, vision, language model): the core writes them with one function. */
export interface StageFacts {
  /** The matrix's name in formulas and pictures, e.g. "α". */
  symbol: string;
  title: string;
  title_zh: string;
  explain: Bilingual;
  /** How its values are coloured: diverging around 0, sequential from 0, or sequential on 0 … 1. */
  scale: ColorScale;
}

/** One row of the core's stage registry. */
export interface StageInfo extends StageFacts {
  id: StageId;
  /** Shape heads × rows × cols; otherwise rows × cols. */
  per_head: boolean;
  rows: AxisKind;
  cols: AxisKind;
  /** The stage's term in the formula map, e.g. "÷ √d_k". */
  term: string;
  /** Terms that form one function in the formula map ("softmax"), or "". */
  group: string;
}

/** A stage's colour scale: signs occur, never negative, or within [0, 1]. */
export type ColorScale = 'signed' | 'positive' | 'probability';

/** A vision spec: a C × H × W feature map and one block's parameters (z·W with W in × out). */
export interface VisionSpec {
  kind: 'vision';
  block: VisionBlock;
  /** C × H × W. */
  feature: ReadonlyArray<Matrix>;
  /** C labels; default c1, c2, …. */
  channels?: string[];
  se?: { w1: Matrix; b1?: Vector; w2: Matrix; b2?: Vector };
  /** k taps, k odd. */
  eca?: { w: Vector };
  /** spatial: 2 × K × K (taps on the mean map, then the max map), K odd. */
  cbam?: { w1: Matrix; b1?: Vector; w2: Matrix; b2?: Vector; spatial: ReadonlyArray<Matrix>; spatial_bias?: number };
  ca?: {
    w1: Matrix; b1?: Vector;
    bn?: { gamma: Vector; beta: Vector; mean: Vector; var: Vector; eps?: number };
    wh: Matrix; bh?: Vector; ww: Matrix; bw?: Vector;
  };
}

/** A vision stage: the registry's facts (gates are probabilities, a ReLU's output positive) and this trace's. */
export interface VisionStage extends StageFacts {
  id: VisionStageId;
  formula: string;
  /** The earlier stages it is computed from, in order (the page draws them beside it). */
  operands: VisionStageId[];
  /** The labels along its axes: channels (C × H × W), rows and cols (a map), cols (a vector). */
  axes: { channels?: string[]; rows?: string[]; cols: string[] };
  /** [C, H, W], [C], [H, W], [C, H], [C, W] or [m, H + W]. */
  shape: number[];
  data: Float32Array;
}

export interface VisionTrace {
  kind: 'vision';
  /** The normalised vision spec (defaults written out). */
  spec: VisionSpec & { channels: string[] };
  stages: VisionStage[];
  bytes: number;
  compute_ms: number;
  example?: ExampleDocument;
  variant?: string;
}

export interface Trace {
  kind: 'sequence';
  spec: NormalisedSpec;
  /** The labels people read along each axis kind, for this spec (a single column is named by the stage's symbol). */
  axes: Record<Exclude<AxisKind, 'single' | 'tile' | 'tile_feature'>, string[]> & Partial<Record<'tile' | 'tile_feature', string[]>>;
  stages: Stage[];
  /** Bytes the stages hold (float32). */
  bytes: number;
  /** Milliseconds the core spent computing the stages (not reading the spec or copying them out): attention's own cost. */
  compute_ms: number;
  /** With a mask: 1 where query i sees key j, 0 where it is masked (n_q × n_k, row-major). */
  mask?: { shape: number[]; data: Uint8Array };
  /** With a mask: the query rows (0-based) that see no key; their weights are uniform, as in seed 000's code. */
  empty_rows?: number[];
  /** Present for example(): the example's texts (without its spec). */
  example?: ExampleDocument;
  /** Present for example(): the variant id, "" for the example's own spec. */
  variant?: string;
}

export interface ExampleInfo {
  id: ExampleId;
  /** "vision" for the vision blocks (traced by the vision part), "sequence" for the rest. */
  kind: 'sequence' | 'vision';
  title: Bilingual;
  source: Bilingual;
  variants: string[];
  /** The variant whose spec is the example's own, if one is (masking: "causal"); "" otherwise. */
  default_variant: string;
}

/** What one trace may cost (docs/limits.md). */
export interface Budget {
  /** Every stage kept, float32. */
  traceBytes: number;
  /** Projections, scores, softmax and weighted sum. */
  multiplyAdds: number;
  /** The additive score's tanh evaluations (heads · n_q · n_k · d_a). */
  tanhCalls: number;
}

/** Every documented limit of a spec, read from the core. */
export interface Limits {
  /** Bytes of spec text (16 MiB); checked before anything crosses into WebAssembly. */
  maxSpecBytes: number;
  /** Numbers, strings, arrays and objects in one spec. */
  maxSpecValues: number;
  maxNesting: number;
  maxArrayLength: number;
  maxObjectFields: number;
  /** Bytes of one string (a token label), UTF-8. */
  maxStringBytes: number;
  /** n_q, n_k and rows of a learned positional table. */
  maxPositions: number;
  maxDModel: number;
  maxHeads: number;
  /** d_a, the additive score's hidden width. */
  maxAdditiveWidth: number;
  /** Bytes one attention() call may hold in the heap (q, k, v and the output), and its work: nQ·nK·(2d + 16), halved when causal. */
  maxAttentionBytes: number;
  maxAttentionWork: number;
  /** Rows attentionBytes() sizes. */
  maxAttentionRows: number;
  budget: {
    /** What trace() accepts by default. */
    default: Budget;
    /** The playground's lower budget: a trace computed between two frames. */
    interactive: Budget;
  };
}

export interface TraceOptions {
  /** "interactive" applies the playground's lower budget; default "default". */
  budget?: 'default' | 'interactive';
}

export interface Attention {
  readonly version: string;
  readonly stageIds: readonly StageId[];
  /**
   * How the traces so far crossed into the core (tests and benchmarks that must see the fast paths); specText: the
   * traces whose spec was read again from its text (no longer kept by the core); keptSpecs: the specs kept now.
   */
  tracePaths(): { text: number; packedParsed: number; packedKept: number; packedHit: number; example: number; exampleHit: number; specText: number; keptSpecs: number };
  /** The documented limits of a spec (the core's own numbers). */
  readonly limits: Limits;
  /** Threads a large attention() call uses: 1, but with the wasm-threads module (createAttention({threads: true}) on a cross-origin-isolated page). */
  readonly threads: number;
  /**
   * Every stage for a spec (an object, or JSON text). Throws AttentionError for a bad spec, for
   * values JSON cannot carry (NaN, BigInt, a cycle, a lone surrogate) and for a spec over the limits.
   */
  trace(spec: Spec, options?: TraceOptions): Trace;
  /** A vision block's stages (SE, ECA, CBAM, CA) for a spec with "kind": "vision". */
  trace(spec: VisionSpec, options?: TraceOptions): VisionTrace;
  /** JSON text of either kind of spec: narrow the result by its `kind`. */
  trace(spec: string, options?: TraceOptions): Trace | VisionTrace;
  /** The trace of a worked example, or of one of its variants. Throws AttentionError for an unknown id. */
  example(id: 'se-block' | 'eca-block' | 'cbam-block' | 'coordinate-attention', variant?: string): VisionTrace;
  example(id: ExampleId | (string & {}), variant?: string): Trace;
  /** The worked examples' ids, in docs/spec.md's order; each is a valid example(id). */
  examples(): ExampleId[];
  /** The worked examples with titles and sources in English and Chinese, and their variants. */
  catalog(): ExampleInfo[];
  /**
   * The fast path: softmax(q·kᵀ/√d_h [causal])·v as one Float32Array (n_q × d), without a trace or JSON.
   * q (n_q × d), k and v (n_k × d) row-major; `heads` heads are contiguous column blocks of d. Streams over
   * blocks of keys with an online softmax: no n_q × n_k matrix, so memory is the inputs and the output.
   * Throws AttentionError naming the argument for a wrong type or shape.
   */
  attention(args: { q: Float32Array; k: Float32Array; v: Float32Array; d: number; heads?: number; causal?: boolean;
    /** where to write the result (q.length values; it may be q itself), returned; else a new array */
    out?: Float32Array }): Float32Array;
  /** The loss, dL/d(parameter) for every parameter of the spec (and x, memory), and dL/d(stage) for every
   * stage, from the core's backward pass. The spec carries "target" (mse) or "labels" with
   * "loss": "cross_entropy". Throws AttentionError naming the field for a bad spec, target or labels. */
  grad(spec: GradSpec | string): GradResult;
  /** A training run to step through (a page trains between frames): the spec has "train" and its "loss".
   * step(count) runs full-batch steps and returns each step's loss (before the step). Call dispose() when done. */
  trainer(spec: TrainSpec | string): Trainer;
  /** A training task's train spec (generated by the core, the same every time). */
  task(id: TaskId): TrainSpec;
  /** The training tasks' ids, in the page's order. */
  tasks(): TaskId[];
  /** The chain rule behind one cell of dL/d(stage) for a grad spec, with the passes' own numbers, e.g.
   * "∂L/∂α[1][2] = Σ_c ∂L/∂c[1][c]·v[2][c] = 0.1525×0.8415 + 0.3302×1.5403 = 0.6370". Cells as explain() counts them. */
  explainGrad(spec: GradSpec | string, stage: StageId, cell?: { head?: number; i?: number; j?: number; detail?: boolean }): string;
  /** A guided-path figure's numbers, computed by the core (needs the "learn" part); fields left out take their
   * defaults. Throws AttentionError naming the field for a bad request. */
  figure(name: 'rnn-limits', request: RnnLimitsRequest | string): RnnLimitsFigure;
  figure(name: 'why-sqrt-dk', request?: WhySqrtDkRequest | string): WhySqrtDkFigure;
  figure(name: 'cnn-rnn-attention', request?: CnnRnnAttentionRequest | string): CnnRnnAttentionFigure;
  /** Trains for train.steps steps: the losses and the trained spec; onStep after every step. */
  train(spec: TrainSpec | string, options?: { onStep?: (progress: { step: number; loss: number }) => void }): { losses: Float32Array; spec: NormalisedSpec };
  /** Bytes one attention() call of these sizes holds in the wasm heap: q, k, v, the output and the kernel's
   * buffers, O((nQ + nK)·d), never nQ × nK. */
  attentionBytes(sizes: { nQ: number; nK: number; d: number; heads?: number }): number;
  /** An example's texts (title, summary, embeddings, notes, variants), without computing its trace. */
  exampleDocument(id: ExampleId | (string & {})): ExampleDocument;
  /** The core's stage registry, in trace order. */
  stages(): readonly StageInfo[];
  /**
   * The arithmetic behind result cell (i, j) (0-based) of a stage (head `head` of a per-head stage), with the
   * trace's numbers, as the playground's captions write it; `detail`: every term and every digit. Needs the
   * "explain" part (createAttention loads it unless options.parts leaves it out).
   */
  explain(trace: Trace, stage: StageId, cell?: { head?: number; i?: number; j?: number; detail?: boolean }): string;
  /** The arithmetic behind value `index` (0-based, row-major in the stage's shape) of a vision stage. */
  explain(trace: VisionTrace, stage: VisionStageId, value?: { index?: number }): string;
  /**
   * Loads a part, each its own wasm module: "vision" (vision specs and examples, their explain), "learn"
   * (grad, explainGrad, tasks, task, trainer, train, figure), "explain" (explain of a sequence trace) and "fast"
   * (attention, attentionBytes). createAttention loads all four unless options.parts lists fewer; a call that needs a part not loaded
   * throws an AttentionError whose `part` names it.
   */
  load(part: PartName): Promise<void>;
  /** The parts loaded so far. */
  parts(): PartName[];
  /** The specs' field tables, from the core (attn/spec_fields.hpp): every field's path, rank, shape and names. */
  schema(): SpecSchema;
  /** Diagnostics: bytes in use on the wasm heaps (the core's and the loaded parts'), and their size. */
  memory(): { heapInUse: number; heapSize: number };
  /**
   * The tiny language model (docs/model.md): 'zh' or 'en' as shipped, or a safetensors file's bytes. options.signal
   * stops the loading (the promise rejects with the signal's reason); onProgress reports the weights' bytes as they arrive.
   */
  loadModel(which: 'zh' | 'en' | Uint8Array | ArrayBuffer, options?: LoadModelOptions): Promise<LanguageModel>;
  /**
   * A model you bring (docs/models-you-bring.md): a Hugging Face folder of GPT-2, Llama or Qwen2 — its files' bytes
   * ({config, weights, tokenizer}; weights or tokenizer as {name: bytes} when sharded or GPT-2's vocab.json +
   * merges.txt), {files} (File objects from a chosen folder, or {name: bytes}), or the folder's URL.
   */
  loadModel(which: ModelFolder | string | URL, options?: LoadModelOptions): Promise<FolderModel>;
  /** A language model with fresh weights to train, from fortune-format text (the induction lesson). */
  freshModel(corpus: string, options?: { nLayer?: number; nHead?: number; dModel?: number; dMlp?: number; nCtx?: number; vocab?: number; seed?: number }): Promise<LanguageModel>;
  /**
   * Lets go of the core and its parts: every later call of this API throws an AttentionError with code
   * "ERR_ATTN_DISPOSED"; the next createAttention() makes a fresh instance, with its own options.
   */
  dispose(): void;
}

/** loadModel's options. */
export interface LoadModelOptions {
  /** Stops the loading: the promise rejects with signal.reason (an AbortError DOMException unless abort() was given one). */
  signal?: AbortSignal;
  /** The weights' bytes as they arrive; total is 0 when the server does not say (no Content-Length, or a compressed body). */
  onProgress?: (progress: { loaded: number; total: number; file?: string }) => void;
}

type FileBytes = Uint8Array | ArrayBuffer | Blob;
/** A model folder's files handed over (loadModel). */
export type ModelFolder =
  | { config: FileBytes | object; weights: FileBytes | Record<string, FileBytes>; tokenizer: FileBytes | Record<string, FileBytes> }
  | { files: File[] | FileList | Record<string, FileBytes> };

/** The names of the model folders' module's operations (attn_call): the core's table, which a test checks this against. */
export type FolderOperation = 'about' | 'free' | 'generate' | 'layer_spec' | 'limits' | 'next' | 'open' | 'sample' | 'stages' | 'step' | 'tokenize' | 'trace';

/** A stage of a model folder's trace: its id (docs/models-you-bring.md), layer (0-based, null for a global stage), shape and numbers (copied out when first read; after the trace's dispose() a stage not read before throws ERR_ATTN_DISPOSED). */
export interface FolderStage { id: string; layer: number | null; shape: number[]; readonly data: Float32Array }

/** A folder model's trace: its stages' data are copied out when read; dispose() gives up the ones not read yet. */
export interface FolderTrace {
  tokens: string[];
  ids: number[];
  stages: FolderStage[];
  dispose(): void;
}

/** A model opened from a folder (GPT-2, Llama, Qwen2): every number from the core. */
export interface FolderModel {
  readonly about: {
    architecture: 'gpt2' | 'llama' | 'qwen2'; dtype: 'F32' | 'F16' | 'BF16'; n_layer: number; n_head: number; n_kv_head: number; d_model: number;
    d_head: number; d_mlp: number; n_ctx: number; n_vocab: number; tokenizer_size: number; tied: boolean; rope_theta: number; weight_bytes: number;
  };
  /** How many threads its passes share: 1, or (createAttention({threads: true}) on a cross-origin-isolated page) the wasm-threads module's workers and the calling thread. */
  readonly threads: number;
  /** Whether its module is the relaxed-SIMD twin (dist/hf/relaxed/ or dist/hf-threads/relaxed/), chosen where the engine validates relaxed SIMD: its linear layers and attention scores multiply and add in one f32x4.relaxed_madd, fused where the CPU has FMA, so its numbers may differ from the plain module's in the last bits. */
  readonly relaxedSimd: boolean;
  /** ids exactly as Hugging Face's tokenizers give them; tokens as a reader sees them ("锅(1/2)" for a byte piece); pieces as stored. */
  tokenize(text: string): { ids: number[]; tokens: string[]; pieces: string[] };
  /** Every stage of every layer; with {next: k}, the k likeliest next tokens from the same pass too. */
  trace(text: string, options: { next: number }): FolderTrace & { next: { id: number; token: string; p: number }[] };
  trace(text: string, options?: { next?: number }): FolderTrace & { next?: { id: number; token: string; p: number }[] };
  /** The last token's pass through the key/value cache the others filled (kv_cache per layer: 2 × kv heads × n × d_head). */
  step(text: string): FolderTrace;
  next(text: string, k?: number, options?: { temperature?: number; topK?: number; topP?: number }): { id: number; token: string; p: number }[];
  sample(text: string, options?: { temperature?: number; topK?: number; topP?: number; seed?: number; k?: number }):
    { candidates: { id: number; token: string; temperature: number; top_k: number; top_p: number }[]; pick: { id: number; token: string } };
  generate(prompt: string, options?: { n?: number; temperature?: number; topK?: number; topP?: number; seed?: number }): { ids: number[]; tokens: string[]; text: string };
  /** What each stage id is: symbol, titles and explanations in English and Chinese, formula. */
  /** Layer `layer`'s attention (0-based) as a spec of the playground's stepper: the norm's rows as x, the layer's weights; Llama and Qwen2 with `kv_heads` and rotary positions. */
  layerSpec(text: string, layer?: number): Spec;
  stageFacts(ids: string[]): Record<string, { id: string; symbol: string; title: { en: string; zh: string }; explain: { en: string; zh: string }; formula: string }>;
  /** The module's memory (every model opened in it). */
  memory(): { heapInUse: number; heapMax: number };
  dispose(): void;
}

/** What a program branches on: AttentionError's code. */
export type AttentionErrorCode = 'ERR_ATTN_INVALID' | 'ERR_ATTN_PART_NOT_LOADED' | 'ERR_ATTN_LOAD_FAILED' | 'ERR_ATTN_DISPOSED'
  | 'ERR_ATTN_OUT_OF_MEMORY' | 'ERR_ATTN_OPTIONS';

/** One matrix or vector field of the sequence spec, as the core's field table has it (attn/spec_fields.hpp). */
export interface TensorField {
  /** Its JSON path in a spec, e.g. "weights.wq". */
  path: string;
  /** 2: rows of numbers; 1: a vector. */
  rank: 1 | 2;
  /** Its shape in words, e.g. "d_model × d_model". */
  shape: string;
  /** What a reader sees it called, as the articles write it ("W_q"): the page's editor labels it so. */
  symbol: string;
  /** Its name in train.params ("wq"), "" when it cannot be trained. */
  param: string;
  /** Its path in grad()'s grads ("wq", "additive.w1"), "" when it has no gradient. */
  grad: string;
  /** Whether a.trace sends it to the core as floats (a 0/1 mask is read as written). */
  packed: boolean;
  /** The score function it belongs to ("additive"), needed with it and refused with any other; "" for any score. */
  score: string;
  /** The matrix a bias is added after ("weights.wo"), refused without it; "" when it stands alone. */
  bias_of: string;
  /** What a new one is filled with when an editor adds it: "ones", "zeros", or "" for the identity (a vector: ones). */
  start: '' | 'ones' | 'zeros';
}

/** One number or list of labels of the sequence spec, as the core's scalar table has it (attn/spec_fields.hpp). */
export interface ScalarField {
  /** Its JSON path in a spec, e.g. "heads", "online_softmax.block", "tokens.query". */
  path: string;
  kind: 'whole' | 'number' | 'labels';
  /** A whole number's range, and the value a new one starts at in an editor (mask {"window": 2}). */
  min?: number;
  max?: number;
  start?: number;
}

/** The specs' field tables, from the core: a.schema(). */
export interface SpecSchema {
  sequence: {
    /** The top-level fields, in docs/spec.md's order. */
    top: (keyof Spec)[];
    tensors: TensorField[];
    scalars: ScalarField[];
    /** The names of each kind of score, mask and positional encoding. */
    choices: { score: ScoreKind[]; mask: string[]; positional: string[] };
    /** What a reader sees each field with a control called (the kinds and the scalar fields), by path, in both languages. */
    labels: Record<string, { en: string; zh: string }>;
  };
  /** The vision blocks' matrices and vectors ("feature" and "cbam.spatial" are lists of matrices: rank 3); null until the vision part is loaded. */
  vision: { tensors: { path: string; rank: 1 | 2 | 3; block: '' | 'se' | 'eca' | 'cbam' | 'ca'; shape: string }[] } | null;
}

/** A module beside the core, loaded on first use (web/README.md, "Parts"). */
export type PartName = 'vision' | 'learn' | 'explain' | 'fast';

/** A refused spec or a wrong call; message is one sentence naming the field. The instance keeps working. */
export declare class AttentionError extends Error {
  constructor(message: string, code?: AttentionErrorCode);
  name: 'AttentionError';
  /**
   * "ERR_ATTN_INVALID": a spec or an argument refused; "ERR_ATTN_PART_NOT_LOADED": see part; "ERR_ATTN_LOAD_FAILED": a
   * module or a model's file could not be loaded; "ERR_ATTN_DISPOSED": a call after dispose(); "ERR_ATTN_OUT_OF_MEMORY";
   * "ERR_ATTN_OPTIONS": a second createAttention() with other filesUrl or loadPart than the first.
   */
  code: AttentionErrorCode;
  /** Set when the call needs a part that is not loaded: await a.load(part), then call again. */
  part?: PartName;
}

export declare const version: string;

/**
 * Instantiates the WebAssembly core (once; later calls share the instance) and returns the API.
 * In browsers, options.wasmUrl says where attention_core.wasm is if it was moved.
 */
export declare function createAttention(options?: {
  /** Where attention_core.wasm is, if it was moved. */
  wasmUrl?: string | URL;
  /** Load the wasm-threads module (dist/core-threads) for attention() when the page is cross-origin isolated, beside the one-thread module that does everything else; otherwise, or if it cannot load, the one-thread module only. Default false. */
  threads?: boolean;
  /** Where the wasm-threads module's attention_core.js is, if it was moved (its .wasm and .worker.js beside it). */
  threadsUrl?: string | URL;
  /** The parts to load before the promise resolves; default all (["vision", "learn", "explain", "fast"]); [] loads the core alone. */
  parts?: PartName[];
  /** In the browser: how a part's module is instantiated, if its files (dist/vision, dist/learn, dist/explain) were moved (Node reads them from the package). */
  loadPart?: (name: PartName) => Promise<object>;
  /** In the browser: the core's .wasm bytes, when the caller has them (nothing is fetched for the core then). */
  wasmBinary?: Uint8Array;
  /**
   * In the browser: the folder the package's dist/ and models/ are served from, if they were moved (a CDN, a copy in
   * public/), as onnxruntime-web's env.wasm.wasmPaths. Bundlers (Vite, webpack 5) need none: they copy the files.
   * A later call with another filesUrl or loadPart is refused (code "ERR_ATTN_OPTIONS") until a.dispose().
   */
  filesUrl?: string | URL;
}): Promise<Attention>;

/** A stage of a model trace (docs/model.md): layer 0-based, or null for embed, pe, x, ln_f, logits, probs. */
export interface ModelStage {
  id: ModelStageId;
  layer: number | null;
  shape: number[];
  /** the stage's symbol, title and colour scale, from the model's stage registry (m.stages(), where the title is title and title_zh) */
  symbol: string;
  title: { en: string; zh: string };
  scale: ColorScale;
  /** kv_cache (a step's): 2 × heads × n × d_h, keys then values */
  data: Float32Array;
}
/** A row of the model's stage registry (m.stages(), attn lm stages): the facts every registry has, then the model's. */
export interface ModelStageInfo extends StageFacts {
  id: ModelStageId;
  /** 'attention': a stage of each layer's attention, the sequence registry's row */
  kind: 'model' | 'attention';
  per_layer: boolean;
  /** one matrix per head (kv_cache: per keys and values too, 2 × heads × n × d_h) */
  per_head: boolean;
  /** axis kinds: 'query' (the text's characters), 'feature', 'hidden' (the MLP's), 'vocab', 'key', 'head_feature', 'single' */
  rows: AxisKind;
  cols: AxisKind;
  formula: string;
  /** what it is computed from; 'previous' is the layer before's resid_post, which before layer 1 is x */
  operands: { id: ModelStageId; layer: 'same' | 'previous' | 'last' | 'global' }[];
  /** one of a decoder block's own stages (the page's block strip) */
  block: boolean;
}
export type ModelStageId =
  | 'embed' | 'pe' | 'x' | 'ln_1' | 'resid_mid' | 'ln_2' | 'mlp_pre' | 'mlp_act' | 'mlp_out' | 'resid_post'
  | 'ln_f' | 'logits' | 'probs' | 'kv_cache' | StageId;
export interface ModelTrace {
  /** each character of the text */
  tokens: string[];
  /** their vocabulary ids (0 = <unk>) */
  ids: number[];
  /** positions of the characters the model does not know */
  unknown: number[];
  stages: ModelStage[];
}
export interface HeadScores {
  layer: number;
  head: number;
  previous_token: number;
  induction: number;
  first_token: number;
  line_alignment?: number;
  /** the same scores on the model's standard probes (held-out text; induction on random characters repeated) */
  probe: { previous_token: number; induction: number; first_token: number; line_alignment?: number };
  /** with heads(text): the detectors on that text (induction null when no character repeats; entropy in bits) */
  text?: { previous_token: number; induction: number | null; first_token: number; self: number; entropy: number; line_alignment?: number };
}
/** One source of a candidate's logit; the parts of a candidate sum to its logit. */
export interface LogitPart {
  part: 'embed' | 'head' | 'attn_bias' | 'mlp' | 'ln_f_bias';
  layer: number | null;
  head: number | null;
  value: number;
}
/** Options of a draw: temperature 0 is greedy; topK 0 and topP 1 keep every character. */
export interface DrawOptions { temperature?: number; topK?: number; topP?: number; seed?: number }
export interface ModelConfig {
  n_layer: number; n_head: number; d_model: number; d_mlp: number; n_ctx: number;
  positional: 'learned' | 'sinusoidal'; ln_eps: number;
}
/** The names of the character model's module's operations (attn_call, wasm/lm_export.cpp): the core's table, which a test checks this against. */
export type ModelOperation = 'attribute' | 'explain' | 'free' | 'fresh' | 'generate' | 'heads' | 'layer_grad' | 'layer_spec' | 'lens' | 'limits' | 'line_targets' | 'load' | 'next' | 'sample' | 'save' | 'stage_name' | 'stages' | 'step' | 'trace' | 'train_step' | 'trainer' | 'trainer_free';
export interface LanguageModel {
  readonly about: { config: ModelConfig; vocab_size: number; vocab: string[]; corpus: string[]; parameters: number };
  /** Every stage a trace can have, in trace order, with its facts (docs/model.md, "The stage registry"). */
  stages(): readonly ModelStageInfo[];
  trace(text: string): ModelTrace;
  /** One generation step through the key/value cache: per layer kv_cache and the new row of weights, then logits and probs. */
  step(text: string): ModelTrace;
  /** A cell's arithmetic as the page's captions say it (layer and head 0-based; layer null for global stages). */
  explain(text: string, stageId: ModelStageId, cell?: { layer?: number | null; head?: number; i?: number; j?: number }): string;
  /** Layer `layer`'s attention on text as a sequence spec (its ln_1 rows, the layer's weights, causal, the characters as labels); trace(spec) shows it stage by stage. */
  layerSpec(text: string, layer: number): Spec;
  /** Layer `layer`'s attention with the model's next-character loss above it: the loss, and layerSpec's spec as an "upstream" grad spec; grad(spec) gives every stage's gradient of the model's loss. */
  layerGrad(text: string, layer: number): { loss: number; spec: GradSpec };
  /** For each character, the key at the same place in the previous line of a poem (−1 when none): the line-alignment pattern of the head scores. */
  lineTargets(text: string): number[];
  /** The k likeliest next characters; with options, as sampling draws them (after the temperature, top-k and top-p). */
  next(text: string, k?: number, options?: DrawOptions): { char: string; p: number }[];
  /** The next character as sampling draws it: the k likeliest with their probability after each step, and the seed's draw. */
  sample(text: string, options?: DrawOptions & { k?: number }): {
    candidates: { char: string; temperature: number; top_k: number; top_p: number }[];
    sampled: { char: string; temperature: number; top_k: number; top_p: number };
  };
  /** The logit lens: ln_f and the unembedding after each layer's attention and MLP, the top k of each. */
  lens(text: string, k?: number): { layer: number; after: 'attn' | 'mlp'; top: { char: string; p: number }[] }[];
  /** Where each of the k most likely next characters' logit comes from: parts (embedding, heads, biases, MLPs, ln_f's bias) summing to the logit; heads: each (layer, head)'s part, layer by layer. */
  attribution(text: string, k?: number): { char: string; p: number; logit: number; heads: number[]; parts: LogitPart[] }[];
  /** One call into the core (n is bounded): options.signal, if already aborted, stops it before it starts (throws its reason). */
  generate(prompt: string, options?: DrawOptions & { n?: number; signal?: AbortSignal }): string;
  heads(text?: string): HeadScores[];
  /**
   * Trains in place; the event loop gets a turn after every step. options.signal stops it before its next step
   * (the promise rejects with the signal's reason; the steps taken stay in the weights).
   */
  train(text: string, options?: { steps?: number; batch?: number; lr?: number; warmup?: number; repeatFraction?: number;
    seed?: number; onStep?: (s: { step: number; loss: number }) => void | Promise<void>; signal?: AbortSignal }): Promise<Float32Array>;
  /** A training run to step through: step(count) returns the steps' losses; dispose() frees it. */
  trainer(text: string, options?: { steps?: number; batch?: number; lr?: number; warmup?: number; repeatFraction?: number; seed?: number }):
    { readonly done: number; step(count?: number): Float32Array; dispose(): void };
  /** A fresh model's training text (its corpus's training entries); undefined for a loaded model. */
  readonly trainingText?: string;
  save(): Uint8Array;
  /** Diagnostics: bytes in use in the model module's heap (all its models), and the heap's size, which never shrinks. */
  memory(): { heapInUse: number; heapSize: number };
  /** The operations the module's one call (attn_call) takes: its core's table. */
  operations(): ModelOperation[];
  dispose(): void;
}
