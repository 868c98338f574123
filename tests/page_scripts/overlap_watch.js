() => {
  // Watches the felt for overlaps every frame (window.overlaps); see test_web_table_steady.py.
  // Every frame: the labels on the felt (seat names, badges, who played, the winning mark,
  // the trick's note, the war banner, the stock's and trump's words) and the cards on it. No
  // label may overlap another, nor a resting card's rank corner; a card in flight may pass a
  // label only beneath it. Problems go to window.overlaps (each once).
  window.overlaps = new Set();
  window.overlapFrames = 0;
  const covering = new Map();  // how many frames in a row each flying card has covered a label
  const LABELS = '.seat-name, .seat .badge, .who, .win-mark, #trick-note > span, #war:not([hidden]), .deck small';
  const name = (el) => `${el.className || el.tagName} "${el.textContent.trim().slice(0, 24)}"`;
  const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  const corner = (r) => ({ left: r.left, top: r.top, right: r.left + r.width * 0.3, bottom: r.top + r.height * 0.38 });
  const sample = () => {
    if (document.getElementById('result').hidden && !document.getElementById('game').hidden) {
      window.overlapFrames += 1;
      const labels = [...document.querySelectorAll(LABELS)].filter((el) => el.getClientRects().length)
        .map((el) => ({ el, box: el.getBoundingClientRect() }));
      const cards = [...document.querySelectorAll('#area .table-card, .ghost-card')].map((el) => ({
        el, box: el.getBoundingClientRect(),
        moving: el.classList.contains('ghost-card') || el.getAnimations().length > 0 }));  // flying, or gone
      labels.forEach((a, i) => labels.slice(i + 1).forEach((b) => {
        if (!a.el.contains(b.el) && !b.el.contains(a.el) && meet(a.box, b.box)) window.overlaps.add(`${name(a.el)} overlaps ${name(b.el)}`);
      }));
      cards.forEach((card, i) => {
        if (card.moving) {
          card.el.style.pointerEvents = 'auto';  // so that elementFromPoint finds it where it is on top
          for (const label of labels) {
            if (!meet(card.box, label.box)) continue;
            const x = (Math.max(card.box.left, label.box.left) + Math.min(card.box.right, label.box.right)) / 2;
            const y = (Math.max(card.box.top, label.box.top) + Math.min(card.box.bottom, label.box.bottom)) / 2;
            const stack = document.elementsFromPoint(x, y);  // the topmost first
            const cardAt = stack.findIndex((el) => card.el.contains(el));
            // the label, or a box around it that is not around the card (the note's line)
            const labelAt = stack.findIndex((el) => label.el.contains(el) || (el.contains(label.el) && !el.contains(card.el)));
            const what = `a card in flight (${card.el.dataset.card || 'ghost'}) covers ${name(label.el)}`;
            if (cardAt >= 0 && (labelAt < 0 || cardAt < labelAt)) {
              covering.set(what, (covering.get(what) || 0) + 1);
              // a frame's boxes and its hit test can disagree about a card that is moving; a
              // card painted over a label stays over it for the frames of its flight
              if (covering.get(what) >= 4) window.overlaps.add(what);
            } else covering.delete(what);
          }
          return;
        }
        const rank = corner(card.box);
        for (const label of labels) if (meet(rank, label.box)) window.overlaps.add(`${name(label.el)} covers the rank of ${card.el.dataset.card}`);
        for (const later of cards.slice(i + 1)) {
          if (!later.moving && meet(rank, later.box)) window.overlaps.add(`${later.el.dataset.card} covers the rank of ${card.el.dataset.card}`);
        }
      });
    }
    requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
}
