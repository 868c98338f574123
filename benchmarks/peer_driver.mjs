// Random playouts over a peer's JavaScript Mattis engine, for benchmarks/peer_speed.py.
//
//   node benchmarks/peer_driver.mjs --peer DIR --adapter FILE.mjs --players N --games G
//        [--warmup W] [--seed S] [--cap C]
//
// Prints one JSON line: {"actions", "games", "cpu_seconds", "node"} for the timed games.
//
// The peer's code is not part of this project. The adapter (--adapter) is a small ES module
// written against the peer's exported functions; it must export
//
//   async function load(peerDir) -> {
//     newGame(players, seed)   -> a game state (seed: a whole number, for the deal)
//     legalMoves(state)        -> an array of the moves the player to act may make
//     play(state, move)        -> the state after the move (the same object or a new one)
//     isOver(state)            -> true once the game has ended
//   }
//
// The loop is the one peer_speed.py runs over our engine: the move is
// legal[Math.floor(rand() * legal.length)] with a seeded generator, a game stops at --cap
// actions, and only the games after --warmup count, in CPU time (process.cpuUsage).

import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

function options(argv) {
  const given = {};
  for (let index = 0; index < argv.length; index += 2) {
    if (!argv[index].startsWith("--") || index + 1 >= argv.length) {
      throw new Error(`usage: --name value pairs, got ${argv.slice(index).join(" ")}`);
    }
    given[argv[index].slice(2)] = argv[index + 1];
  }
  for (const name of ["peer", "adapter", "players", "games"]) {
    if (!(name in given)) throw new Error(`--${name} is required`);
  }
  return {
    peer: resolve(given.peer),
    adapter: resolve(given.adapter),
    players: Number(given.players),
    games: Number(given.games),
    warmup: Number(given.warmup ?? 20),
    seed: Number(given.seed ?? 1),
    cap: Number(given.cap ?? 3000),
  };
}

// A small seeded generator (32-bit state, splitmix-style mixing): reproducible choices.
function generator(seed) {
  let state = (seed * 0x9e3779b9) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

function cpuSeconds() {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

async function main() {
  const settings = options(process.argv.slice(2));
  const adapter = await import(pathToFileURL(settings.adapter).href);
  const engine = await adapter.load(settings.peer);
  const rand = generator(settings.seed);
  let actions = 0;
  let started = 0;
  for (let number = 0; number < settings.warmup + settings.games; number += 1) {
    if (number === settings.warmup) {
      actions = 0;
      started = cpuSeconds();
    }
    let state = engine.newGame(settings.players, settings.seed * 100000 + number);
    let played = 0;
    while (!engine.isOver(state) && played < settings.cap) {
      const legal = engine.legalMoves(state);
      state = engine.play(state, legal[Math.floor(rand() * legal.length)]);
      played += 1;
    }
    actions += played;
  }
  const seconds = cpuSeconds() - started;
  process.stdout.write(JSON.stringify({
    actions, games: settings.games, cpu_seconds: seconds, node: process.version,
  }) + "\n");
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
