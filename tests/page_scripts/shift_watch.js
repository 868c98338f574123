() => {
  // Collects every layout-shift entry of the page (from its start) in window.shifts.
  window.shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      window.shifts.push({ value: entry.value, input: entry.hadRecentInput,
        sources: entry.sources.map((s) => {
          const n = s.node;
          const named = n && n.className && n.className.baseVal === undefined;
          const classes = named ? '.' + String(n.className).split(' ').join('.') : '';
          const name = !n ? '?' : n.id ? '#' + n.id : classes || n.nodeName;
          return name + ' ' + Math.round(s.previousRect.y) + '->' + Math.round(s.currentRect.y);
        }) });
    }
  }).observe({ type: 'layout-shift', buffered: true });
}
