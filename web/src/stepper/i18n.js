// The stepper's own words in English and Chinese. Stage titles, formulas and explanations
// come from the core's trace; example texts from the example documents.

const words = {
  en: {
    lang: 'en', // the editor picks the core's field labels ({en, zh}) by it
    play: 'Play', pause: 'Pause', previous: 'Previous stage', next: 'Next stage', speed: 'Speed',
    previousCell: 'Previous cell (,)', nextCell: 'Next cell (.)', edited: 'edited', resetEdit: 'Reset', aboutStage: 'More about this stage', kept: 'kept', maskedKey: 'masked',
    exampleOwn: 'as the example gives it',
    formulaMap: 'Where this step sits in softmax(QKᵀ/√d_k + M)·V',
    everyHead: 'Every head at once: pick one to see its numbers',
    gateOverlay: 'The gate over the picture (purple: kept)', apply: 'Apply', visionEditHint: 'All the numbers as JSON: the feature map (channel × row × column), the channel labels and the block\'s parameters. Apply (or Ctrl+Enter) recomputes every stage.',
    exportMenu: 'Export', embedCode: 'Embed code…', embedScript: 'In a page: the script and the element',
    embedIframe: 'Or as an iframe', copy: 'Copy', copied: 'Copied.', copyByHand: 'Selected: press Ctrl+C (or ⌘C) to copy.',
    embedHint: 'The snippet shows this stage, language and view as a compact figure for a post (remove compact for the whole stepper); your edited numbers ride along. The script serves any number of elements on a page and works from a saved file too.',
    viewSwitch: 'Show the weights as', viewMatrix: 'Matrix', viewLines: 'Lines',
    linesTitle: 'Attention as lines: queries on the left, keys on the right, thicker for a larger weight',
    linesQueries: 'Queries', linesKeys: 'Keys', headsShown: 'Heads drawn',
    linesHover: 'Hover or focus a word to keep only its lines and read their weights.',
    linesTap: 'Tap a word to keep only its lines and read their weights.',
    linesFrom: (token) => `${token} attends to:`, linesTo: (token) => `Attention paid to ${token}:`,
    blockTitle: 'Where this sits in a Transformer block',
    notComputed: 'context: not computed here',
    block: [
      { title: 'Embedding + PE', text: 'Each token becomes a vector, and the positional encoding adds where it stands.' },
      { title: 'Multi-head attention', text: 'This page: every token gathers information from the tokens it attends to.', computed: true },
      { title: 'Add & LayerNorm', text: 'The input is added back (a residual) and each row normalised; dropout here steadies training.' },
      { title: 'Feed-forward', text: 'Two linear layers with a nonlinearity, applied to each position on its own.' },
      { title: 'Add & LayerNorm', text: 'Again a residual and a normalisation; blocks like this one are stacked many times.' },
    ],
    // a real model's decoder block (block="model": the model mode): the attention's box; the others' words are
    // the model's stage registry's (block_diagram.js)
    modelAttention: { title: 'Multi-head attention', text: 'This stepper: every character gathers information from the ones before it.' },
    computedHere: 'computed: open its stage',
    exactCaption: 'every term, every digit', shortCaption: 'short form',
    gradientTitle: (label) => `Gradient ∂L/∂${label}: how the loss moves when each value moves`,
    gradientExplain: (loss) => `The backward pass of this sentence's loss (${loss}), computed by the core: a positive cell means raising that value raises the loss, so training lowers it.`,
    gradientExplainUpstream: 'The backward pass of a loss computed after this attention, computed by the core: its gradient at this attention\'s output is given (upstream), and from there it flows through every stage. A positive cell means raising that value raises that loss.',
    gradientExplainModel: (loss) => `The backward pass of the model's next-character loss on this text (${loss} nats a character), computed by the core: the layers above send its gradient back to this attention's output, and from there it flows through every stage. A positive cell means raising that value raises the loss, so training lowers it.`,
    gradientHover: 'Hover or focus a gradient cell to read its chain rule with the numbers of both passes.',
    gradientTap: 'Tap a gradient cell to read its chain rule with the numbers of both passes.',
    gradientCell: 'Hover or focus a cell for its chain rule.', gradientCellTap: 'Tap a cell for its chain rule.',
    crossInputs: 'Cross-attention: these rows give the queries only; keys and values come from the source sequence (memory).',
    oneHead: 'With one head this context is already the result: merging the heads (concat) would only copy it.',
    noProjection: (m, from, wName, one) => `Here ${m} = ${from}: this example has no ${wName}${one ? ', and with one head nothing is split' : ''}.`,
    notSplit: (m) => `One head here: ${m} is not split, it keeps all its columns.`,
    nextExample: (title) => `Next example: ${title}`, pePosition: 'position', peValue: 'value',
    timeline: 'Stage timeline', example: 'Example', variant: 'Variant', head: 'Head',
    edit: 'Edit', editTitle: 'Edit the numbers', reset: 'Reset to the example',
    useWeight: (name) => `use ${name}`,
    choices: {
      dot: 'dot product', scaled_dot: 'scaled dot product', additive: 'additive (Bahdanau)', bilinear: 'bilinear (Luong)',
      none: 'none', causal: 'causal', window: 'window', matrix: 'a matrix of your own', sinusoidal: 'sinusoidal', learned: 'learned table', rotary: 'rotary (RoPE)',
    },
    queryTokens: 'Query tokens', keyTokens: 'Key tokens', inputs: 'Inputs and weights',
    embeddings: 'How the inputs were made', sinusoid: 'The first PE columns as curves over the positions',
    tokensAreLabels: 'The tokens here are labels of hand-made vectors: renaming one changes no number, only the vectors do. For attention that a model learned, on text you type:',
    realModel: 'a real model', loading: 'Loading the WebAssembly core…', custom: 'Your numbers',
    hover: 'Hover or focus a cell to see its arithmetic.', tap: 'Tap a cell to see its arithmetic.', measure: 'Measure', measuring: 'Measuring…', cancel: 'Cancel', measureCancelled: 'Measurement cancelled.',
    complexityTitle: 'Measured live in this page: time and memory as n grows',
    pathsTitle: 'Two ways to compute it, up to n = 16384: keeping every stage, or streaming',
    pathsHint: 'Keeping every n × n stage is what lets this page show them; the streaming kernel takes the keys a block at a time (see the online-softmax example) and keeps none. The largest size takes about a second a run.',
    pathsMeasure: 'Measure both paths',
    pathsTraceTime: 'every stage kept: time (ms)', pathsTraceMemory: 'every stage kept: memory (MiB)',
    pathsStreamTime: 'streaming kernel: time (ms)', pathsStreamMemory: 'streaming kernel: memory (MiB)',
    pathsProjection: '····· every stage kept: memory projected as n²',
    pathsText: (time, mem, traceMem, n, gib, mib) => `The streaming kernel: time ∝ n^${time}, memory ∝ n^${mem} (n ≥ 1024, median of 3 runs). Keeping every stage, memory grows as n^${traceMem}: at n = ${n} it would need about ${gib} GiB, more than the page's computing module can address (4 GiB), so it stops at its limit; the streaming kernel needs ${mib} MiB there.`,
    computeTime: 'attention, computed by the core (ms)', callTime: 'the whole call, stages copied out (ms)', memory: 'memory of the stages kept (MiB)',
    positions: 'n (positions)', reference: '····· c·n², fitted to the compute time',
    fitText: (from, compute, call, memory, callFaster) => `Fitted over n ≥ ${from} (median of 7 runs each): time ∝ n^${compute} for attention itself, memory ∝ n^${memory}. The whole call grows as n^${call}: ${callFaster
      ? 'faster than attention here. Besides attention it copies every n × n stage out of the core, and its few milliseconds are easily stretched by a busy machine: measure again to see it settle.'
      : 'it also copies the numbers out as text, a cost that grows only linearly with n and dominates for small n.'}`,
    timeAxis: 'time (ms)', memoryAxis: 'memory (MiB)',
    stageOf: (i, n) => `Stage ${i} of ${n}`, lastGood: 'The picture shows the last valid numbers.',
    linkRefused: 'The link\'s numbers cannot be shown, so this is an example instead.',
    truncated: (r, c) => `showing the first ${r} × ${c} cells`,
    ignored: (list) => `Ignored, as this page does not know it: ${list.join(', ')}.`,
    workerLost: 'The page’s computing worker stopped (closed or crashed). The picture shows the last numbers; your next step or edit starts it again.',
    emptyRows: (rows) => `Query row${rows.length > 1 ? 's' : ''} ${rows.join(', ')} ${rows.length > 1 ? 'see' : 'sees'} no key: ${rows.length > 1 ? 'their softmax is' : 'its softmax is'} uniform, as in the first article's code.`,
    pasteHint: (r, c) => `${r} × ${c} values: too many for a grid of fields. Paste rows here, as CSV (one row a line) or JSON ([[…], …]), then leave the box.`,
  },
  zh: {
    lang: 'zh',
    play: '播放', pause: '暂停', previous: '上一阶段', next: '下一阶段', speed: '速度',
    previousCell: '上一个格子（,）', nextCell: '下一个格子（.）', edited: '已编辑', resetEdit: '还原', aboutStage: '关于这一步的更多说明', kept: '保留', maskedKey: '被掩码',
    exampleOwn: '示例原本的设置',
    formulaMap: '这一步在 softmax(QKᵀ/√d_k + M)·V 中的位置',
    everyHead: '所有头一览：选一个查看它的数值',
    gateOverlay: '叠加在图像上的空间权重（紫色：保留）', apply: '应用', visionEditHint: '全部数字的 JSON：特征图（通道 × 行 × 列）、通道名称和模块参数。点“应用”（或 Ctrl+Enter）重新计算每个阶段。',
    exportMenu: '导出', embedCode: '嵌入代码…', embedScript: '放进网页：脚本与元素',
    embedIframe: '或者用 iframe', copy: '复制', copied: '已复制。', copyByHand: '已选中：按 Ctrl+C（或 ⌘C）复制。',
    embedHint: '代码片段以适合文章的紧凑图形（compact，去掉它即为完整的分步演示）显示当前阶段、语言和视图；你编辑过的数字会一并带上。一个脚本可服务页面上任意多个元素，保存到本地的网页也能用。',
    viewSwitch: '权重的显示方式', viewMatrix: '矩阵', viewLines: '连线',
    linesTitle: '连线图：左边是查询，右边是键，权重越大线越粗',
    linesQueries: '查询（Query）', linesKeys: '键（Key）', headsShown: '显示的头',
    linesHover: '将鼠标悬停或聚焦到一个词上，只保留它的连线并读出权重。',
    linesTap: '轻点一个词，只保留它的连线并读出权重。',
    linesFrom: (token) => `${token} 关注：`, linesTo: (token) => `关注 ${token} 的权重：`,
    blockTitle: '它在 Transformer 块中的位置',
    notComputed: '背景：本页不计算',
    block: [
      { title: '嵌入 + 位置编码', text: '每个 token 变成一个向量，位置编码再加上它所处的位置。' },
      { title: '多头注意力', text: '本页所演示的部分：每个 token 从它关注的 token 那里汇集信息。', computed: true },
      { title: '残差 & LayerNorm', text: '把输入加回来（残差连接），再对每一行做归一化；这里的 dropout 让训练更稳定。' },
      { title: '前馈网络', text: '两层线性变换夹一个非线性，对每个位置单独计算。' },
      { title: '残差 & LayerNorm', text: '再做一次残差与归一化；这样的块会堆叠很多层。' },
    ],
    modelAttention: { title: '多头注意力', text: '本演练器：每个字符从它前面的字符那里汇集信息。' },
    computedHere: '已计算：打开这一阶段',
    exactCaption: '展开全部项与完整精度', shortCaption: '简写',
    gradientTitle: (label) => `梯度 ∂L/∂${label}：每个数值变动时，损失如何变动`,
    gradientExplain: (loss) => `这句话的损失（${loss}）的反向传播，由内核计算：格子为正，表示增大该值会增大损失，所以训练会把它调小。`,
    gradientExplainUpstream: '这个注意力之后计算的某个损失的反向传播，由内核计算：它在这个注意力输出处的梯度是给定的（upstream），再从那里流过每一个阶段。格子为正，表示增大该值会增大那个损失。',
    gradientExplainModel: (loss) => `模型在这段文字上预测下一个字的损失（每字 ${loss} 奈特）的反向传播，由内核计算：上面的各层把梯度送回这个注意力的输出，再从那里流过每一个阶段。格子为正，表示增大该值会增大损失，所以训练会把它调小。`,
    gradientHover: '悬停或聚焦一个梯度格子，查看带有前向与反向两遍数值的链式法则。',
    gradientTap: '轻点一个梯度格子，查看带有前向与反向两遍数值的链式法则。',
    gradientCell: '悬停或聚焦某个格子，查看它的链式法则。', gradientCellTap: '轻点某个格子，查看它的链式法则。',
    crossInputs: '交叉注意力：这些行只提供查询（Query）；键和值来自源序列（memory）。',
    oneHead: '只有一个头时，这个上下文就是结果：合并多头（concat）只会原样复制它。',
    noProjection: (m, from, wName, one) => `这里 ${m} = ${from}：本例没有 ${wName}${one ? '，而且只有一个头，不做切分' : ''}。`,
    notSplit: (m) => `这里只有一个头：${m} 不切分，保留全部列。`,
    nextExample: (title) => `下一个例子：${title}`, pePosition: '位置', peValue: '数值',
    timeline: '阶段时间轴', example: '示例', variant: '变体', head: '头',
    edit: '编辑', editTitle: '编辑数字', reset: '恢复为示例',
    useWeight: (name) => `使用 ${name}`,
    choices: {
      dot: '点积', scaled_dot: '缩放点积', additive: '加性（Bahdanau）', bilinear: '双线性（Luong）',
      none: '无', causal: '因果', window: '窗口', matrix: '自定义矩阵', sinusoidal: '正弦', learned: '可学习的表', rotary: '旋转（RoPE）',
    },
    queryTokens: '查询的 token', keyTokens: '键的 token', inputs: '输入与权重',
    embeddings: '输入向量是怎样构造的', sinusoid: '前几列位置编码随位置变化的曲线',
    tokensAreLabels: '这里的 token 只是手工构造向量的标签：改名不会改变任何数字，只有向量本身会。想看一个从真实文本学到的模型如何对你输入的文字做注意力：',
    realModel: '真实模型', loading: '正在加载 WebAssembly 内核…', custom: '你的数字',
    hover: '将鼠标悬停或聚焦到格子上，查看它的计算过程。', tap: '轻点一个格子，查看它的计算过程。',
    measure: '测量', measuring: '测量中…', cancel: '取消', measureCancelled: '已取消测量。',
    complexityTitle: '在本页实时测量：随 n 增长的时间与内存',
    pathsTitle: '两种计算方式，直到 n = 16384：保留每个阶段，或流式计算',
    pathsHint: '保留每一个 n × n 阶段，本页才能把它们展示出来；流式内核每次只处理一块键（见“在线 softmax”示例），一个也不保留。最大的规模每次运行约需一秒。',
    pathsMeasure: '测量两种方式',
    pathsTraceTime: '保留每个阶段：时间（毫秒）', pathsTraceMemory: '保留每个阶段：内存（MiB）',
    pathsStreamTime: '流式内核：时间（毫秒）', pathsStreamMemory: '流式内核：内存（MiB）',
    pathsProjection: '····· 保留每个阶段的内存，按 n² 外推',
    pathsText: (time, mem, traceMem, n, gib, mib) => `流式内核：时间 ∝ n^${time}，内存 ∝ n^${mem}（n ≥ 1024，取 3 次运行的中位数）。保留每个阶段时，内存按 n^${traceMem} 增长：n = ${n} 时约需 ${gib} GiB，超过本页计算模块可寻址的 4 GiB，因此止步于它的上限；流式内核在那里只需 ${mib} MiB。`,
    computeTime: '注意力本身，内核计算（毫秒）', callTime: '整个调用，含复制各阶段（毫秒）', memory: '保留各阶段的内存（MiB）',
    positions: 'n（位置数）', reference: '····· c·n²，按计算时间拟合',
    fitText: (from, compute, call, memory, callFaster) => `在 n ≥ ${from} 上拟合（每个规模取 7 次运行的中位数）：注意力本身的时间 ∝ n^${compute}，内存 ∝ n^${memory}。整个调用按 n^${call} 增长：${callFaster
      ? '这里比注意力本身增长得更快。除了注意力，它还要把每个 n × n 阶段从内核里复制出来，而这几毫秒很容易被繁忙的机器拉长：再测一次，看它稳定下来。'
      : '它还要把数字以文本形式复制出来，这部分只随 n 线性增长，在 n 较小时占主导。'}`,
    timeAxis: '时间（毫秒）', memoryAxis: '内存（MiB）',
    stageOf: (i, n) => `第 ${i} / ${n} 阶段`, lastGood: '图中显示的是上一组有效的数字。',
    linkRefused: '链接中的数字无法显示，这里改为显示一个示例。',
    truncated: (r, c) => `只显示前 ${r} × ${c} 个格子`,
    ignored: (list) => `以下设置本页无法识别，已忽略：${list.join('，')}。`,
    workerLost: '本页负责计算的后台线程停止了（被关闭或崩溃）。图中显示的是最后一组数字；下一次单步或编辑会重新启动它。',
    emptyRows: (rows) => `查询行 ${rows.join('、')} 看不到任何键：softmax 结果是均匀分布（与第一篇文章的代码一致）。`,
    pasteHint: (r, c) => `${r} × ${c} 个数值，逐格编辑不便。请在此粘贴各行：CSV（每行一行）或 JSON（[[…], …]），然后离开输入框。`,
  },
};

/** 'en' or 'zh': an explicit choice first (attribute or URL), then the page's language if it is en or zh, then the browser's. */
export function pickLanguage(requested, pageLang) {
  if (requested === 'en' || requested === 'zh') return requested;
  // the page's language (a Chinese post: <html lang="zh-CN">) when it is one of ours
  const page = /^(zh|en)\b/i.exec(pageLang ?? '');
  if (page) return page[1].toLowerCase();
  const langs = typeof navigator === 'undefined' ? [] : navigator.languages ?? [navigator.language];
  return langs.some((l) => /^zh\b/i.test(l ?? '')) ? 'zh' : 'en';
}

/** The UI words of one language. */
export function wordsFor(lang) {
  return words[lang] ?? words.en;
}

/** A {en, zh} text in the chosen language. */
export function pick(text, lang) {
  if (!text) return '';
  return text[lang] ?? text.en ?? '';
}

/** A stage's title in the chosen language. */
export function stageTitle(stage, lang) {
  return lang === 'zh' ? stage.title_zh : stage.title;
}
