"""The texts of the ``mattis`` commands: the rules table (``rules.…``), simulations
(``sim.…``), benchmarks (``bench.…``), tournaments (``tournament.…``), the lab
(``lab.…``) and game reviews (``review.…``) (the English source).

Data only: :func:`mattis.i18n.catalogues` gathers it with the others, so the table of
texts is built in one place and importing this module changes nothing.
"""

from __future__ import annotations

from .plural import Source

CLI_MESSAGES: dict[str, Source] = {
    # mattis stats
    "cli.stats.title": "Your games in {folder}",
    "cli.stats.none": "No finished games saved in {folder} yet. Play one with 'mattis play'.",
    "cli.stats.all": "All games",
    "cli.stats.col.against": "Against",
    "cli.stats.col.games": "Games",
    "cli.stats.col.mattis": "Mattis",
    "cli.stats.col.rate": "Mattis rate",
    "cli.stats.col.interval": "95% interval",
    "cli.stats.unreadable": "{count} file(s) could not be read and are left out.",
    # entrants: a bot named on the command line (mattis.bots.entrants)
    "cli.entrant.unknown": (
        "unknown bot {name}; choose one of {levels}, learned:FILE.npz or module:callable"
    ),
    "cli.entrant.unknown_table": "unknown bot {name}; choose one of {levels} or learned:FILE.npz",
    "cli.entrant.no_file": "no checkpoint file {path}",
    "cli.entrant.checkpoint": "{path} is not a playable checkpoint: {reason}",
    "cli.entrant.import": "cannot import the module {module} for {name}: {reason}",
    "cli.entrant.attribute": "the module {module} has no {attribute}",
    "cli.entrant.shape": (
        "{name} is neither an agent (an object with choose()), a policy(view, legal) nor a factory "
        "without arguments that makes one"
    ),
    "cli.entrant.no_budget": "{name} takes no budget (only {searching} search), got {budget}",
    "cli.entrant.budget": (
        "the budget after '{name}:' must be a whole number of iterations or seconds ending in s "
        "(e.g. {name}:4000 or {name}:0.5s), got {budget}"
    ),
    "cli.entrant.table_only": "a table seats a level or learned:FILE.npz, not {name}",
    "cli.entrant.extra": "{name} needs the rl extra: {command}",
    # rules table
    "rules.title": "Rules: {preset}",
    "rules.title_house": "Rules: {preset} with house rules",
    "rules.compare_title": "The three presets side by side",
    "rules.field": "Field",
    "rules.option": "Option",
    "rules.value": "Value",
    "rules.allowed": "Allowed values",
    "rules.changed_one": "{option}: {value} (was: {was})",
    "rules.caption_house": "{preset} with changes: {changes}",
    "rules.footer": "Change one option with --set field=value, e.g. --set min_sequence=3.",
    "rules.compare_footer": "Highlighted values differ from pagat.",
    # simulation summary
    "sim.title": "Simulation: {preset}, {players} players, {games} games, seed {seed}",
    "sim.random_play": "Every player picks a random legal move.",
    "sim.changed": "House rules: {changes}",
    "sim.progress": "Simulating",
    "sim.time": "Time",
    "sim.seconds": "{seconds} s",
    "sim.games_per_second": "Games per second",
    "sim.actions_per_second": "Actions per second",
    "sim.actions_per_game": "Actions per game",
    "sim.actions_per_game_value": "mean {mean}, median {median}, from {min} to {max}",
    "sim.phase1_actions": "Phase-1 actions (mean)",
    "sim.phase2_actions": "Phase-2 actions (mean)",
    "sim.lost_on_empty": "{name} (empty after phase 1)",
    "sim.lost_on_empty_value": "{count} games ({rate})",
    "sim.lost_on_empty_off": "cannot happen: the empty player must pick up",
    "sim.multi_losers": "Games with several losers",
    "sim.longest": "Longest game",
    "sim.longest_value": "{actions} actions (game {index}, deck seed {deck_seed})",
    "sim.capped": "Stopped at the cap",
    "sim.capped_value": "{count} games (cap: {cap} actions)",
    "sim.none": "none",
    "sim.finished_note": (
        "Games stopped at the cap are left out of the per-game figures ({finished} of {games} finished)."
    ),
    "sim.seats_title": "Who was Mattis?",
    "sim.seat": "Seat",
    "sim.mattis_count": "Times Mattis",
    "sim.mattis_rate": "Share",
    "sim.empty_count": "Of which {name}",
    "sim.mean_place": "Average place",
    "sim.seat_note": "Seat 0 leads first; the last seat deals. Place 1 went out first, Mattis is last.",
    "sim.no_finished": "No game finished within the cap; raise --action-cap.",
    # benchmarks
    "bench.title": "Benchmarks",
    "bench.progress": "Measuring",
    "bench.system": "Python {python} on {platform}",
    "bench.settings": "{runs} runs of {games} random games per case, one core; medians.",
    "bench.case": "Case",
    "bench.path": "Path",
    "bench.paths": "checked = legal_actions() + apply(); fast = legal_actions() + apply_unchecked().",
    "bench.checked": "checked",
    "bench.unchecked": "fast",
    "bench.games_per_second": "Games/s",
    "bench.actions_per_second": "Actions/s",
    "bench.range": "min–max",
    "bench.micro_title": "Micro-benchmarks on mid-game states, µs per call (median)",
    "bench.states": "States",
    "bench.copy": "copy",
    "bench.copy_apply": "copy+apply",
    "bench.copy_apply_note": (
        "copy+apply = copy() then apply_unchecked(); legal_actions = fresh computation, not the cached "
        "list."
    ),
    "bench.legal": "legal_actions",
    # tournaments
    "tournament.progress": "Playing",
    "tournament.title": "Tournament: {preset}, {players} players, {games} games, seed {seed}",
    "tournament.setup": (
        "Deals: {deals}, each played {per_deal} times, once in every order of the bots round the "
        "table, so every bot gets every hand from every seat. Worker processes: {workers}."
    ),
    "tournament.setup_balanced": (
        "Deals: {deals}, each played {per_deal} times in a balanced design: every bot gets every hand "
        "from every seat and sits next to every other bot equally often. Worker processes: {workers}."
    ),
    "tournament.rounded": "Rounded up from {requested} to {games} games: whole deals of {per_deal} games.",
    "tournament.changed": "House rules: {changes}",
    "tournament.hard_iterations": "hard thinks {iterations} iterations per move.",
    "tournament.hard_seconds": "hard thinks {seconds} s per move, so the results depend on machine speed.",
    "tournament.hard_both": (
        "hard thinks {iterations} iterations or {seconds} s per move, whichever ends first, so the "
        "results may depend on machine speed."
    ),
    "tournament.openspiel": (
        "openspiel-ismcts (OpenSpiel's Python ISMCTS) thinks {simulations} simulations per move."
    ),
    "tournament.ray": "Played on a Ray cluster with {workers} CPUs; the results are the same as locally.",
    "tournament.time": "Time {seconds} s · {rate} games/s",
    "tournament.capped": (
        "Stopped at the cap: {count} games (cap: {cap} actions). They are left out of rates, places and "
        "ratings."
    ),
    "tournament.capped_none": "Stopped at the cap: none",
    "tournament.table": "Results per bot",
    "tournament.levels_table": "Per level",
    "tournament.bot": "Bot",
    "tournament.level": "Level",
    "tournament.games": "Games",
    "tournament.mattis": "Mattis",
    "tournament.mattis_rate": "Rate",
    "tournament.ci": "95% CI",
    "tournament.mean_place": "Avg place",
    "tournament.rating": "Rating",
    "tournament.p95": "Think p95",
    "tournament.iterations_per_second": "Iter./s",
    "tournament.legend": (
        "Rate: finished games as Mattis, with a 95% Wilson interval. Place 1 went out first; several "
        "losers share the last places. Rating: OpenSkill μ − 3σ (μ and σ in --json). Think p95: 95th "
        "percentile per decision that was not forced."
    ),
    "tournament.pairs_table": "Paired by deal",
    "tournament.pair": "First − second",
    "tournament.difference": "Difference",
    "tournament.pairs_note": (
        "Difference: how many points more often the first bot was Mattis than the second, the mean "
        "over deals of their difference in each deal, with a 95% t interval over the deals. An "
        "interval that includes 0 shows no difference."
    ),
    "tournament.levels_note": (
        "A level with several entrants counts each entrant's games; its rating is their mean."
    ),
    # the variant lab
    "lab.progress": "Lab playing",
    "lab.plan": (
        "{configurations} configurations × 4 runs × {games} games = {total} games. hard thinks "
        "{iterations} iterations per move."
    ),
    "lab.title": "Variant lab, seed {seed}",
    "lab.variant": "Variant",
    "lab.players": "{players} players",
    "lab.random": "Random is Mattis",
    "lab.hard": "hard is Mattis",
    "lab.avoided": "Avoided (points)",
    "lab.spread": "Seat spread",
    "lab.empty": "Blå/Blod",
    "lab.loops": "Loops",
    "lab.legend": (
        "Random and hard: Mattis rate on the same deals (hard among random players); under hard its 95% "
        "Wilson interval, under avoided (percentage points) the 95% interval of the per-deal differences "
        "(paired). Seat spread: highest minus lowest seat's Mattis rate when everyone plays random. "
        "Blå/Blod: games ended by Blåmattis/Blodmattis. Seat spread, Blå/Blod and loops: random play."
    ),
    "lab.fixed": (
        "Fixed by construction, so no interval: every finished deal makes exactly one Mattis (none here "
        "made several), so random play over every seat is Mattis in exactly 1/players of them."
    ),
    "lab.caution": (
        "Caution: many intervals at 95% each (configurations × seats × runs), so about one in twenty "
        "misses the true value by chance alone. Treat a single surprising difference as a hypothesis, "
        "and test it with another seed and more games."
    ),
    "lab.written": "Report: {html} · the numbers: {json}",
    # game review (mattis review); the sentences shared with the browser are play.review.*
    "review.progress": "Reviewing the game",
    # mattis review --help (cli.common.TranslatedHelp): the command, then each parameter by name
    "review.help.about": (
        "Review a finished game from one seat: the estimated risk of becoming Mattis after each "
        "choice, judged only from what that seat knew then (never from the cards it could not "
        "see), with the three moves that cost most explained in words. --json prints the figures "
        "for programs."
    ),
    "review.help.file": (
        "A saved game ('mattis play --save', or a table's record from the web server), or its "
        "number in the list of recent games that 'mattis replay' shows."
    ),
    "review.help.seat": (
        "The seat to review (seat 0 leads first). Default: the player's seat in a game saved by "
        "'mattis play'."
    ),
    "review.help.iterations": (
        "Random deals of the unseen cards per choice; every legal move is played out once in each. "
        "More is steadier and slower (the time grows in proportion)."
    ),
    "review.help.seed": "Seed of the random deals; the same seed gives the same review.",
    "review.help.json_output": (
        "Print the review as one JSON object on stdout (progress goes to stderr)."
    ),
    "review.help.lang": (
        "Language of the review and of this help: {langs} (nb bokmål, nn nynorsk, en English). "
        "Default: from LC_ALL, LC_MESSAGES or LANG."
    ),
    "review.help.help": "Show this help and exit.",
    # mattis solve (Mini Mattis, exact game theory); --help via cli.common.TranslatedHelp
    "solve.help.about": (
        "Solve Mini Mattis (two players, seven cards) with CFR+: NashConv of the average policy "
        "after each iteration, then the NashConv of each of our bot levels playing mini. Needs the "
        "rl extra. --json prints the figures for programs."
    ),
    "solve.help.rules": "The variant to solve: only mini (the full game is far too large).",
    "solve.help.iterations": "CFR+ iterations; NashConv is measured after each.",
    "solve.help.levels": (
        "Bot levels to measure, comma-separated: random, easy, normal, hard:N (N search iterations)."
    ),
    "solve.help.max_actions": (
        "Player actions before a game is stopped as a draw (default 6); each more one makes the "
        "game tree several times larger."
    ),
    "solve.help.deals": "Only the first this many of mini's 140 deals (a smaller game, for quick checks).",
    "solve.help.json_output": "Print the figures as one JSON object on stdout (progress goes to stderr).",
    "solve.help.lang": (
        "Language of the output and of this help: {langs} (nb bokmål, nn nynorsk, en English). "
        "Default: from LC_ALL, LC_MESSAGES or LANG."
    ),
    "solve.help.help": "Show this help and exit.",
    "solve.only_mini": "--rules: only mini can be solved, got '{rules}'",
    "solve.no_learned": "--levels: learned was trained on the full deck at three seats, not on mini",
    "solve.progress": "Solving mini",
    "solve.title": "Mini Mattis: {states} information states, games stopped as a draw after {cap} actions",
    "solve.curve": "CFR+: NashConv of the average policy",
    "solve.iteration": "Iteration",
    "solve.levels": "Our levels on mini: NashConv (0 is unexploitable)",
    "solve.level": "Level",
    "solve.learned_note": "learned is left out: it was trained on the full deck at three seats, not on mini.",
    "solve.time": "CPU time: {seconds} s",
    "review.title": "Review · {rules} · {players} players · {actions} moves",
    "review.table_title": "The choices",
    "review.col.move": "Move",
    "review.col.phase": "Phase",
    "review.col.options": "Options",
    "review.col.played": "Played",
    "review.col.risk": "Risk",
    "review.col.best": "Safest",
    "review.col.best_risk": "Risk",
    "review.col.cost": "Cost",
    "review.table_note": (
        "Cost: how many percentage points the risk rose above the safest move's; {mark} marks "
        "a turning point. Move numbers are those of 'mattis replay'."
    ),
    # mattis train --level master
    "train.level": "--level: choose learned or master, got {level}",
    "train.only_for": "{option} applies to --level {level} only",
    "train.sizes": "{option}: give whole numbers above 0 separated by commas, such as 3,3,4; got {text}",
    "train.master.playing": "Search games",
    "train.master.played": (
        "played {played} games ({kept} already in {folder}): {positions} positions in {hours} CPU hours"
    ),
    "train.master.epoch": (
        "epoch {epoch}/{epochs}: held out, the search's move first in {agreement}; "
        "Mattis risk Brier {brier} (a seat's rate alone: {base}); {minutes} CPU min so far"
    ),
    "train.master.wrote": (
        "wrote {out} ({size} kB, {numbers} numbers) from {games} games and {positions} positions; "
        "kept epoch {epoch} of {epochs}"
    ),
    "train.master.holdout": (
        "held out (every tenth game, {positions} positions): the search's move first in {agreement}, "
        "policy cross-entropy {policy}; Mattis risk Brier {brier} (a seat's rate alone: {base}), "
        "log-loss {logloss}"
    ),
    "train.master.cost": "CPU hours: {generation} playing the games (all of them), {training} training",
    "train.master.too_big": "warning: {out} is {size} kB, more than the 2 MB a shipped network may have",
}
