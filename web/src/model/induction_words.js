// The induction lesson's words, in English and 中文 (no English left in zh mode).
const words = {
  en: {
    title: 'An induction head is born',
    why: 'Copying from context takes two heads in two layers. In layer 1 a previous-token head writes into each position which character came just before it. In layer 2 an induction head then looks for the earlier position whose previous character is the current one — the place right after the last time this character appeared — and copies what stood there. Neither head helps alone, so both form together, suddenly: watch the loss drop and the layer-2 induction score jump.',
    setup: (steps) => `A fresh 2-layer model (4 heads, d_model 64, an MLP of 256 in each layer, 32 characters of context) trains here, in the page, on English fortunes from Debian, half of each batch a random string repeated. Without the MLPs, a model this small grew no induction head in our runs. ${steps} steps; every number is the C++ core's.`,
    play: 'Play', pause: 'Pause', stepButton: '+25 steps', reset: 'Reset', seed: 'Seed',
    status: (done, steps) => `step ${done} of ${steps}`,
    lossNow: (loss) => `loss ${loss} nats/character`,
    chartLoss: 'Loss per step (nats per character)', chartScores: 'Head scores per step', step: 'step', loss: 'loss', score: 'score',
    induction: (h) => `layer 2 head ${h} induction`, previous: (h) => `layer 1 head ${h} previous token`,
    legend: '—— induction score (layer 2)   - - - previous-token score (layer 1)',
    patterns: 'Every head on a string repeated twice', patternsHint: 'Row = a character, column = what it attends to. An induction head shows a stripe one place right of the diagonal of the first copy; a previous-token head, the line just left of the diagonal. Pause and click a head to step through its layer, with the gradient of the model’s loss under each stage.',
    born: (step, head, score) => `An induction head formed at step ${step}: layer 2 head ${head} scores ${score}.`,
    notYet: 'No induction head yet (none in layer 2 scores 0.4).',
    loading: 'Loading the model module…', failed: (why) => `The lesson could not start: ${why}`, stepperFailed: (why) => `This layer could not be shown: ${why}`,
    stepper: (l, h) => `Layer ${l}, head ${h}, stage by stage`, needsStepper: 'Add the stepper\'s script (assets/attention-stepper.js) to this page to step through the layer.',
    layerHead: (l, h) => `L${l} H${h}`,
  },
  zh: {
    title: '归纳头的诞生',
    why: '从上下文中复制需要两层里的两个头。第一层的“前一字符头”把每个位置前面那个字符写进该位置；第二层的“归纳头”再去寻找：哪个更早的位置，它前面的字符正是当前字符——也就是这个字符上一次出现之后的位置——并把那里的字符抄过来。单独一个头都没有用，所以两者一起、突然地形成：请看损失骤降、第二层的归纳分数跃升。',
    setup: (steps) => `一个新初始化的两层模型（4 个头，d_model 64，每层一个 256 宽的 MLP，上下文 32 个字符）就在本页里训练，语料是 Debian 的英文 fortunes，每批一半是重复的随机字符串。去掉 MLP，这么小的模型在我们的试验里长不出归纳头。共 ${steps} 步；每个数都由 C++ 核心算出。`,
    play: '播放', pause: '暂停', stepButton: '+25 步', reset: '重置', seed: '随机种子',
    status: (done, steps) => `第 ${done} 步，共 ${steps} 步`,
    lossNow: (loss) => `损失 ${loss} 奈特/字符`,
    chartLoss: '每步的损失（奈特/字符）', chartScores: '每步的头分数', step: '步', loss: '损失', score: '分数',
    induction: (h) => `第 2 层第 ${h} 头 归纳`, previous: (h) => `第 1 层第 ${h} 头 前一字符`,
    legend: '—— 归纳分数（第 2 层）   - - - 前一字符分数（第 1 层）',
    patterns: '重复两遍的字符串上，每一个头', patternsHint: '行是一个字符，列是它关注的字符。归纳头在第一遍对角线右边一格处显出一条斜线；前一字符头是紧贴对角线左边的一条线。暂停后点一个头，逐步查看它所在的层，每个阶段下面是模型损失的梯度。',
    born: (step, head, score) => `第 ${step} 步形成了归纳头：第 2 层第 ${head} 头得分 ${score}。`,
    notYet: '还没有归纳头（第 2 层没有哪个头的得分达到 0.4）。',
    loading: '正在载入模型模块…', failed: (why) => `课程无法开始：${why}`, stepperFailed: (why) => `无法显示这一层：${why}`,
    stepper: (l, h) => `第 ${l} 层第 ${h} 头，逐步查看`, needsStepper: '请在本页加入演练器的脚本（assets/attention-stepper.js），以逐步查看这一层。',
    layerHead: (l, h) => `第${l}层 头${h}`,
  },
};

export const inductionWords = (lang) => words[lang === 'zh' ? 'zh' : 'en'];
