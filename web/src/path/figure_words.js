// The words drawn inside the path's own figures (panel titles, chart axes, the comparison table), in
// English and Chinese. The sections' prose is in words.js.
export const FIGURE_WORDS = {
  en: {
    panels: {
      fixed_c: 'One fixed c (the same row for every word)', attention_c: 'Attention: c_i for each word',
      soft: 'Soft lookup: weights spread over keys', hard: 'Hard lookup: the same scores ×20',
      dot: 'dot sᵀh', scaled_dot: 'scaled dot sᵀh/√d', additive: 'additive vᵀtanh(W₁s + W₂h)', bilinear: 'bilinear sᵀWh',
      one_head: 'One head', two_heads: 'Two heads',
      no_pe: 'No positional encoding', sinusoidal: 'Sinusoidal positional encoding',
      qa: 'A question and a summary over the sentence',
      window_10: 'The whole chat (window 10)', window_4: 'A window of 4 tokens',
      full: 'Full attention', sparse: 'Sparse attention (window 2)',
    },
    head: 'head', scale: 'one colour scale for all panels',
    computed: (used, all) => `${used} of ${all} scores used`,
    rnn: {
      title: 'How much each word still moves the last state',
      rnn: 'RNN: ‖∂h_T/∂x_t‖', attention: 'Attention: ‖∂c_T/∂x_t‖',
      steps: (n) => `Sequential steps for ${n} words: RNN ${n}, attention 1.`,
    },
    sqrtdk: {
      max_weight: 'Largest softmax weight', grad_norm: 'Size of softmax’s gradient ‖∂α/∂s‖',
      unscaled: 'q·k (unscaled)', scaled: 'q·k / √d_k (scaled)', x: 'd_k',
    },
    table: {
      article: 'The first article’s table', feature: 'Property', measured: 'Measured by the core as n grows',
      rows: [
        ['Receptive field', 'local (stacks to global)', 'global (recurrent)', 'global (direct)'],
        ['Parallelism', 'high', 'low', 'high'],
        ['Long-range dependency', 'medium', 'poor', 'good'],
        ['Complexity', 'O(n)', 'O(n)', 'O(n²)'],
        ['Position information', 'implicit', 'implicit', 'needs explicit encoding'],
      ],
      metrics: { path_length: 'Path first → last word', sequential_steps: 'Sequential steps', multiply_adds: 'Multiply-adds per layer', memory_floats: 'Largest intermediate (floats)', microseconds: 'Measured time (µs)' },
      n: 'n =',
    },
    model: { open: 'Open this sentence in model mode' },
    timeline: { see: 'See it:' },
  },
  zh: {
    panels: {
      fixed_c: '一个固定的 c（每个词都用同一行）', attention_c: '注意力：每个词各有自己的 c_i',
      soft: '软寻址：权重分散在各个 Key 上', hard: '硬寻址：同样的分数放大 20 倍',
      dot: '点积 sᵀh', scaled_dot: '缩放点积 sᵀh/√d', additive: '加性 vᵀtanh(W₁s + W₂h)', bilinear: '双线性 sᵀWh',
      one_head: '一个头', two_heads: '两个头',
      no_pe: '不加位置编码', sinusoidal: '正弦位置编码',
      qa: '一个问题和一个摘要查询，看同一句话',
      window_10: '整段对话（窗口 10）', window_4: '窗口只有 4 个 token',
      full: '完整注意力', sparse: '稀疏注意力（窗口 2）',
    },
    head: '头', scale: '所有小图共用一个颜色刻度',
    computed: (used, all) => `用到 ${all} 个分数中的 ${used} 个`,
    rnn: {
      title: '每个词对最后状态还有多大影响',
      rnn: 'RNN：‖∂h_T/∂x_t‖', attention: '注意力：‖∂c_T/∂x_t‖',
      steps: (n) => `${n} 个词需要的串行步数：RNN ${n} 步，注意力 1 步。`,
    },
    sqrtdk: {
      max_weight: 'softmax 的最大权重', grad_norm: 'softmax 梯度的大小 ‖∂α/∂s‖',
      unscaled: 'q·k（不缩放）', scaled: 'q·k / √d_k（缩放）', x: 'd_k',
    },
    table: {
      article: '第一篇文章里的表格', feature: '特性', measured: '核心随 n 增长实际测得',
      rows: [
        ['感受野', '局部（可叠加为全局）', '全局（递归）', '全局（直接）'],
        ['并行性', '高', '低', '高'],
        ['长依赖', '中等', '差', '好'],
        ['计算复杂度', 'O(n)', 'O(n)', 'O(n²)'],
        ['位置信息', '隐式', '隐式', '需要显式编码'],
      ],
      metrics: { path_length: '首词到末词的路径长度', sequential_steps: '串行步数', multiply_adds: '每层乘加次数', memory_floats: '最大中间结果（浮点数个数）', microseconds: '实测时间（微秒）' },
      n: 'n =',
    },
    model: { open: '在模型模式中打开这句话' },
    timeline: { see: '看图：' },
  },
};
