// The review's cost on the device's Python: the offline app's Pyodide (CPython in WebAssembly)
// run by Node.js on this machine, reviewing the same games as speed.py. A phone runs the same
// WebAssembly, typically several times slower than a desktop CPU.
//
//   mattis app build        # once: puts Pyodide into src/mattis/web/static/app/pyodide/
//   nice -n 10 node benchmarks/review/pyodide_speed.mjs [GAMES] [ITERATIONS]
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..", "..");
const pyodideDir = path.join(root, "src", "mattis", "web", "static", "app", "pyodide");
const { loadPyodide } = await import(path.join(pyodideDir, "pyodide.mjs"));

const games = Number(process.argv[2] ?? 4);
const iterations = Number(process.argv[3] ?? 30);
const pyodide = await loadPyodide({ indexURL: pyodideDir + path.sep });
pyodide.FS.mkdir("/src");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: path.join(root, "src") }, "/src");
pyodide.setStdout({ batched: (line) => console.log(line) });
await pyodide.runPythonAsync(`
import sys
sys.path.insert(0, "/src")
import json, time
from mattis import Game, Rules
from mattis.bots import make_agent, play_game
from mattis.bots.review import review_record

CONFIGS = (("pagat", 4), ("app", 4), ("kortregler", 3), ("pagat", 3))
seconds = []
for number in range(${games}):
    preset, players = CONFIGS[number % len(CONFIGS)]
    game = Game.new(Rules.preset(preset), players, seed=number + 1)
    play_game(game, [make_agent("normal")] * players, seed=number + 1)
    started = time.perf_counter()
    review = review_record(game.record(), 0, iterations=${iterations})
    seconds.append(time.perf_counter() - started)
    print(json.dumps({"preset": preset, "players": players, "decisions": len(review.decisions),
                      "seconds": round(seconds[-1], 2)}))
import statistics
print(json.dumps({"python": "pyodide " + sys.version.split()[0], "iterations": ${iterations},
                  "games": len(seconds), "seconds_median": round(statistics.median(seconds), 1),
                  "seconds_max": round(max(seconds), 1)}))
`);
