// Every text the model mode shows, in English and 中文 (no English left in zh mode).
/** What each Debian corpus file of a model's about.corpus is, for the sentence that says which texts it read. */
const CORPUS_NAMES = {
  en: {
    'fortunes-zh:tang300': '300 Tang poems (fortunes-zh: tang300)', 'fortunes-zh:song100': '100 Song ci (fortunes-zh: song100)',
    'fortunes-zh:chinese': 'Chinese sayings, classical maxims and prose (fortunes-zh: chinese)',
  },
  zh: {
    'fortunes-zh:tang300': '唐诗三百首（fortunes-zh：tang300）', 'fortunes-zh:song100': '宋词一百首（fortunes-zh：song100）',
    'fortunes-zh:chinese': '中文格言、古文警句和散文（fortunes-zh：chinese）',
  },
};
for (const f of ['art', 'education', 'humorists', 'literature', 'people', 'science', 'wisdom']) {
  CORPUS_NAMES.en[`fortunes:${f}`] = `English quotations: ${f} (fortunes)`;
  CORPUS_NAMES.zh[`fortunes:${f}`] = `英文名言：${f}（fortunes）`;
}

const words = {
  en: {
    title: 'A real model, on your text',
    intro: 'A 2-layer character Transformer we trained from Debian\'s fortunes. Type: every head of every layer attends on your text, computed in the page by the C++ core.',
    model: 'Model', zh: 'Chinese: poems and prose (zh)', en: 'English (en)', text: 'Your text', textHint: (n) => `up to ${n} characters`,
    loading: (name) => `Loading the ${name} model…`, empty: 'Type some text: the model reads it as you type.', loadFailed: (why) => `The model could not be loaded: ${why}`,
    building: (name) => `The ${name} model is still being built behind this page (scripts/serve.sh trains it after the pages are served); the page reloads itself when it is ready.`,
    unknown: (chars) => `Not in the model's vocabulary, read as <unk>: ${chars}. The model saw these too rarely in the texts it read (or never) to learn them: to it every one is the same unknown sign, so what it predicts after them is a guess.`,
    corpus: (files) => `The texts this model read (training split; every tenth entry held out): ${files.map((f) => CORPUS_NAMES.en[f] ?? f).join('; ')}.`,
    grid: 'Every layer × head', gridHint: 'Each square is one head\'s attention (L = layer, H = head): row = a character, column = what it looks at. Click one. Under each: its role measured on your text, then on the model\'s standard probes (held-out text; for induction, random characters written twice).',
    stepperTitle: (l, model) => `Layer ${l} of the ${model} model: its attention on your text, stage by stage`,
    onText: (role, score) => `your text: ${role} ${score}`, weak: (role) => `weak ${role}`, onProbe: (role, score) => `probes: ${role} ${score}`,
    layerHead: (l, h) => `L${l} H${h}`, roles: { previous_token: 'previous token', induction: 'induction', first_token: 'first token', line_alignment: 'line alignment', mixed: 'no single role' },
    roleHelp: 'Scores as TransformerLens defines them: Σ(A ⊙ pattern) / Σ A. Previous token: the character just before; induction: the character after an earlier copy; first token: the first character; line alignment: the same place in the previous line.',
    chosen: (l, h) => `Layer ${l}, head ${h}: attention weights α`, hover: 'Hover or focus a cell to see its arithmetic, from the core.',
    next: 'Next character', nextHint: 'The model\'s top 10 for the character after your text: its own probabilities, before any sampling.',
    pushed: (ch, logit) => `Where the score (logit ${logit}) of “${ch}” comes from, largest first:`, pushHint: 'Hover or focus a candidate to see where its score comes from.',
    sourcesTitle: 'Where the score comes from', sourcesHint: 'The logit of the chosen candidate, split exactly into its sources (direct logit attribution with the final LayerNorm\'s scale fixed): the embedding, each head, each layer\'s attention bias, each MLP and the final norm\'s bias. One scale for all; they sum to the logit. The grid is tinted by the same split.',
    part: { embed: () => 'embedding', attn_bias: (l) => `L${l} bias b_o`, mlp: (l) => `L${l} MLP`, ln_f_bias: () => 'final norm β' }, logitSum: 'sum = logit',
    lensTitle: 'What each layer predicts', lensHint: 'The logit lens: the final LayerNorm and the unembedding applied to the residual stream after each layer\'s attention and MLP; the top 5 at each point. The last row is the model\'s own answer.',
    lensRow: (l, after) => `after layer ${l} ${after === 'mlp' ? 'MLP' : 'attention'}`,
    samplingTitle: 'Sampling you can see', samplingHint: 'Generation draws the next character from the model\'s distribution after the temperature, then keeps the top-k, then the top-p; each step renormalised. The same seed draws the same text here, in the npm package and in the CLI.',
    topK: 'top-k (0 = all)', topP: 'top-p',
    afterT: (t) => (t === 0 ? 'temperature 0 (greedy)' : `after temperature ${t.toFixed(2)}`), afterK: (k) => (k ? `after top-${k}` : 'top-k: all kept'), afterP: (p) => (p < 1 ? `after top-p ${p.toFixed(2)}` : 'top-p: all kept'),
    drawn: (seed, ch, p) => `Seed ${seed} draws “${ch}” (p ${p} after all three), marked.`,
    lessonLink: 'How an induction head forms: train one in the induction lesson →', lessonHref: 'train.html?lesson=induction',
    animate: 'one character at a time',
    temperature: 'Temperature', seed: 'Seed', generate: 'Generate', stop: 'Stop', generating: 'Generating…',
    stepper: 'Every stage of this layer, in the playground\'s stepper', stepperHint: 'The layer\'s attention as numbers: its LayerNorm\'d rows and its trained weights. Click a head in the stepper to switch.', needsStepper: 'Add the stepper\'s script (assets/attention-stepper.js) to this page to step through the layer.',
    block: (l) => `The rest of layer ${l}'s block, computed`, blockHint: 'Each box is a stage of the decoder block, in the order the residual stream meets it: LayerNorm, the attention\'s output, the residual sum, LayerNorm, the MLP and the residual again. Click one to open it; hover its cells for the core\'s arithmetic.',
    exportSVG: 'Save the grid as SVG',
    kvRow: (ch, n, dh) => `Generated “${ch}”: its query attends over the key/value cache — the keys and values of all ${n} characters (${dh} numbers each a head), kept from the steps before, one row added. The outlined row is that one step, computed by the core's cache.`,
    overlay: 'mark the same place in the previous line (the line-alignment pattern)',
    lineScore: (l, h, score, bl, bh, best, weak) => `On this text L${l} H${h} puts ${score} of its attention on the marked cells (a head that only did this would score 1); the most of any head is L${bl} H${bh}, ${best}.${weak ? ` No head reaches ${weak} here: this small model has learned little of it.` : ''}`,
    pick: 'Start from…',
    back: '← Playground', lang: '中文', full: (n) => `The model reads at most ${n} characters.`,
    cut: (kept, given) => `The text given was ${given} characters long; only its first ${kept} are kept (the box holds no more).`,
  },
  zh: {
    title: '真实的模型，读你的文字',
    intro: '一个两层的字符级 Transformer，用 Debian 的 fortunes 语料训练而成。输入文字：每一层的每一个头都在你的文字上计算注意力，全部由页面里的 C++ 核心算出。',
    model: '模型', zh: '中文诗文 (zh)', en: '英文 (en)', text: '你的文字', textHint: (n) => `最多 ${n} 个字符`,
    loading: (name) => `正在载入 ${name} 模型…`, empty: '请输入文字：模型会随着你的输入读它。', loadFailed: (why) => `模型无法载入：${why}`,
    building: (name) => `${name} 模型还在后台构建（scripts/serve.sh 先提供页面，再训练模型）；准备好后本页会自动重新载入。`,
    unknown: (chars) => `不在模型词表中，按 <unk> 读入：${chars}。模型读过的文本里这些字太少见（或从未出现），它没有学会：对它来说每一个都是同一个“未知”记号，后面的预测只是猜测。`,
    corpus: (files) => `这个模型读过的文本（训练部分；每十条留出一条）：${files.map((f) => CORPUS_NAMES.zh[f] ?? f).join('；')}。`,
    grid: '每一层 × 每一个头', gridHint: '每个方块是一个头的注意力：行是一个字符，列是它关注的字符。点一下打开。下面先写它在你的文字上测得的角色，再写它在模型的标准探针上测得的角色（留出的文本；归纳则是写了两遍的随机字符）。',
    stepperTitle: (l, model) => `${model} 模型的第 ${l} 层：它在你的文字上的注意力，逐个阶段`,
    onText: (role, score) => `你的文字：${role} ${score}`, weak: (role) => `弱·${role}`, onProbe: (role, score) => `探针：${role} ${score}`,
    layerHead: (l, h) => `层${l} 头${h}`, roles: { previous_token: '前一个字', induction: '归纳头', first_token: '首字', line_alignment: '上一句同位置', mixed: '没有单一角色' },
    roleHelp: '得分按 TransformerLens 的定义：Σ(A ⊙ 模式) / Σ A。前一个字：紧挨着的前一个字符；归纳：前面出现过的同一字符之后的那个字符；首字：第一个字符；上一句同位置：上一句中相同位置的字。',
    chosen: (l, h) => `第 ${l} 层第 ${h} 头：注意力权重 α`, hover: '把鼠标移到（或聚焦）一个格子上，查看核心给出的算式。',
    next: '下一个字符', nextHint: '模型对你文字之后那个字符的前 10 个预测：模型自己的概率，未经采样调整。',
    pushed: (ch, logit) => `“${ch}”的得分（logit ${logit}）来自哪里，按大小排列：`, pushHint: '把鼠标移到（或聚焦）一个候选字符上，查看它的得分来自哪里。',
    sourcesTitle: '得分来自哪里', sourcesHint: '所选候选字符的 logit 精确地拆成各个来源（固定最后 LayerNorm 缩放的直接 logit 归因）：嵌入、每个头、每层注意力的偏置、每个 MLP 和最后归一化的偏置。全部画在同一个刻度上，加起来正好等于 logit。上面的网格也按同一拆分着色。',
    part: { embed: () => '嵌入', attn_bias: (l) => `层${l} 偏置 b_o`, mlp: (l) => `层${l} MLP`, ln_f_bias: () => '最后归一化 β' }, logitSum: '合计 = logit',
    lensTitle: '每一层在预测什么', lensHint: 'logit 透镜：把最后的 LayerNorm 和反嵌入矩阵用在每层注意力和 MLP 之后的残差流上，每处列出前 5 个。最后一行就是模型自己的答案。',
    lensRow: (l, after) => `第 ${l} 层${after === 'mlp' ? ' MLP' : '注意力'}之后`,
    samplingTitle: '看得见的采样', samplingHint: '生成时，下一个字符从模型的分布里抽取：先按温度调整，再只留前 k 个（top-k），再只留累计概率达到 p 的那些（top-p），每一步都重新归一化。同一个随机种子在页面、npm 包和命令行里抽出同样的文字。',
    topK: 'top-k（0 = 全部）', topP: 'top-p',
    afterT: (t) => (t === 0 ? '温度 0（贪心）' : `温度 ${t.toFixed(2)} 之后`), afterK: (k) => (k ? `top-${k} 之后` : 'top-k：全部保留'), afterP: (p) => (p < 1 ? `top-p ${p.toFixed(2)} 之后` : 'top-p：全部保留'),
    drawn: (seed, ch, p) => `种子 ${seed} 抽到“${ch}”（三步之后 p = ${p}），已标出。`,
    lessonLink: '归纳头是怎样形成的：到归纳课里亲手训练一个 →', lessonHref: 'train.html?lesson=induction&lang=zh',
    animate: '逐字显示',
    temperature: '温度', seed: '随机种子', generate: '生成', stop: '停止', generating: '正在生成…',
    stepper: '在演示场的分步视图里看这一层的每个阶段', stepperHint: '这一层的注意力写成一组数字：LayerNorm 之后的各行和训练得到的权重。在分步视图里点一个头即可切换。', needsStepper: '在页面中加入分步视图的脚本（assets/attention-stepper.js），即可逐步查看这一层。',
    block: (l) => `第 ${l} 层模块的其余部分，全部由核心算出`, blockHint: '每个方框是解码器模块的一个阶段，按残差流经过的顺序排列：LayerNorm、注意力的输出、残差相加、LayerNorm、MLP，再次残差相加。点一个打开；把鼠标移到格子上查看核心给出的算式。',
    exportSVG: '把网格存为 SVG',
    kvRow: (ch, n, dh) => `生成了“${ch}”：它的查询在键/值缓存上计算注意力——前面全部 ${n} 个字符的键和值（每个头 ${dh} 个数）都保留自之前的步骤，只新增一行。框出的这一行就是这一步，由核心的缓存算出。`,
    overlay: '标出上一句的同一位置（上一句同位置的模式）',
    lineScore: (l, h, score, bl, bh, best, weak) => `在这段文字上，层${l} 头${h} 把 ${score} 的注意力放在标出的格子上（只做这件事的头得分为 1）；所有头里最多的是层${bl} 头${bh}，${best}。${weak ? `这里没有哪个头达到 ${weak}：这个小模型几乎没学会它。` : ''}`,
    pick: '从这里开始…',
    back: '← 演示场', lang: 'English', full: (n) => `模型最多读 ${n} 个字符。`,
    cut: (kept, given) => `给出的文字有 ${given} 个字符，只保留前 ${kept} 个（文本框最多容纳这么多）。`,
  },
};

// a touch screen has no hover: its captions say tap (轻点) instead
const tapWords = {
  en: {
    hover: 'Tap a cell to see its arithmetic, from the core.', pushHint: 'Tap a candidate to see where its score comes from.',
    blockHint: (hint) => hint.replace('hover its cells', 'tap its cells'),
  },
  zh: {
    hover: '轻点一个格子，查看核心给出的算式。', pushHint: '轻点一个候选字符，查看它的得分来自哪里。',
    blockHint: (hint) => hint.replace('把鼠标移到格子上', '轻点格子'),
  },
};

export function wordsFor(lang) {
  const w = words[lang === 'zh' ? 'zh' : 'en'];
  if (typeof matchMedia !== 'function' || !matchMedia('(hover: none), (pointer: coarse)').matches) return w;
  const tap = tapWords[w === words.zh ? 'zh' : 'en'];
  return { ...w, hover: tap.hover, pushHint: tap.pushHint, blockHint: tap.blockHint(w.blockHint) };
}
