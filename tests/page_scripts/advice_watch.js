() => {
  // Watches the advice while a completed trick is held (window.adviceTalks).
  // While a completed trick is held on the felt, the advice must not change (it would be
  // about the next trick already). window.adviceTalks: [advice when the hold began, advice
  // seen later in the same hold] for every change.
  window.adviceTalks = [];
  window.holds = 0;
  let held = null;
  const sample = () => {
    const shown = document.querySelector('[data-table] [data-last-trick]');
    const advice = document.getElementById('advice').textContent;
    if (shown && held === null) { held = advice; window.holds += 1; }
    else if (shown && advice !== held) window.adviceTalks.push([held, advice]);
    else if (!shown) held = null;
    requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
}
