// The table page's one store: everything the page knows and remembers between events lives
// in one object, read with get() and changed only through update() or merge(), which tell
// every subscriber what it was and what it is now. No module of the page keeps state of its
// own. (No framework: the page redraws what a change concerns, so this is all a store needs.)

/** A store holding `initial`: get(), update(patch or before => patch), merge(part, patch)
 * for one part of it, subscribe(listener(now, before)) -> unsubscribe. */
export function createStore(initial) {
  let current = Object.freeze({ ...initial });
  const listeners = new Set();
  const store = {
    get: () => current,
    update(change) {
      const before = current;
      const now = Object.freeze({ ...before, ...(typeof change === "function" ? change(before) : change) });
      current = now;
      for (const listener of listeners) listener(now, before);
    },
    merge(part, patch) {
      store.update((before) => ({ [part]: { ...before[part], ...patch } }));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return store;
}

/** The table page's store. */
export const store = createStore({
  lang: "en",
  /** The page's words in `lang` (/api/texts). */
  texts: {},
  /** The open seat ({send, close} from transport.openSeat), or null. */
  link: null,
  /** The last state message (docs/web.md), or null before the first. */
  state: null,
  /** The log of the game on the page: its lines and their kinds, the game they are of, and
   * how many of them the page shows (-1: draw them all again). */
  log: { lines: [], kinds: [], game: 0, shown: 0 },
  /** What the felt shows, which lags behind the state while a completed trick is held: whether
   * it has drawn a state yet (else the next state is drawn without motion), the last trick it
   * has taken in, the tricks still to hold, the one held now ({trick, timer}) and the
   * pick-ups whose cards are still to fly to their taker. */
  felt: { ready: false, shownTrick: -1, queue: [], holding: null, pickups: [] },
  /** The hand: the card raised by a first tap, the kind of pointer that last pressed a card,
   * the move sent and not yet answered ({action, cards}), whether a hint is on its way, and
   * the hint shown ({action, events}: until the game moves on). */
  hand: { raised: null, pointer: "mouse", pending: null, hintPending: false, hinted: null },
  /** Each seat's reaction bubble timer. */
  bubbles: {},
  /** The coach link this page asked for (table/coach.js), while it is open; and, on a coach's
   * page, whether the player ended the coaching. */
  coachLink: null,
  coachEnded: false,
  /** How many spectators watch, and whether the players let them ({count, allowed}: the
   * state's table.watchers and table.watching, or a later `watchers` message). */
  watchers: { count: 0, allowed: true },
  /** The review of a finished game (review.js): which game, the last answer (progress, then
   * the review), the choice shown, and whether the next ask is waiting for its turn. */
  review: { game: 0, answer: null, step: 0, waiting: false },
});
