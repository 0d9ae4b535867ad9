// The train mode's words in English and Chinese, and its lessons: which of the core's training tasks
// (attention.tasks()) each one trains side by side. The stage titles, the numbers and every sentence of
// arithmetic come from the core.

/** Each lesson: the core's task ids it trains at once (one run each), the stage it opens at. */
export const LESSONS = {
  alignment: { tasks: ['alignment'], stage: 'weights', view: 'lines' },
  positions: { tasks: ['positions-pe', 'positions-no-pe'], stage: 'weights', view: 'matrix' },
  scaling: { tasks: ['scaling-sqrt-dk', 'scaling-none'], stage: 'weights', view: 'matrix' },
  // a language model trained in the page: its own element, from the model mode's script (attention-model.js)
  induction: { tasks: [], element: 'attention-induction' },
};

const words = {
  en: {
    lessons: 'Lessons', language: 'Language',
    lesson: {
      alignment: {
        title: 'Alignment: W_q and W_k learn which key matches a query',
        text: 'Sixteen sentence pairs over the translation example\'s words (猫/狗/鸟, 坐/跑/睡, 垫子/地毯/树 ↔ cat/dog/bird, sat/ran/slept, mat/rug/tree). Each Chinese word should come out as its English word\'s value, so it has to attend to it. W_q and W_k start small and random: the weights start nearly uniform. Press Play and watch the lines and the heatmap become 猫 → cat, 坐 → sat, 垫子 → mat while the loss falls.',
      },
      positions: {
        title: 'Why positions matter: reversing a sequence, with and without positional encoding',
        text: 'Output i must name the token at position n − 1 − i. Without positional encoding attention sees only what a token is, never where it stands: two equal tokens look the same, and the loss plateaus. With sinusoidal PE added to the inputs the queries can find a position, and the loss falls. The same data, the same starting weights, trained side by side.',
      },
      induction: { title: 'Induction: a head that copies from context, born while you watch', text: '' },
      scaling: {
        title: 'Why ÷√d_k: the same task at d = 64, scaled and unscaled',
        text: 'With 64 dimensions the dot products of random vectors are 8 times larger than after dividing by √d_k = 8. Unscaled, the softmax starts peaked, saturates as it trains, and its gradient vanishes: the loss stops falling. Scaled, the same task trains. Pause at any step and compare the weights and their gradients.',
      },
    },
    run: {
      alignment: 'Alignment', 'positions-pe': 'With sinusoidal PE', 'positions-no-pe': 'Without positional encoding',
      'scaling-sqrt-dk': 'Scores ÷ √d_k', 'scaling-none': 'Scores not scaled',
    },
    play: 'Play', pause: 'Pause', step: 'Step', reset: 'Reset', learningRate: 'Learning rate',
    speed: 'Speed', sentence: 'Sentence', slowMotion: 'slow motion', stepsPerFrame: (n) => `${n} step${n > 1 ? 's' : ''} a frame`,
    moved: (step, query, key, was, others) => `Step ${step}: ${query} now attends most to ${key} (it was ${was})${others ? `, and ${others} more row${others > 1 ? 's' : ''} moved` : ''}.`,
    sentenceOf: (k, n, text) => `${k} of ${n}: ${text}`,
    stepOf: (done, target) => `step ${done} of ${target}`,
    lossNow: (loss) => `loss ${loss}`,
    chartTitle: 'Loss per step (log scale)', chartStep: 'step', chartLoss: 'loss',
    chartSummary: (parts) => `Loss per step: ${parts.join('; ')}.`, notTrained: 'no step yet',
    alpha: 'α (live)',
    paused: 'Paused: every stage of this sentence, and under it the stage\'s gradient, can be inspected. Use the stage bar of each run.',
    playing: 'Training: each frame runs full-batch Adam steps in the core, then redraws.',
  },
  zh: {
    lessons: '课程', language: '语言',
    lesson: {
      alignment: {
        title: '对齐：W_q 和 W_k 学会哪个键与查询匹配',
        text: '十六对句子，用的是翻译示例的词（猫/狗/鸟、坐/跑/睡、垫子/地毯/树 ↔ cat/dog/bird、sat/ran/slept、mat/rug/tree）。每个中文词的输出应当是它对应英文词的值，所以它必须关注那个词。W_q 和 W_k 从很小的随机值开始：权重起初几乎是均匀的。点“播放”，看连线和热力图逐渐变成 猫 → cat、坐 → sat、垫子 → mat，同时损失下降。',
      },
      positions: {
        title: '位置为什么重要：把序列倒过来，有位置编码和没有位置编码',
        text: '第 i 个输出必须说出位置 n − 1 − i 上的词。没有位置编码时，注意力只看得到词是什么，看不到它在哪里：两个相同的词看起来一样，损失停滞不前。输入加上正弦位置编码后，查询就能找到位置，损失随之下降。同样的数据、同样的初始权重，并排训练。',
      },
      induction: { title: '归纳：一个从上下文中复制的头，在你眼前诞生', text: '' },
      scaling: {
        title: '为什么要 ÷√d_k：d = 64 时同一个任务，缩放与不缩放',
        text: '64 维时，随机向量的点积比除以 √d_k = 8 之后大 8 倍。不缩放时，softmax 一开始就很尖锐，训练中趋于饱和，梯度消失：损失不再下降。缩放后，同一个任务能训练好。随时暂停，比较两边的权重和它们的梯度。',
      },
    },
    run: {
      alignment: '对齐', 'positions-pe': '有正弦位置编码', 'positions-no-pe': '没有位置编码',
      'scaling-sqrt-dk': '分数 ÷ √d_k', 'scaling-none': '分数不缩放',
    },
    play: '播放', pause: '暂停', step: '单步', reset: '重置', learningRate: '学习率',
    speed: '速度', sentence: '句子', slowMotion: '慢动作', stepsPerFrame: (n) => `每帧 ${n} 步`,
    moved: (step, query, key, was, others) => `第 ${step} 步：${query} 现在最关注 ${key}（之前是 ${was}）${others ? `，另有 ${others} 行也变了` : ''}。`,
    sentenceOf: (k, n, text) => `第 ${k} 句，共 ${n} 句：${text}`,
    stepOf: (done, target) => `第 ${done} 步，共 ${target} 步`,
    lossNow: (loss) => `损失 ${loss}`,
    chartTitle: '每一步的损失（对数坐标）', chartStep: '步数', chartLoss: '损失',
    chartSummary: (parts) => `每一步的损失：${parts.join('；')}。`, notTrained: '尚未训练',
    alpha: 'α（实时）',
    paused: '已暂停：这句话的每个阶段都可以查看，每个阶段下方还有它的梯度。用每个训练的阶段栏切换。',
    playing: '训练中：每一帧在内核里做若干步全批量 Adam，然后重绘。',
  },
};

export function trainerWords(lang) {
  return words[lang] ?? words.en;
}
