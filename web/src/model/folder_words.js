// Every text the view of a model you bring shows, in English and 中文 (no English left in zh mode).
const words = {
  en: {
    open: 'Open a model…', openHint: 'A Hugging Face folder of GPT-2, Llama (Llama 3, SmolLM2, TinyLlama) or Qwen2: config.json, model.safetensors (or its shards) and tokenizer.json. Choose the folder or drop its files here; it stays on your computer and runs in this page.',
    title: 'A model you bring', back: '← Our character models',
    reading: (mb, total) => (total ? `Reading the model: ${mb} of ${total} MB…` : `Reading the model: ${mb} MB…`), cancel: 'Cancel', cancelled: 'Cancelled: no model was opened.',
    failed: (why) => `The model could not be opened: ${why}`,
    served: 'Opening a model needs this page served over http (bash scripts/serve.sh), not opened as a file.',
    about: (a, mb, ms) => `${a.architecture} · ${a.n_layer} layers · ${a.n_head} heads${a.n_kv_head < a.n_head ? ` sharing ${a.n_kv_head} key/value heads` : ''} · d ${a.d_model} · vocabulary ${a.n_vocab} · ${a.dtype} weights, ${mb} MB · opened in ${ms} s`,
    text: 'Your text', tokens: (n) => `${n} tokens, as the model's tokenizer splits your text (a character split into byte pieces shows as 锅(1/2)):`,
    layer: 'Layer', global: 'Before and after the layers', stage: 'Stage', head: 'Head', kvHead: (g, heads) => `key/value head ${g} (used by query heads ${heads})`,
    axes: (tokenRows, rows, keyCols, cols) => `Rows: ${tokenRows ? `the ${tokenRows} tokens, in order` : `${rows}`} · columns: ${keyCols ? `the keys, one per token (a key after its query is masked)` : `${cols} numbers`}.`,
    hover: 'Hover a cell to read its value.', tap: 'Tap a cell to read its value.', figure: 'The stage, scrollable', cell: (row, col, v) => `row ${row}, column ${col}: ${v}`,
    next: 'The next token', nextHint: 'The model\'s probabilities for the token after your text.',
    generate: (n) => `Generate ${n} tokens`, temperature: 'Temperature', seed: 'Seed',
    cacheTitle: 'The key/value cache, one step', cacheButton: 'Run the last token through the cache',
    cache: (l, n, g, dh) => `Layer ${l}: the cache holds the keys and values of all ${n} tokens (${g} key/value heads × ${dh} numbers each); the last token's query adds one row, its own key and value, and attends over the cache: the row below.`,
    empty: 'Type some text: the model reads it as you type.',
  },
  zh: {
    open: '打开一个模型…', openHint: 'Hugging Face 格式的 GPT-2、Llama（Llama 3、SmolLM2、TinyLlama）或 Qwen2 文件夹：config.json、model.safetensors（或分片）和 tokenizer.json。选择文件夹，或把文件拖到这里；文件留在你的电脑上，在本页中运行。',
    title: '你带来的模型', back: '← 我们的字符模型',
    reading: (mb, total) => (total ? `正在读取模型：${mb} / ${total} MB…` : `正在读取模型：${mb} MB…`), cancel: '取消', cancelled: '已取消：没有打开模型。',
    failed: (why) => `无法打开这个模型：${why}`,
    served: '打开模型需要通过 http 访问本页（bash scripts/serve.sh），而不是直接打开文件。',
    about: (a, mb, ms) => `${a.architecture} · ${a.n_layer} 层 · ${a.n_head} 个头${a.n_kv_head < a.n_head ? `，共享 ${a.n_kv_head} 个键/值头` : ''} · d ${a.d_model} · 词表 ${a.n_vocab} · ${a.dtype} 权重，${mb} MB · 用时 ${ms} 秒打开`,
    text: '你的文字', tokens: (n) => `${n} 个 token，按模型的分词器切分（被切成字节片段的字显示为 锅(1/2)）：`,
    layer: '层', global: '各层之前和之后', stage: '阶段', head: '头', kvHead: (g, heads) => `键/值头 ${g}（查询头 ${heads} 共用）`,
    axes: (tokenRows, rows, keyCols, cols) => `行：${tokenRows ? `${tokenRows} 个 token，按顺序` : `${rows}`} · 列：${keyCols ? '键，每个 token 一个（在查询之后的键被遮住）' : `${cols} 个数`}。`,
    hover: '把鼠标移到格子上，查看它的数值。', tap: '点一下格子，查看它的数值。', figure: '这一阶段的数值（可滚动）', cell: (row, col, v) => `第 ${row} 行，第 ${col} 列：${v}`,
    next: '下一个 token', nextHint: '模型对你的文字之后那个 token 给出的概率。',
    generate: (n) => `生成 ${n} 个 token`, temperature: '温度', seed: '随机种子',
    cacheTitle: '键值缓存，一步', cacheButton: '让最后一个 token 经过缓存',
    cache: (l, n, g, dh) => `第 ${l} 层：缓存保存着全部 ${n} 个 token 的键和值（${g} 个键/值头 × 每个 ${dh} 个数）；最后一个 token 的查询只新增一行——它自己的键和值——并在缓存上计算注意力：即下面这一行。`,
    empty: '输入一些文字：模型会边输入边读。',
  },
};

export const folderWords = (lang) => words[lang === 'zh' ? 'zh' : 'en'];
