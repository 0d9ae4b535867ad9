// The page's own words (its header links and footer) in the language its elements show: each
// element with data-zh swaps between its English text and data-zh when a stepper says "langchange"
// as the reader switches (composed: the train mode's steppers reach the page too). The model mode
// owns its whole page and sets its language itself.
const own = [...document.querySelectorAll('[data-zh]')];
for (const el of own) el.dataset.en = el.textContent;
document.addEventListener('langchange', (e) => {
  const zh = e.detail?.lang === 'zh';
  for (const el of own) el.textContent = zh ? el.dataset.zh : el.dataset.en;
  document.documentElement.lang = zh ? 'zh-CN' : 'en';
});
