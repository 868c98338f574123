() => {
  // Watches the live regions for repeated announcements (window.repeats, window.logAdded).
  // Live regions are polite and say each thing once: a region's text never changes to what it
  // was already, and the log only ever adds lines (window.repeats, window.logAdded).
  window.repeats = [];
  window.logAdded = 0;
  for (const id of ['status', 'advice', 'trick-note', 'hint-text']) {
    const node = document.getElementById(id);
    let before = node.textContent;
    new MutationObserver(() => {
      if (node.textContent && node.textContent === before) window.repeats.push(`${id}: ${before}`);
      before = node.textContent;
    }).observe(node, { childList: true, characterData: true, subtree: true });
  }
  new MutationObserver((records) => {
    for (const record of records) window.logAdded += record.addedNodes.length;
  }).observe(document.getElementById('log'), { childList: true });
}
