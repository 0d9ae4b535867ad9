// The guided path's words (site/index.html): every section's title, text, figure caption and question, in
// English and Chinese. The figures' numbers are not here: the page reads them from the core.
export const PATH_WORDS = {
  ui: {
    en: {
      title: 'Follow the articles: attention, one idea at a time',
      intro: 'This page walks through both articles one idea at a time, each idea with a figure you can explore, and some with a question to guess first. Every number in the figures is computed live in your browser, not copied from a table.',
      contents: 'Contents',
      next: 'Next',
      previous: 'Previous',
      start: 'Start here',
      answer: 'Check',
      your_answer: 'Your answer',
      right: 'Right.',
      not_quite: 'Not quite.',
      predict: 'Predict first:',
      open_playground: 'Open this in the playground',
      embed: 'Embed this figure',
      copied: 'Embed code copied.',
      computing: 'Computing…',
      progress: 'Section {i} of {n}',
      lines_tap_hint: 'Tap a word to keep only its lines and read their weights.',
      lines_hover_hint: 'Hover over a word, or tap it, to keep only its lines and read their weights.',
      unveil: 'Guess first — or show the figure now',
      you_picked: 'You picked “{picked}”; the figure says “{right}”.',
      head_row: 'row “{query}”: head 1 → “{one}”, head 2 → “{other}”',
      language: '中文',
      end: 'That is the whole path. Now change the numbers yourself: open any figure in the playground and edit its inputs, watch a small trained model read your own text in model mode, or train attention step by step in the training lessons.',
      places: { playground: 'The playground', model: 'Model mode', lessons: 'Training lessons' },
    },
    zh: {
      title: '跟着文章走：一步一步看懂注意力',
      intro: '这一页沿着两篇文章，一次讲一个概念，每个概念配一张可以动手的图，有些还要你先猜一猜。图里的每个数字都是在你的浏览器里实时算出来的，不是事先抄好的。',
      contents: '目录',
      next: '下一步',
      previous: '上一步',
      start: '从这里开始',
      answer: '揭晓',
      your_answer: '你的答案',
      right: '答对了。',
      not_quite: '不对哦。',
      predict: '先猜一猜：',
      open_playground: '在演练场中打开',
      embed: '嵌入这张图',
      copied: '嵌入代码已复制。',
      computing: '计算中…',
      progress: '第 {i} 节，共 {n} 节',
      lines_tap_hint: '点一下某个词，只留下它的连线，并读出权重。',
      lines_hover_hint: '把指针移到某个词上（或点一下），只留下它的连线，并读出权重。',
      unveil: '先猜一猜，或者直接看图',
      you_picked: '你选的是“{picked}”，图里的答案是“{right}”。',
      head_row: '“{query}”这一行：头 1 → {one}，头 2 → {other}',
      language: 'English',
      end: '整条路就走完了。接下来自己动手改数字吧：在演练场里打开任意一张图、修改输入；到模型模式里看一个训练过的小模型读你写的文字；或者在训练课程里一步一步把注意力训练出来。',
      places: { playground: '演练场', model: '模型模式', lessons: '训练课程' },
    },
  },

  sections: {
    'rnn-limits': {
      title: { en: 'Why attention: what an RNN forgets', zh: '为什么需要注意力：RNN 的局限' },
      text: {
        en: [
          'An RNN reads a sentence one word at a time and squeezes everything so far into one hidden state. The first article lists four problems with that: long-term dependencies are hard to capture; the computation is serial, so it cannot run in parallel; a fixed-size state is an information bottleneck; and every input is weighted equally.',
          'The second article’s example: in “The cat that chased the mouse was tired”, what decides the form of “was” is “cat” at the start, not “mouse” right next to it. For the RNN, “cat” is five steps back, and what it left fades a little at every step.',
          'The key point: elements at different positions matter differently for the current prediction. Attention lets each word reach every other word directly, in one step, and weigh them.',
        ],
        zh: [
          'RNN 一个词一个词地读句子，把读过的内容都压进一个隐状态。第一篇文章列出了它的四个问题：长期依赖难以捕捉；串行计算，无法并行，训练慢；固定长度的隐状态形成信息瓶颈；所有输入被等权重对待。',
          '第二篇文章举了个例子：在 The cat that chased the mouse was tired 中，决定 was 单复数的是句首的 cat，而不是紧挨着它的 mouse。对 RNN 来说，cat 在五步之外，每传一步，它留下的痕迹就淡一点。',
          '关键在于：序列中不同位置的元素，对当前预测的重要性是不同的。注意力让每个词一步就能直达其他任何词，再按重要性分配权重。',
        ],
      },
      caption: {
        en: 'The chart “RNN” shows how much each word still moves the RNN’s last state (‖∂h_T/∂x_t‖): the further back, the less. The chart “Attention” measures the same for attention’s output: the bars stay level, because every word is one step away (the last word’s bar is taller: it is also the query).',
        zh: '“RNN”那张图表示每个词对 RNN 最后状态还有多大影响（‖∂h_T/∂x_t‖）：越靠前，影响越小。“注意力”那张图对注意力的输出做同样的测量：柱子高度持平，因为每个词都只隔一步（最后一个词的柱子更高，因为它同时也是 Query）。',
      },
      question: {
        prompt: { en: 'In the RNN, which word has the least influence on its last state?', zh: '在 RNN 里，哪个词对最后状态的影响最小？' },
        choices: {
          first: { en: '“The”, the first word', zh: '第一个词 The' },
          middle: { en: '“mouse”, in the middle', zh: '中间的 mouse' },
          last: { en: '“tired”, the last word', zh: '最后一个词 tired' },
        },
        why: {
          en: 'The first word’s influence is only {value} times the last word’s: its signal passes through the weights and the tanh once more at every step, and shrinks a little each time.',
          zh: '第一个词的影响只有最后一个词的 {value} 倍：它的信号每往后传一步，都要再乘一次权重、再过一次激活函数，每次都缩小一点。',
        },
      },
    },

    'encoder-decoder': {
      title: { en: 'Encoder–decoder: one fixed c for every word', zh: '编码器-解码器：所有词共用一个固定的 c' },
      text: {
        en: [
          'The standard encoder–decoder (proposed in 2014) reads the source with an encoder, h_t = f(x_t, h_{t−1}), sums it all up in one context vector c = q(h_1, …, h_T), and lets the decoder write y_t = g(c, y_1, …, y_{t−1}).',
          'The problem, as the first article puts it: every y_i depends on the same fixed c, with the same weights. Translating 猫 and translating 垫子 both start from one summary of the whole sentence.',
          'In this figure and the ones after it, each word is a short vector of hand-made numbers, one per meaning (animal, sitting, furniture…): the dimensions are named over the figure’s columns. Real models learn hundreds of such numbers; a few made by hand let you read every cell.',
        ],
        zh: [
          '标准的编码器-解码器框架（2014 年提出）先用编码器读源句子：h_t = f(x_t, h_{t−1})；再把它压成一个上下文向量 c = q(h_1, …, h_T)；解码器据此逐词生成：y_t = g(c, y_1, …, y_{t−1})。',
          '问题在于：所有 y_i 都依赖同一个固定的 c，权重相同。翻译“猫”和翻译“垫子”，用的是同一份对整句话的概括。',
          '这张图和后面的图里，每个词都是一小串手工设定的数字，每个数字代表一种含义（动物、坐、家具……），维度的名字写在图的列上。真实模型会学出成百上千个这样的数字；手工设定几个，每个格子你都能读懂。',
        ],
      },
      caption: {
        en: 'In the panel “One fixed c”, every target word gets the same row, the plain average of the source words; in “Attention: c_i for each word”, each word gets its own row. Both panels share one colour scale.',
        zh: '在“一个固定的 c”这张图里，每个目标词拿到同一行，即所有源词的平均；在“注意力：每个词各有自己的 c_i”这张图里，每个词各不相同。两张图共用一个颜色刻度。',
      },
    },

    'core-idea': {
      title: { en: 'The core idea: a different context for every output', zh: '核心思想：动态语义编码' },
      text: {
        en: [
          'Attention’s key innovation (Bahdanau et al., 2015) is to let each output attend to different parts of the input. The first article calls it dynamic semantic encoding: instead of one c, each output word y_i gets its own c_i = Σ_j α_ij·h_j.',
          'α_ij is the attention weight: how much the model attends to source state h_j while producing y_i. The weights of a row are positive and add up to 1, so c_i is a weighted average of the source states.',
          'When 猫 is written, most of the weight sits on “cat”; when 垫子 is written, on “mat”.',
        ],
        zh: [
          '注意力的关键创新（Bahdanau 等，2015）是让每个输出关注输入的不同部分，第一篇文章称之为动态语义编码：不再只有一个 c，每个输出词 y_i 都有自己的 c_i = Σ_j α_ij·h_j。',
          'α_ij 是注意力权重，表示生成 y_i 时对 h_j 的关注程度。同一行的权重都是正数，加起来等于 1，所以 c_i 就是各个源状态的加权平均。',
          '写“猫”时，权重大多落在 cat 上；写“垫子”时，落在 mat 上。',
        ],
      },
      caption: {
        en: 'Each row is one c_i: the source rows mixed by that word’s weights. Every cell is a sum of weight × value: hover over it or tap it to see the sum.',
        zh: '每一行是一个 c_i：按这个词的权重把源词的各行混合起来。每个格子都是“权重 × 值”的求和，把鼠标移上去或点一下，就能看到算式。',
      },
    },

    'qkv-retrieval': {
      title: { en: 'Query, Key, Value: a soft lookup', zh: 'Query、Key、Value：软寻址' },
      text: {
        en: [
          'The second article compares attention to a search engine: the words you type are the Query, page titles and tags are the Keys, the page text is the Value. The engine scores the Query against every Key, then returns content by relevance.',
          'The first article calls this soft addressing: treat the source as a memory where each Key is an address and each Value its content. In short, the Query asks “what do I want?”, the Key says “what am I?”, the Value says “what do I have?”.',
          'A dictionary lookup is hard: one key matches, the rest are ignored. Attention blends all Values by weight, and every weight changes smoothly with the inputs, so the lookup is differentiable and can be learned.',
        ],
        zh: [
          '第二篇文章把注意力比作搜索引擎：你输入的关键词是 Query，网页标题和标签是 Key，网页正文是 Value。搜索引擎先算 Query 和每个 Key 的相关性，再按相关程度返回内容。',
          '第一篇文章称之为软寻址：把源序列看作一块存储器，Key 是地址，Value 是内容。一句话概括：Query 问“我要什么？”，Key 答“我是什么？”，Value 答“我有什么？”。',
          '查字典是硬寻址：只命中一个键，其余一概不管。注意力则按权重把所有 Value 混在一起；每个权重都随输入平滑变化，所以整个检索过程可微分，能靠训练学出来。',
        ],
      },
      caption: {
        en: 'In “Soft lookup”, each row spreads its weight over several keys. In “Hard lookup”, the same scores are made 20× sharper: almost one key per row, like looking a word up in a dictionary.',
        zh: '“软寻址”图中，每一行的权重分散在几个 Key 上；“硬寻址”图把同样的分数放大 20 倍：每行几乎只剩一个 Key，就像查字典。',
      },
    },

    'score-functions': {
      title: { en: 'Step 1: scoring each key', zh: '第 1 步：计算相似度分数' },
      text: {
        en: [
          'Step 1 in the first article: a score e_ij = a(s_{i−1}, h_j) says how well the decoder state s matches the source state h_j. Four common choices: dot sᵀh, scaled dot sᵀh/√d, additive vᵀtanh(W₁s + W₂h) (Bahdanau), and bilinear sᵀWh.',
          'Dot and scaled dot have nothing to learn; additive and bilinear bring their own learned weights. Same inputs, four ways to compare them, four sets of weights.',
        ],
        zh: [
          '第一篇文章的第 1 步：用分数 e_ij = a(s_{i−1}, h_j) 衡量解码器状态 s 和源状态 h_j 有多匹配。常用的有四种：点积 sᵀh、缩放点积 sᵀh/√d、加性 vᵀtanh(W₁s + W₂h)（Bahdanau）、双线性 sᵀWh。',
          '点积和缩放点积没有要学的参数；加性和双线性各带一组可学习的权重。输入相同，比较方式不同，得到的权重也不同。',
        ],
      },
      caption: {
        en: 'The same two decoder states and four source states, scored four ways. Drawn here are the weights each scoring gives after softmax (step 2), so the four compare on one colour scale: look at the same row in every panel.',
        zh: '同样的两个解码器状态、四个源状态，用四种方式打分。图中画的是各种打分经过 softmax（第 2 步）之后的权重，这样四者可以共用一个颜色刻度：看各图的同一行。',
      },
      question: {
        prompt: {
          en: 'Scaled dot divides the dot scores by √d. Will its largest weight in row 1 be larger or smaller than dot’s?',
          zh: '缩放点积把点积分数除以 √d。它在第 1 行的最大权重，会比点积的大还是小？',
        },
        choices: {
          larger: { en: 'Larger', zh: '更大' },
          smaller: { en: 'Smaller', zh: '更小' },
          same: { en: 'The same', zh: '一样大' },
        },
        why: {
          en: 'Scaled dot’s largest weight in row 1 is {value}, below dot’s {other}: dividing by √d shrinks the gaps between the scores, and softmax turns smaller gaps into flatter weights.',
          zh: '缩放点积在第 1 行的最大权重是 {value}，比点积的 {other} 小：除以 √d 缩小了分数之间的差距，差距越小，softmax 给出的权重就越平均。',
        },
      },
    },

    softmax: {
      title: { en: 'Step 2: softmax turns scores into weights', zh: '第 2 步：softmax 归一化' },
      text: {
        en: [
          'Step 2: α_ij = exp(e_ij) / Σ_k exp(e_ik). The exponential makes every weight positive and widens the gaps between scores; dividing by the sum makes each row add up to 1.',
          'The second article’s numpy code first subtracts the row’s maximum. The result does not change (it cancels out in the fraction), but exp can no longer overflow. The second article also notes that softmax decides whom the model attends to and whom it ignores, which is where attention’s interpretability comes from.',
        ],
        zh: [
          '第 2 步：α_ij = exp(e_ij) / Σ_k exp(e_ik)。取指数让每个权重都是正数，也拉大了分数之间的差距；再除以总和，让每一行加起来等于 1。',
          '第二篇文章的 numpy 代码先减去这一行的最大值：分子分母同时约掉，结果不变，却能防止指数溢出。第二篇文章还说，softmax 决定了模型关注谁、忽略谁，这也是注意力可解释性的来源。',
        ],
      },
      caption: {
        en: 'One row, four sub-steps: subtract the row’s maximum, take exp, sum, divide. Step through them and watch the row become weights that add up to 1.',
        zh: '同一行的四个小步骤：减去行最大值、取指数、求和、相除。一步步看这一行怎样变成加起来等于 1 的权重。',
      },
    },

    'weighted-sum': {
      title: { en: 'Step 3: the weighted sum', zh: '第 3 步：加权求和' },
      text: {
        en: [
          'Step 3: the output is the Value rows mixed by the weights, c = α·V. Each output row is its own blend: a Value with weight 0.5 contributes half of itself, one with weight 0.1 a tenth.',
          'Put together, the three steps are the formula both articles give: Attention(Q, K, V) = softmax(QKᵀ/√d_k)·V.',
        ],
        zh: [
          '第 3 步：用权重把 Value 的各行混合起来，c = α·V。每一行输出都有自己的配方：权重 0.5 的 Value 贡献它的一半，权重 0.1 的贡献十分之一。',
          '三步合在一起，就是两篇文章都给出的公式：Attention(Q, K, V) = softmax(QKᵀ/√d_k)·V。',
        ],
      },
      caption: {
        en: 'One output row, built from the Value rows: each Value row scaled by its weight, then all of them added.',
        zh: '一行输出由 Value 的各行拼成：每一行先乘上自己的权重，再全部相加。',
      },
    },

    'numpy-example': {
      title: { en: 'The second article’s numpy example', zh: '第二篇文章的 numpy 例子' },
      text: {
        en: [
          'The second article’s smallest example: three tokens of four dimensions each, with Q = K = V = X (no projection matrices, to keep it minimal): token_1 = [1, 0, 1, 0], token_2 = [0, 1, 0, 1], token_3 = [1, 1, 0, 0].',
          'The scores are dot products divided by √4 = 2, then each row goes through softmax, then the weighted sum. The article prints its weights; here they are computed again, so you can compare them digit by digit.',
        ],
        zh: [
          '第二篇文章最小的例子：三个 token，每个 4 维，Q = K = V = X（为了演示，不用投影矩阵）：token_1 = [1, 0, 1, 0]，token_2 = [0, 1, 0, 1]，token_3 = [1, 1, 0, 0]。',
          '分数是点积除以 √4 = 2，每一行做 softmax，再加权求和。文章印出了权重；这里是现场重新算的，你可以一位一位地对照。',
        ],
      },
      caption: {
        en: 'The weights of the article’s example: row i is how token i spreads its attention. Compare row 1 with the article’s printout.',
        zh: '文章例子的权重：第 i 行是 token i 的注意力分布。把第 1 行和文章打印的结果对照一下。',
      },
      question: {
        prompt: { en: 'What weight does token 1 give to itself (row 1, column 1)?', zh: 'token 1 给自己的权重（第 1 行第 1 列）是多少？' },
        choices: {
          a: { en: 'about 0.33', zh: '约 0.33' },
          b: { en: 'about 0.51', zh: '约 0.51' },
          c: { en: 'about 0.80', zh: '约 0.80' },
        },
        why: {
          en: 'It is {value}; the article prints 0.5065. Token 1 scores 2 with itself, 0 with token 2 and 1 with token 3; halved, that is 1, 0 and 0.5, and softmax gives it about half. It matches itself best, but not by enough to take everything.',
          zh: '是 {value}，文章打印的是 0.5065。token 1 与自己的点积是 2，与 token 2 是 0，与 token 3 是 1；除以 2 后是 1、0、0.5，softmax 之后它分到大约一半。它和自己最匹配，但还没有强到独占全部权重。',
        },
      },
    },

    'why-sqrt-dk': {
      title: { en: 'Why divide by √d_k', zh: '为什么要除以 √d_k' },
      text: {
        en: [
          'The second article explains the scaling: d_k is the size of the Key vectors. When d_k is large, dot products can become very large, softmax tends towards a one-hot distribution, and its gradient becomes tiny, which is bad for training.',
          'Why they grow: a dot product adds up d_k products. If the components of q and k are random with variance 1, q·k has variance d_k. Dividing by √d_k brings it back to variance 1, whatever d_k is, and keeps softmax in its gentle range.',
        ],
        zh: [
          '第二篇文章这样解释缩放：d_k 是 Key 向量的维度。维度大时，点积的数值可能非常大，softmax 会趋向于一个位置接近 1、其余接近 0 的分布，梯度变得很小，不利于训练。',
          '为什么会变大？点积是 d_k 个乘积相加。如果 q 和 k 的各个分量是方差为 1 的随机数，q·k 的方差就是 d_k。除以 √d_k 后方差回到 1，不管 d_k 多大，softmax 都留在平缓区间。',
        ],
      },
      caption: {
        en: 'Random q and k, 16 keys, 200 draws for each d_k from 4 to 512: the largest weight and the size of softmax’s gradient, unscaled and scaled.',
        zh: '随机的 q 和 k，16 个 Key，d_k 从 4 到 512，每种维度抽 200 次：不缩放和缩放时的最大权重，以及 softmax 梯度的大小。',
      },
      question: {
        prompt: { en: 'With d_k = 64, after dividing by √d_k, does the largest weight go up or down?', zh: 'd_k = 64 时，除以 √d_k 之后，最大权重会变大还是变小？' },
        choices: {
          up: { en: 'Up', zh: '变大' },
          down: { en: 'Down', zh: '变小' },
          same: { en: 'It stays the same', zh: '不变' },
        },
        why: {
          en: 'At d_k = 64, dividing by √64 = 8 brings the largest weight down to {value}; unscaled, it is {other}. Smaller gaps between the scores mean softmax no longer piles almost everything on one key, and its gradient stays usable.',
          zh: 'd_k = 64 时，除以 √64 = 8 之后，最大权重降到 {value}；不缩放时是 {other}。分数之间的差距缩小了，softmax 不再把几乎全部权重压在一个 Key 上，梯度也不会小到学不动。',
        },
      },
    },

    'self-attention': {
      title: { en: 'Self-attention: a sentence looks at itself', zh: '自注意力：句子看向自己' },
      text: {
        en: [
          'In self-attention, Query, Key and Value all come from the same sequence (Q = K = V = x in the first article’s code). Each word scores every word of its own sentence, so “was” reaches “cat” directly, however many words lie between. Transformer, BERT and GPT are built on it.',
          'This is how context shapes meaning, as the second article says: 银行 next to 河 leans towards a river bank; next to 存款 and 利率, towards a bank that holds money.',
          'The word vectors here are small and hand-made (noun, main-clause subject, verb, inside the relative clause), so every weight can be read.',
        ],
        zh: [
          '自注意力的 Query、Key、Value 都来自同一个序列（第一篇文章的代码里 Q = K = V = x）。每个词都给同一句里的所有词打分，所以 was 能直接连到 cat，中间隔多少词都没关系。Transformer、BERT、GPT 都建立在它之上。',
          '第二篇文章说，上下文正是这样决定词义的：“银行”旁边是“河”，就更偏向河岸；旁边是“存款”“利率”，就更偏向金融机构。',
          '这里的词向量是手工设计的小向量（是否名词、是否主句主语、是否动词、是否在从句内），每个权重都能读懂。',
        ],
      },
      caption: {
        en: 'Each line joins a word to a word it attends to; the thicker the line, the larger the weight. Follow the lines that leave “was”.',
        zh: '每条线把一个词连到它关注的词，线越粗，权重越大。看看从 was 出发的那几条线。',
      },
      question: {
        prompt: { en: 'Which word does “was” attend to most?', zh: 'was 最关注哪个词？' },
        choices: {
          cat: { en: '“cat”', zh: 'cat' },
          mouse: { en: '“mouse”', zh: 'mouse' },
          chased: { en: '“chased”', zh: 'chased' },
        },
        why: {
          en: '“cat”, with a weight of {value}. “mouse” sits right next to “was”, but the verb looks for its subject, and attention reaches it in one step.',
          zh: '是 cat，权重 {value}。mouse 虽然紧挨着 was，但动词要找的是自己的主语，而注意力一步就能够到它。',
        },
      },
    },

    'multi-head': {
      title: { en: 'Multi-head attention: several views at once', zh: '多头注意力：从几个角度同时看' },
      text: {
        en: [
          'Multi-head attention uses several different sets of Q, K, V matrices to capture different relations (the first article). Its code does four things: split the vectors into heads, run scaled dot-product attention in each head, concatenate the results, and mix them with W_o.',
          'Why it helps: one head gives each word only one way of spreading its weight. With several, one head can follow meaning while another follows position, like looking at a sentence from several angles. In trained models, heads often end up with jobs of their own.',
          'In the figure, head 1 sees two meaning dimensions (animal, action) and head 2 two position dimensions, all hand-made.',
        ],
        zh: [
          '多头注意力使用多组不同的 Q、K、V 矩阵，捕获不同的关系（第一篇文章）。代码分四步：把向量切成几个头，每个头各做一次缩放点积注意力，把结果拼接起来，再用 W_o 混合。',
          '为什么有效？一个头对每个词只能给出一种权重分配。有了几个头，一个头可以看词义，另一个头看位置，就像从几个角度同时观察一句话。在训练好的模型里，常能看到各有分工的头。',
          '图中的头 1 只看两个词义维度（动物、动作），头 2 只看两个位置维度，都是手工设计的。',
        ],
      },
      caption: {
        en: 'The same sentence with one head and with two heads, on one colour scale: in “Two heads”, each head’s weights have their own panel.',
        zh: '同一句话用一个头和用两个头的对比，共用一个颜色刻度：在“两个头”里，每个头的权重各占一张小图。',
      },
      question: {
        prompt: { en: 'Do the two heads give their largest weight to the same word in every row?', zh: '两个头在每一行里，权重最大的都是同一个词吗？' },
        choices: {
          yes: { en: 'Yes', zh: '是' },
          no: { en: 'No', zh: '不是' },
        },
        why: {
          en: 'Rows where the two heads pick different words: {value} — {rows}. Each head compares only its own slice of the vectors (meaning for one, position for the other), so each can find a different most relevant word.',
          zh: '两个头选了不同词的行数：{value}——{rows}。每个头只比较向量中属于自己的那一段（一个看词义，一个看位置），所以各自找到的“最相关的词”可以不同。',
        },
      },
    },

    'cross-attention': {
      title: { en: 'Cross-attention: one sequence asks, another answers', zh: '交叉注意力：一个序列提问，另一个序列作答' },
      text: {
        en: [
          'In cross-attention the Query comes from one sequence, the Key and Value from another. The first article names its uses: machine translation, image captioning.',
          'In translation, the Queries are the Chinese words being written, the Keys and Values are the English source words. Each Chinese word asks the English sentence which words it needs right now.',
          'The vectors are hand-made: six meanings both languages share (animal, sitting, “on top of”, mat, the article “the”, “located at”), so the scores can be read.',
        ],
        zh: [
          '交叉注意力的 Query 来自一个序列，Key 和 Value 来自另一个序列。第一篇文章提到了它的应用：机器翻译、图像字幕生成。',
          '在翻译中，Query 是正在生成的中文词，Key 和 Value 是英文源句子里的词。每个中文词都在问英文句子：我现在需要哪几个词？',
          '这里的向量是手工设计的：六个两种语言共有的含义（动物、坐、“在……上面”、垫子、冠词 the、“位于”），所以每个分数都读得懂。',
        ],
      },
      caption: {
        en: 'The scores before softmax: rows are the Chinese target words (Queries), columns the English source words (Keys).',
        zh: 'softmax 之前的分数：行是中文目标词（Query），列是英文源词（Key）。',
      },
    },

    translation: {
      title: { en: 'Machine translation: 猫 looks at “cat”', zh: '机器翻译：“猫”看向 cat' },
      text: {
        en: [
          'The first article’s example: translating “The cat sat on the mat” into 猫坐在垫子上. Translating 猫 attends mainly to “cat”, 坐 to “sat”, 垫子 to “mat”.',
          'Here the word vectors are written by hand. A trained translation model learns such alignments on its own, with no one marking them: looking at the right source word is simply what helps it translate.',
        ],
        zh: [
          '第一篇文章的例子：把 The cat sat on the mat 翻译成“猫坐在垫子上”。翻译“猫”时主要关注 cat，翻译“坐”时主要关注 sat，翻译“垫子”时主要关注 mat。',
          '这里的词向量是手工写的。真正训练出来的翻译模型会自己学到这种对齐，不需要有人标注：看准对应的源词，本来就有助于翻译。',
        ],
      },
      caption: {
        en: 'Each Chinese word is joined to the English words it attends to; the thickest line from a word leads to the word it is translated from.',
        zh: '每个中文词都连到它关注的英文词；从一个词出发最粗的那条线，指向它所对应的英文词。',
      },
      question: {
        prompt: { en: 'Which English word will 垫子 attend to?', zh: '“垫子”会关注哪个英文词？' },
        choices: {
          cat: { en: '“cat”', zh: 'cat' },
          sat: { en: '“sat”', zh: 'sat' },
          mat: { en: '“mat”', zh: 'mat' },
          the: { en: '“the”', zh: 'the' },
        },
        why: {
          en: '“mat”, with a weight of {value}: among the English words, only “mat” shares 垫子’s “mat” dimension in the hand-made vectors.',
          zh: '是 mat，权重 {value}：在手工设计的向量里，英文词中只有 mat 和“垫子”共有“垫子”这一维。',
        },
      },
    },

    masks: {
      title: { en: 'Masks: hiding what must not be seen', zh: '掩码：挡住不该看的内容' },
      text: {
        en: [
          'The first article’s code applies an optional mask: scores.masked_fill(mask == 0, -1e9). A masked score becomes −1e9; its exponential is 0 in floating point, so softmax gives it exactly zero weight and the other weights share the whole 1.',
          'A causal mask lets each token see only itself and what came before, as in a decoder or a chat model that writes one token at a time. A padding mask hides the filler tokens that make sentences of different lengths fit into one batch.',
        ],
        zh: [
          '第一篇文章的代码里有一个可选的掩码：把被遮住的分数改成 −1e9。它的指数在浮点数里就是 0，所以 softmax 之后它的权重恰好为 0，其余权重分掉全部的 1。',
          '因果掩码让每个 token 只能看到自己和前面的内容，就像解码器或聊天模型那样，一个 token 一个 token 地往后写。填充掩码遮住为了凑齐长度而补上的填充位，让长短不一的句子能放进同一批里计算。',
        ],
      },
      caption: {
        en: 'The scores with a causal mask and with a padding mask: masked cells hold −1e9. Step on to softmax to see what they become.',
        zh: '加了因果掩码和填充掩码的分数：被遮住的格子写着 −1e9。往下走到 softmax，看看它们变成了什么。',
      },
      question: {
        prompt: { en: 'With a causal mask, what is row 1’s weight on word 3?', zh: '加上因果掩码后，第 1 行放在第 3 个词上的权重是多少？' },
        choices: {
          zero: { en: 'Zero', zh: '0' },
          third: { en: 'About a third', zh: '大约三分之一' },
          one: { en: 'One', zh: '1' },
        },
        why: {
          en: 'Exactly {value}: word 3 comes after word 1, so its score was replaced by −1e9, and e^(−1e9) is 0. Row 1 sees only itself, so its own weight is 1.',
          zh: '恰好是 {value}：第 3 个词在第 1 个词之后，它的分数被换成了 −1e9，而 e^(−1e9) 就是 0。第 1 行只能看到自己，所以它自己的权重是 1。',
        },
      },
    },

    'positional-encoding': {
      title: { en: 'Positional encoding: attention does not see order', zh: '位置编码：注意力本身不看顺序' },
      text: {
        en: [
          'Attention is position-independent: it compares vectors, not places. Shuffle the words and each word still gives the same weights to the same words. So the model has to be told the positions explicitly.',
          'The Transformer’s sinusoidal encoding adds PE(pos, 2i) = sin(pos/10000^(2i/d)) and PE(pos, 2i+1) = cos(pos/10000^(2i/d)) to each word vector. Low dimensions oscillate fast, high ones slowly, so every position gets its own pattern.',
          'The first article also shows a learned positional encoding: a table with one trained vector per position, added the same way.',
        ],
        zh: [
          '注意力是位置无关的：它比较的是向量，不是位置。把词的顺序打乱，每个词分给各个词的权重还和原来一样。所以必须显式地告诉模型位置信息。',
          'Transformer 用的正弦位置编码，给每个词向量加上 PE(pos, 2i) = sin(pos/10000^(2i/d)) 和 PE(pos, 2i+1) = cos(pos/10000^(2i/d))。低维振荡快，高维振荡慢，每个位置都有自己独特的模式。',
          '第一篇文章还给出了可学习位置编码：每个位置一行训练出来的向量，用同样的方式加上去。',
        ],
      },
      caption: {
        en: 'The same word at eight positions, without and with the sinusoidal encoding, on one colour scale. The sine and cosine curves themselves are drawn in the playground’s PE stage (the link under the figure).',
        zh: '同一个词放在八个位置上，分别不加和加上正弦位置编码，共用一个颜色刻度。位置编码的正弦、余弦曲线画在演练场的位置编码那一步里（图下方的链接）。',
      },
      question: {
        prompt: {
          en: 'Without positional encoding, do two copies of the same word get the same row of weights?',
          zh: '不加位置编码时，同一个词的两个副本会得到同样的一行权重吗？',
        },
        choices: {
          yes: { en: 'Yes', zh: '会' },
          no: { en: 'No', zh: '不会' },
        },
        why: {
          en: 'Yes: the largest difference between the two rows is {value}. The same vector in gives the same scores out; without positions, attention cannot tell the copies apart.',
          zh: '会：两行之间最大的差别是 {value}。输入的向量一样，分数就一样；没有位置信息，注意力分不清这两个副本。',
        },
      },
    },

    'cnn-rnn-attention': {
      title: { en: 'Attention vs CNN vs RNN', zh: '注意力、CNN 与 RNN 对比' },
      text: {
        en: [
          'The first article’s table compares the three on five properties. Receptive field: a CNN sees locally (stacked layers widen it to global), an RNN globally through recurrence, attention globally and directly.',
          'Parallelism: high for attention and CNN, low for the RNN, because each of its steps waits for the one before. Long-range dependency: good for attention, medium for CNN, poor for RNN.',
          'The price: attention’s complexity is O(n²) against O(n) for the other two, and it needs position information encoded explicitly. The figure measures the rows that can be measured, as n grows.',
        ],
        zh: [
          '第一篇文章的表格从五个方面比较三者。感受野：CNN 是局部的（叠加多层才变成全局），RNN 靠递归覆盖全局，注意力直接覆盖全局。',
          '并行性：注意力和 CNN 高，RNN 低，因为它每一步都要等上一步算完。长依赖：注意力好，CNN 中等，RNN 差。',
          '代价是：注意力的计算复杂度是 O(n²)，另外两者是 O(n)；位置信息也需要显式编码。图中随着 n 增长，实际测量了能测的那几项。',
        ],
      },
      caption: {
        en: 'First the article’s table, then what the core measures as n grows: path length from the first word to the last, sequential steps, multiply-adds per layer, memory, and time (time varies a little from run to run; the other rows are exact).',
        zh: '先是文章的表格，然后是随 n 增长实测的数据：首词到末词的路径长度、串行步数、每层乘加次数、内存和耗时（耗时每次运行略有不同，其余各行是精确值）。',
      },
    },

    complexity: {
      title: { en: 'The price: O(n²)', zh: '代价：O(n²)' },
      text: {
        en: [
          'Every query meets every key, so a sequence of n tokens has n² scores. The first article counts the cost: space O(n²), time O(n²·d). Double the length and the score matrix, and the work to fill it, grow fourfold.',
          'The article names two more drawbacks: attention has no position information of its own, and it needs more training data to be trained well.',
        ],
        zh: [
          '每个 Query 都要和每个 Key 相遇，n 个 token 就有 n² 个分数。第一篇文章算了这笔账：空间复杂度 O(n²)，时间复杂度 O(n²·d)。长度翻一倍，分数矩阵和填满它的计算量都变成四倍。',
          '文章还列了另外两个缺点：注意力本身缺少位置信息；对训练数据需求大，需要更多数据才能充分训练。',
        ],
      },
      caption: {
        en: 'Memory and time measured live as n grows: the scores’ memory grows as n², and once n is large the time follows.',
        zh: '随 n 增长实时测得的内存和耗时：分数占用的内存按 n² 增长，n 大了以后，耗时也跟着按 n² 增长。',
      },
    },

    interpretability: {
      title: { en: 'Interpretability: reading the weights', zh: '可解释性：读懂权重' },
      text: {
        en: [
          'Attention weights can be drawn and read. The first article’s code draws them as a seaborn heatmap: source words along the bottom, target words down the side, each cell labelled with its weight.',
          'A dark cell (a large weight) shows where the model looked while producing that word. It is a clue to how the model works, not the whole story: the output also depends on the Values and on everything after the attention.',
        ],
        zh: [
          '注意力权重可以画出来、读出来。第一篇文章的代码把权重画成热力图：横轴是源词，纵轴是目标词，每个格子标出权重数值。',
          '颜色深的格子（权重大）说明模型在生成这个词时看向了哪里。这是理解模型的线索，但不是全部：输出还取决于 Value，以及注意力之后的各层计算。',
        ],
      },
      caption: {
        en: 'The translation weights drawn the way the article draws them: source along the bottom, target down the side, the weight written in every cell.',
        zh: '按文章的画法画出翻译的权重：横轴是源句子，纵轴是目标句子，每个格子里写着权重。',
      },
    },

    applications: {
      title: { en: 'Summaries and answers', zh: '文本摘要与问答系统' },
      text: {
        en: [
          'Besides translation, the first article names two uses. Text summarisation: attention helps the model find an article’s key sentences, filter out redundant information and write a concise summary.',
          'Question answering: it helps the model locate the answer in a document, relate the question to the passage, and extract or generate the answer.',
          'The figure is a tiny version of both on “The cat sat on the mat”, with hand-made dimensions (animal, action, place, function word): a question that asks “where?”, and a summary query that wants the content words.',
        ],
        zh: [
          '除了机器翻译，第一篇文章还提到两种应用。文本摘要：注意力帮助模型识别文章的关键句子，过滤冗余信息，生成简洁的摘要。',
          '问答系统：注意力帮助模型在文档中定位答案，理解问题和段落之间的关联，再抽取或生成答案。',
          '图中是两者的迷你版，句子是 The cat sat on the mat，维度是手工设计的（动物、动作、地点、虚词）：一个问“在哪里？”的问题，一个只想要实词的摘要查询。',
        ],
      },
      caption: {
        en: 'Two query rows over the same sentence, the question “where?” and the summary: see which words each one weighs most.',
        zh: '同一句话上的两行查询，一行是问题“在哪里？”，一行是摘要：看看每一行最看重哪些词。',
      },
      question: {
        prompt: { en: 'Which word will the question “where did the cat sit?” attend to most?', zh: '问题“猫坐在哪里？”最关注哪个词？' },
        choices: {
          cat: { en: '“cat”', zh: 'cat' },
          sat: { en: '“sat”', zh: 'sat' },
          mat: { en: '“mat”', zh: 'mat' },
        },
        why: {
          en: '“mat”, with a weight of {value}: a “where” question asks for a place, and “mat” is the only place in the sentence.',
          zh: '是 mat，权重 {value}：问“在哪里”就是在找地点，而句子里只有 mat 是地点。',
        },
      },
    },

    'cv-attention': {
      title: { en: 'Attention in vision: SE, ECA, CBAM, CA', zh: '视觉中的注意力：SE、ECA、CBAM、CA' },
      text: {
        en: [
          'Attention first appeared in vision (Mnih et al., 2014), before it moved to language. The second article covers four attention blocks used in convolutional networks; they pick channels or places instead of words.',
          'SE squeezes each channel of the feature map to one number, then learns one gate per channel. ECA keeps the idea but replaces SE’s bottleneck with a small 1-D convolution over neighbouring channels.',
          'CBAM asks “which channels?” and then “where?”, with one gate per pixel. CA (coordinate attention) pools along the rows and along the columns separately, so its channel gates remember where things are.',
        ],
        zh: [
          '注意力最早出现在视觉领域（Mnih 等，2014），之后才用到自然语言处理。第二篇文章介绍了卷积网络中常用的四种注意力模块，它们挑选的是通道或位置，而不是词。',
          'SE 把特征图的每个通道压成一个数，再学出每个通道一个门控权重。ECA 沿用这个思路，但把 SE 的瓶颈层换成了跨相邻通道的小一维卷积。',
          'CBAM 先问“看哪些通道”，再问“看哪里”，给每个像素一个权重。CA（坐标注意力）分别沿行和沿列池化，所以它的通道权重还记得目标在哪里。',
        ],
      },
      caption: {
        en: 'SE’s channel gates on a small hand-made feature map of a cat on grass under a sky: one gate per channel, the cat’s channels kept and the background damped. ECA, CBAM (with its map of where to look) and CA are among the playground’s vision examples.',
        zh: 'SE 在一张手工构造的小特征图上的通道门控：图中是草地上的一只猫和上方的天空，每个通道一个门控权重，保留猫的通道、压低背景。ECA、CBAM（带“看哪里”的空间图）和 CA 在演练场的视觉示例里。',
      },
    },

    'context-window': {
      title: { en: 'Context windows: how far back the model can see', zh: '上下文窗口：模型能往回看多远' },
      text: {
        en: [
          'The second article opens with a chat: one turn is about which hot-pot restaurant to visit at the weekend, the next asks 那家店需要提前预约吗 (“does that place need booking?”). The model knows 那家店 means the restaurant just mentioned. In the figure it is called 蜀香园, a made-up name.',
          'That is not some magic memory. In every Transformer layer each token attends over all tokens of the context; “understanding context” is many layers of attention stacked.',
          'But attention only reaches what lies inside the context window. A large model’s context length is how far back it can look; anything outside the window does not exist for it.',
        ],
        zh: [
          '第二篇文章从一段聊天说起：上一轮还在讨论周末去哪家火锅店，下一轮问“那家店需要提前预约吗”，模型知道“那家店”指的就是刚才那家店。图中这家店叫“蜀香园”，是虚构的店名。',
          '这并不是什么神奇的“记忆”。在每一层 Transformer 里，每个 token 都对上下文中的所有 token 做注意力加权；所谓理解上下文，就是多层注意力叠加的结果。',
          '但注意力只够得着上下文窗口里的内容。大模型的上下文长度，就是它能往回看多远；窗口之外的内容，对它来说根本不存在。',
        ],
      },
      caption: {
        en: 'In “The whole chat”, every token sees the whole conversation; in “A window of 4 tokens”, each token sees only its last 4. Find the row of 那家店 in both.',
        zh: '在“整段对话”里，每个 token 都能看到整段对话；在“窗口只有 4 个 token”里，每个 token 只能看到最近的 4 个。在两张图里找到“那家店”这一行。',
      },
      question: {
        prompt: {
          en: 'With a window of 4 tokens, how much weight can 那家店 give to 蜀香园, the hot-pot restaurant?',
          zh: '窗口只有 4 个 token 时，“那家店”能给火锅店“蜀香园”多少权重？',
        },
        choices: {
          zero: { en: 'None at all', zh: '一点也没有' },
          some: { en: 'Some', zh: '一些' },
          most: { en: 'Most of it', zh: '大部分' },
        },
        why: {
          en: 'The weight is {value}: counting back 4 tokens from 那家店 does not reach 蜀香园, so its score is masked and softmax gives it nothing. With the whole chat in view, 蜀香园 gets the largest weight in that row.',
          zh: '权重是 {value}：从“那家店”往回数 4 个 token，够不到“蜀香园”，它的分数被遮住，softmax 一点权重也不给它。能看到整段对话时，“蜀香园”是这一行里权重最大的。',
        },
      },
    },

    'real-model': {
      title: { en: 'A real model, a tiny one', zh: '一个真正训练过的小模型' },
      text: {
        en: [
          'Everything so far used hand-made vectors. This figure is different: a small language model trained in this project reads a line of the second article’s hot-pot chat. Its weights were learned, not written by hand.',
          'To be clear about its size: it reads one character at a time, has 2 layers of 4 heads, and was trained on short texts: Tang and Song poems, Chinese sayings and prose. Every character of this sentence is in its vocabulary. It is nothing like a large model, but its attention is computed the same way.',
          'Each square of the grid is one head of one layer. With the grid come the model’s guesses for the next character.',
        ],
        zh: [
          '前面用的都是手工设计的向量。这张图不一样：本项目自己训练的一个小语言模型，正在读第二篇文章火锅店聊天里的一句话。它的权重是学出来的，不是手写的。',
          '要说清楚它有多小：它按字读文本，只有 2 层、每层 4 个头，训练用的是唐诗、宋词、俗语和散文这样的短文本。这句话里的每个字都在它的词表里。它远远比不上大模型，但注意力的算法完全一样。',
          '网格里每个方块是某一层的某一个头；网格之外，还有模型对下一个字的猜测。',
        ],
      },
      caption: {
        en: 'Layers × heads: each small square is one head’s attention over the sentence. Pick one, then see which character the model expects next.',
        zh: '层 × 头：每个小方块是一个头在这句话上的注意力。选一个看看，再看模型猜下一个字是什么。',
      },
    },

    practice: {
      title: { en: 'In practice: when to use attention', zh: '实践建议：什么时候用注意力' },
      text: {
        en: [
          'The first article’s advice. Attention suits sequence-to-sequence tasks, long-range dependencies, cases that need interpretability, and inputs of variable length.',
          'It suits less: very long sequences (consider sparse attention, which computes only some of the scores), limited compute, and tasks where position information is critical.',
          'Tuning: the number of heads is commonly 4, 8, 12 or 16; Dropout with p = 0.1 against overfitting; LayerNorm on the output; a warmup learning-rate schedule.',
        ],
        zh: [
          '第一篇文章的建议。适合用注意力的场景：序列到序列任务、长距离依赖、需要可解释性、变长输入。',
          '不太适合的场景：极长序列（可以考虑稀疏注意力，只算一部分分数）、计算资源受限、位置信息极其重要。',
          '调优：注意力头数常用 4、8、12、16；用 Dropout（p = 0.1）防止过拟合；加上 LayerNorm；学习率采用 warmup 策略。',
        ],
      },
      caption: {
        en: 'The 10-token chat with full attention and with sparse attention (each token sees only its last 2 tokens): compare how many scores each one computes.',
        zh: '同一段 10 个 token 的对话，分别用完整注意力和稀疏注意力（每个 token 只看最近 2 个）：比一比各自算了多少个分数。',
      },
    },

    evolution: {
      title: { en: 'How attention evolved, 2014 → 2021', zh: '注意力的演进：2014 → 2021' },
      text: {
        en: [
          'The first article sums attention up in three ideas: selective focus (different inputs matter differently), dynamic weights (computed from the Query each time) and soft addressing (a differentiable way to retrieve information).',
          'The whole computation in one line: Query + Key → similarity → softmax → weights; weights + Value → weighted sum → output. That idea led to the Transformer and to today’s large language models.',
        ],
        zh: [
          '第一篇文章把注意力的核心思想归结为三点：选择性关注（不同输入有不同的重要性）、动态权重（根据 Query 动态计算权重）、软寻址（可微分的信息检索机制）。',
          '整个计算流程一句话就能说完：Query + Key → 相似度 → softmax → 权重；权重 + Value → 加权求和 → 输出。这个想法催生了 Transformer，也推动了今天的大语言模型。',
        ],
      },
      caption: {
        en: 'The first article’s timeline, 2014 to 2021: follow each step’s link back to the section where you saw its idea at work.',
        zh: '第一篇文章里的时间线，从 2014 到 2021：顺着每一步的链接，回到你见过这个想法的那一节。',
      },
      steps: {
        '2014': {
          en: 'Basic attention: a model learns where to look, first in vision (Mnih et al.), then in translation (Bahdanau et al., published 2015).',
          zh: '基础注意力：模型学会该看哪里，先出现在视觉领域（Mnih 等），再用于机器翻译（Bahdanau 等，2015 年发表）。',
        },
        '2015': {
          en: 'Variants: different ways of scoring a query against a key, such as additive, dot and bilinear.',
          zh: '各类变体：给 Query 和 Key 打分的不同方式，比如加性、点积、双线性。',
        },
        '2017': {
          en: 'Self-attention and the Transformer (Vaswani et al., “Attention Is All You Need”): scaled dot-product and multi-head attention, no recurrence.',
          zh: '自注意力与 Transformer（Vaswani 等）：缩放点积、多头注意力，不再需要循环结构。',
        },
        '2018': {
          en: 'BERT: layers of Transformer self-attention, pre-trained on large amounts of text.',
          zh: 'BERT：由多层 Transformer 自注意力堆叠而成，在大量文本上预训练。',
        },
        '2019': {
          en: 'GPT-2: a Transformer language model that writes one token at a time behind a causal mask, as the tiny model on this page does.',
          zh: 'GPT-2：一次写一个 token 的 Transformer 语言模型，用的是因果掩码；本页那个小模型也是这样工作的。',
        },
        '2020': {
          en: 'Vision Transformer (ViT): an image cut into small patches and fed to a Transformer; attention returns to vision, where it started.',
          zh: 'ViT：把图像切成小块，直接交给 Transformer；注意力回到了它起步的视觉领域。',
        },
        '2021': {
          en: 'Swin Transformer: self-attention inside local windows of the image, which keeps the cost down (compare sparse attention).',
          zh: 'Swin Transformer：只在图像的局部窗口内做自注意力，压低计算量（可以对照稀疏注意力）。',
        },
      },
    },
  },
};
