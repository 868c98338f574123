() => {
  // The smallest text and control shown: {text, control, small_texts, small_controls}.
  // The smallest text and the smallest control on the page as it is shown now (hidden
  // elements, the card faces' SVG text and a drawer waiting off screen do not count).
  const shown = (el) => {
    if (!el.getClientRects().length || el.closest('.visually-hidden, svg')) return false;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || Number(style.opacity) === 0) return false;
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && box.left < innerWidth && box.right > 0;
  };
  const name = (el) => `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''}`;
  const texts = [];
  for (const el of document.body.querySelectorAll('*')) {
    if (!shown(el) || ![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    if (parseFloat(getComputedStyle(el).fontSize) === 0) continue;  // words kept for screen readers, an icon shown
    texts.push({ size: parseFloat(getComputedStyle(el).fontSize), what: `${name(el)} "${el.textContent.trim().slice(0, 30)}"` });
  }
  const controls = [];
  const targets = 'button, a[href], input:not([type="checkbox"]):not([type="radio"]), select, summary, [role="button"], label:has(> input[type="checkbox"]), label.chip, label.preset-option';
  for (const el of document.body.querySelectorAll(targets)) {
    if (!shown(el) || el.closest('#hand')) continue;  // the hand's cards are measured as cards
    if (el.tagName === 'A' && el.closest('p, li, td, figcaption') && !el.closest('.buttons, .bar')) continue;  // a link in a sentence
    const box = el.getBoundingClientRect();
    controls.push({ width: box.width, height: box.height, what: `${name(el)} "${el.textContent.trim().slice(0, 20)}"` });
  }
  texts.sort((a, b) => a.size - b.size);
  controls.sort((a, b) => Math.min(a.width, a.height) - Math.min(b.width, b.height));
  return { text: texts[0] || null, control: controls[0] || null,
    small_texts: texts.filter((t) => t.size < 14), small_controls: controls.filter((c) => c.width < 44 || c.height < 44) };
}
