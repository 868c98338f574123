"""The baseline table (issue 30, item 3): every level against every other, at 3 players.

Every set of three different entrants plays the same number of deals, each deal in all six
seatings (the tournament's fair design), so every pair of entrants meets equally often and
beside every third entrant. For each preset it writes:

- ``PRESET/TRIPLE.json``: one tournament (``mattis tournament --json``'s shape, plus each
  game's seating, places and losers), kept so that a stopped run goes on where it stopped;
- ``PRESET.json``: the table: each entrant's Mattis rate over all its games, its rate in the
  games it shared with each other entrant (95 % Wilson intervals), and one OpenSkill
  (Plackett–Luce) rating per entrant, pooled over every game of the preset.

    python benchmarks/baselines/table.py --deals 1                # every preset, 8 entrants
    python benchmarks/baselines/table.py --rules pagat --deals 5 --workers 2
    python benchmarks/baselines/table.py --report                  # print the tables as markdown
    python benchmarks/baselines/table.py --report --lang nb        # in Norwegian (bokmål)

Run it on the compiled build (``MATTIS_COMPILE=1 pip install ".[rl]"``): ``hard`` and
``expert`` then think four times faster, and they take most of the time.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from mattis import Rules
from mattis.tools.tournament import games_per_deal, run_tournament, wilson_interval

HERE = Path(__file__).resolve().parent
ENTRANTS = ("random", "easy", "normal", "hard:1000", "expert", "learned", "master:1000", "openspiel-ismcts")
"""Every level (``hard`` and ``master`` at the 1,000 iterations the strength curves use, so
the table does not depend on the machine's speed; ``expert`` at its default) and OpenSpiel's
ISMCTS as an outside yardstick."""
PRESETS = ("pagat", "kortregler", "app")
PLAYERS = 3


def triple_path(folder: Path, triple: tuple[str, ...]) -> Path:
    return folder / ("-".join(name.replace(":", "") for name in triple) + ".json")


def play_triple(preset: str, triple: tuple[str, ...], deals: int, seed: int, workers: int) -> dict[str, Any]:
    """One tournament of three entrants, with every game's seating and result."""
    started = time.process_time()
    result = run_tournament(Rules.preset(preset), PLAYERS, triple, deals * games_per_deal(PLAYERS),
                            seed=seed, workers=workers)
    data = result.to_dict()
    data["cpu_seconds_main"] = time.process_time() - started
    data["outcomes"] = [{"deal": outcome.deal, "seating": list(outcome.seating), "capped": outcome.capped,
                         "places": list(outcome.places), "losers": list(outcome.losers)}
                        for outcome in result.outcomes]
    return data


def summarise(preset: str, entrants: tuple[str, ...], runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The table of one preset from its tournaments (in a fixed order, so the ratings are
    reproducible from the files)."""
    games = {name: 0 for name in entrants}
    mattis = {name: 0 for name in entrants}
    pair_games = {(a, b): 0 for a in entrants for b in entrants if a != b}
    pair_mattis = dict.fromkeys(pair_games, 0)
    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in entrants}
    capped = 0
    for run in runs:
        bots = run["bots"]
        for outcome in run["outcomes"]:
            if outcome["capped"]:
                capped += 1
                continue
            seated = [bots[entrant] for entrant in outcome["seating"]]
            for seat, name in enumerate(seated):
                lost = seat in outcome["losers"]
                games[name] += 1
                mattis[name] += lost
                for other in seated:
                    if other != name:
                        pair_games[name, other] += 1
                        pair_mattis[name, other] += lost
            rated = model.rate([[ratings[name]] for name in seated], ranks=outcome["places"])
            for seat, name in enumerate(seated):
                ratings[name] = rated[seat][0]

    def rate(lost: int, played: int) -> dict[str, Any]:
        low, high = wilson_interval(lost, played)
        return {"mattis": lost, "games": played, "rate": lost / played if played else None,
                "ci95": [low, high]}

    return {
        "preset": preset,
        "players": PLAYERS,
        "entrants": list(entrants),
        "tournaments": len(runs),
        "deals_per_tournament": runs[0]["deals"] if runs else 0,
        "games": sum(len(run["outcomes"]) for run in runs),
        "capped_games": capped,
        "cpu_seconds": sum(run.get("cpu_seconds_main", 0.0) for run in runs),
        "wall_seconds": sum(run["seconds"] for run in runs),
        "overall": {name: rate(mattis[name], games[name]) for name in entrants},
        "against": {name: {other: rate(pair_mattis[name, other], pair_games[name, other])
                           for other in entrants if other != name} for name in entrants},
        "openskill": {name: {"mu": ratings[name].mu, "sigma": ratings[name].sigma,
                             "ordinal": ratings[name].ordinal()} for name in entrants},
    }


LABELS = {
    "en": {"title": "{preset}, {players} players: {games} games ({sets} sets of three, each {deals} in all 6 "
                    "seatings); Mattis rates in per cent (95% interval)",
           "deal": "one deal", "deals": "{count} deals", "entrant": "entrant", "all": "Mattis, all games",
           "beside": "beside `{name}`"},
    "nb": {"title": "{preset}, {players} spillere: {games} spill ({sets} sett på tre, hvert {deals} i alle 6 "
                    "plasseringer); Mattis-andeler i prosent (95 %-intervall)",
           "deal": "ett giv", "deals": "{count} giv", "entrant": "deltaker", "all": "Mattis, alle spill",
           "beside": "ved siden av `{name}`"},
}
"""The report's words in the languages of ``docs/research.md`` and ``docs/research.nb.md``."""


def markdown(table: dict[str, Any], lang: str = "en") -> str:
    """The table of one preset as markdown: rows by pooled rating, best first; each cell is the
    row's Mattis rate in the games it shared with the column's entrant."""
    words = LABELS[lang]
    norwegian = str.maketrans({",": " ", ".": ","}) if lang == "nb" else str.maketrans({})

    def number(value: float, digits: int) -> str:
        return f"{value:,.{digits}f}".translate(norwegian)

    def percent(cell: dict[str, Any], digits: int) -> str:
        low, high = cell["ci95"]
        return (f"{number(100 * cell['rate'], digits)} ({number(100 * low, digits)}–"
                f"{number(100 * high, digits)})")

    entrants = sorted(table["entrants"], key=lambda name: -table["openskill"][name]["ordinal"])
    count = table["deals_per_tournament"]
    deals = words["deal"] if count == 1 else words["deals"].format(count=count)
    beside = " | ".join(words["beside"].format(name=name) for name in entrants)
    lines = ["### " + words["title"].format(preset=table["preset"], players=table["players"],
                                            games=number(table["games"], 0), sets=table["tournaments"],
                                            deals=deals),
             "", f"| {words['entrant']} | OpenSkill μ ± σ | {words['all']} | {beside} |",
             "|---|---:|---:|" + "---:|" * len(entrants)]
    for name in entrants:
        rating = table["openskill"][name]
        cells = ["–" if other == name else percent(table["against"][name][other], 0) for other in entrants]
        lines.append(f"| `{name}` | {number(rating['mu'], 1)} ± {number(rating['sigma'], 1)} | "
                     f"{percent(table['overall'][name], 1)} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default=",".join(PRESETS), help="presets, comma-separated")
    parser.add_argument("--entrants", default=",".join(ENTRANTS), help="entrants, comma-separated")
    parser.add_argument("--deals", type=int, default=2, help="deals per set of three (6 games each)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=HERE, help="folder for the results")
    parser.add_argument("--report", action="store_true", help="only print the tables from the files")
    parser.add_argument("--lang", choices=sorted(LABELS), default="en", help="the report's language")
    arguments = parser.parse_args()
    entrants = tuple(arguments.entrants.split(","))
    triples = list(itertools.combinations(entrants, PLAYERS))
    for preset in arguments.rules.split(","):
        folder = arguments.out / preset
        folder.mkdir(parents=True, exist_ok=True)
        runs = []
        for number, triple in enumerate(triples, 1):
            path = triple_path(folder, triple)
            if path.exists():
                runs.append(json.loads(path.read_text()))
                continue
            if arguments.report:
                continue
            sys.stderr.write(f"{preset}: {number}/{len(triples)} {','.join(triple)} ...")
            sys.stderr.flush()
            data = play_triple(preset, triple, arguments.deals, arguments.seed, arguments.workers)
            path.write_text(json.dumps(data, indent=1) + "\n")
            sys.stderr.write(f" {data['seconds']:.0f} s\n")
            runs.append(data)
        if len(runs) < len(triples):
            print(f"{preset}: {len(runs)} of {len(triples)} tournaments played so far\n")
            if not runs:
                continue
        table = summarise(preset, entrants, runs)
        (arguments.out / f"{preset}.json").write_text(json.dumps(table, indent=1) + "\n")
        print(markdown(table, arguments.lang))
    return 0


if __name__ == "__main__":
    sys.exit(main())
