"""The texts of the ``mattis`` commands: the rules table (``rules.…``), simulations
(``sim.…``), benchmarks (``bench.…``), tournaments (``tournament.…``), the lab
(``lab.…``) and game reviews (``review.…``), in bokmål and English.

Data only: :func:`mattis.i18n.catalogues` gathers it with the others, so the table of
texts is built in one place and importing this module changes nothing.
"""

from __future__ import annotations

CLI_MESSAGES: dict[str, tuple[str, str]] = {
    # rules table
    "rules.title": ("Regler: {preset}", "Rules: {preset}"),
    "rules.title_house": ("Regler: {preset} med husregler", "Rules: {preset} with house rules"),
    "rules.compare_title": ("De tre variantene side om side", "The three presets side by side"),
    "rules.field": ("Felt", "Field"),
    "rules.option": ("Valg", "Option"),
    "rules.value": ("Verdi", "Value"),
    "rules.allowed": ("Lovlige verdier", "Allowed values"),
    "rules.changed_one": ("{option}: {value} (før: {was})", "{option}: {value} (was: {was})"),
    "rules.caption_house": ("{preset} med endringer: {changes}", "{preset} with changes: {changes}"),
    "rules.footer": (
        "Endre ett valg med --set felt=verdi, f.eks. --set min_sequence=3.",
        "Change one option with --set field=value, e.g. --set min_sequence=3.",
    ),
    "rules.compare_footer": (
        "Uthevede verdier skiller seg fra pagat.",
        "Highlighted values differ from pagat.",
    ),
    # simulation summary
    "sim.title": (
        "Simulering: {preset}, {players} spillere, {games} spill, frø {seed}",
        "Simulation: {preset}, {players} players, {games} games, seed {seed}",
    ),
    "sim.random_play": (
        "Alle spillere velger tilfeldig blant lovlige trekk.",
        "Every player picks a random legal move.",
    ),
    "sim.changed": ("Husregler: {changes}", "House rules: {changes}"),
    "sim.progress": ("Simulerer", "Simulating"),
    "sim.time": ("Tid", "Time"),
    "sim.seconds": ("{seconds} s", "{seconds} s"),
    "sim.games_per_second": ("Spill per sekund", "Games per second"),
    "sim.actions_per_second": ("Handlinger per sekund", "Actions per second"),
    "sim.actions_per_game": ("Handlinger per spill", "Actions per game"),
    "sim.actions_per_game_value": (
        "snitt {mean}, median {median}, fra {min} til {max}",
        "mean {mean}, median {median}, from {min} to {max}",
    ),
    "sim.phase1_actions": ("Handlinger i fase 1 (snitt)", "Phase-1 actions (mean)"),
    "sim.phase2_actions": ("Handlinger i fase 2 (snitt)", "Phase-2 actions (mean)"),
    "sim.lost_on_empty": ("{name} (tom etter fase 1)", "{name} (empty after phase 1)"),
    "sim.lost_on_empty_value": ("{count} spill ({rate})", "{count} games ({rate})"),
    "sim.lost_on_empty_off": (
        "kan ikke skje: den tomme må ta opp",
        "cannot happen: the empty player must pick up",
    ),
    "sim.multi_losers": ("Spill med flere tapere", "Games with several losers"),
    "sim.longest": ("Lengste spill", "Longest game"),
    "sim.longest_value": (
        "{actions} handlinger (spill {index}, stokkefrø {deck_seed})",
        "{actions} actions (game {index}, deck seed {deck_seed})",
    ),
    "sim.capped": ("Avbrutt ved taket", "Stopped at the cap"),
    "sim.capped_value": ("{count} spill (tak: {cap} handlinger)", "{count} games (cap: {cap} actions)"),
    "sim.none": ("ingen", "none"),
    "sim.finished_note": (
        "Spill avbrutt ved taket er ikke med i tallene per spill ({finished} av {games} ble ferdige).",
        "Games stopped at the cap are left out of the per-game figures ({finished} of {games} finished).",
    ),
    "sim.seats_title": ("Hvem ble Mattis?", "Who was Mattis?"),
    "sim.seat": ("Sete", "Seat"),
    "sim.mattis_count": ("Ganger Mattis", "Times Mattis"),
    "sim.mattis_rate": ("Andel", "Share"),
    "sim.empty_count": ("Av dem {name}", "Of which {name}"),
    "sim.mean_place": ("Snittplassering", "Average place"),
    "sim.seat_note": (
        "Sete 0 spiller ut først; det siste setet gir. Plass 1 gikk ut først, Mattis er sist.",
        "Seat 0 leads first; the last seat deals. Place 1 went out first, Mattis is last.",
    ),
    "sim.no_finished": (
        "Ingen spill ble ferdige innen taket; øk --action-cap.",
        "No game finished within the cap; raise --action-cap.",
    ),
    # benchmarks
    "bench.title": ("Ytelsesmåling", "Benchmarks"),
    "bench.progress": ("Måler", "Measuring"),
    "bench.system": ("Python {python} på {platform}", "Python {python} on {platform}"),
    "bench.settings": (
        "{runs} runder à {games} tilfeldige spill per tilfelle, én prosessorkjerne; medianer.",
        "{runs} runs of {games} random games per case, one core; medians.",
    ),
    "bench.case": ("Tilfelle", "Case"),
    "bench.path": ("Vei", "Path"),
    "bench.paths": (
        "kontrollert = legal_actions() + apply(); rask = legal_actions() + apply_unchecked().",
        "checked = legal_actions() + apply(); fast = legal_actions() + apply_unchecked().",
    ),
    "bench.checked": ("kontrollert", "checked"),
    "bench.unchecked": ("rask", "fast"),
    "bench.games_per_second": ("Spill/s", "Games/s"),
    "bench.actions_per_second": ("Handlinger/s", "Actions/s"),
    "bench.range": ("min–maks", "min–max"),
    "bench.micro_title": (
        "Mikromålinger midt i spillet, µs per kall (median)",
        "Micro-benchmarks on mid-game states, µs per call (median)",
    ),
    "bench.states": ("Tilstander", "States"),
    "bench.copy": ("copy", "copy"),
    "bench.copy_apply": ("copy+apply", "copy+apply"),
    "bench.copy_apply_note": (
        "copy+apply = copy() og så apply_unchecked(); legal_actions = ny utregning, ikke bufret liste.",
        "copy+apply = copy() then apply_unchecked(); legal_actions = fresh computation, not the cached list.",
    ),
    "bench.legal": ("legal_actions", "legal_actions"),
    # tournaments
    "tournament.progress": ("Spiller", "Playing"),
    "tournament.title": (
        "Turnering: {preset}, {players} spillere, {games} spill, frø {seed}",
        "Tournament: {preset}, {players} players, {games} games, seed {seed}",
    ),
    "tournament.setup": (
        "Utdelinger: {deals}, hver spilt {players} ganger med setene rotert, så hver bot får "
        "hver hånd. Arbeidsprosesser: {workers}.",
        "Deals: {deals}, each played {players} times with the seats rotated so every bot gets "
        "every hand. Worker processes: {workers}.",
    ),
    "tournament.rounded": (
        "Rundet opp fra {requested} til {games} spill: hele utdelinger à {players} spill.",
        "Rounded up from {requested} to {games} games: whole deals of {players} games.",
    ),
    "tournament.changed": ("Husregler: {changes}", "House rules: {changes}"),
    "tournament.hard_iterations": (
        "hard tenker {iterations} iterasjoner per trekk.",
        "hard thinks {iterations} iterations per move.",
    ),
    "tournament.hard_seconds": (
        "hard tenker {seconds} s per trekk, så resultatene avhenger av maskinens fart.",
        "hard thinks {seconds} s per move, so the results depend on machine speed.",
    ),
    "tournament.hard_both": (
        "hard tenker {iterations} iterasjoner eller {seconds} s per trekk, det som kommer først, "
        "så resultatene kan avhenge av maskinens fart.",
        "hard thinks {iterations} iterations or {seconds} s per move, whichever ends first, "
        "so the results may depend on machine speed.",
    ),
    "tournament.openspiel": (
        "openspiel-ismcts (OpenSpiels ISMCTS i Python) tenker {simulations} simuleringer per trekk.",
        "openspiel-ismcts (OpenSpiel's Python ISMCTS) thinks {simulations} simulations per move.",
    ),
    "tournament.ray": (
        "Spilt på en Ray-klynge med {workers} CPU-er; resultatene er de samme som lokalt.",
        "Played on a Ray cluster with {workers} CPUs; the results are the same as locally.",
    ),
    "tournament.time": ("Tid {seconds} s · {rate} spill/s", "Time {seconds} s · {rate} games/s"),
    "tournament.capped": (
        "Avbrutt ved taket: {count} spill (tak: {cap} handlinger). De er ikke med i andeler, "
        "plasser eller rating.",
        "Stopped at the cap: {count} games (cap: {cap} actions). They are left out of rates, "
        "places and ratings.",
    ),
    "tournament.capped_none": ("Avbrutt ved taket: ingen", "Stopped at the cap: none"),
    "tournament.table": ("Resultater per bot", "Results per bot"),
    "tournament.levels_table": ("Per nivå", "Per level"),
    "tournament.bot": ("Bot", "Bot"),
    "tournament.level": ("Nivå", "Level"),
    "tournament.games": ("Spill", "Games"),
    "tournament.mattis": ("Mattis", "Mattis"),
    "tournament.mattis_rate": ("Andel", "Rate"),
    "tournament.ci": ("95 % KI", "95% CI"),
    "tournament.mean_place": ("Plass", "Avg place"),
    "tournament.rating": ("Rating", "Rating"),
    "tournament.p95": ("Tid p95", "Think p95"),
    "tournament.iterations_per_second": ("Iter./s", "Iter./s"),
    "tournament.legend": (
        "Andel: ferdige spill som Mattis, med 95 % Wilson-intervall. Plass: snitt, 1 gikk ut først, "
        "flere tapere deler de siste plassene. Rating: OpenSkill μ − 3σ (μ og σ i --json). "
        "Tid p95: 95-persentilen av tenketid per valg som ikke var tvunget.",
        "Rate: finished games as Mattis, with a 95% Wilson interval. Place 1 went out first; "
        "several losers share the last places. Rating: OpenSkill μ − 3σ (μ and σ in --json). "
        "Think p95: 95th percentile per decision that was not forced.",
    ),
    "tournament.levels_note": (
        "Et nivå med flere deltakere teller hver deltakers spill; ratingen er snittet av deres.",
        "A level with several entrants counts each entrant's games; its rating is their mean.",
    ),
    # the variant lab
    "lab.progress": ("Laboratoriet spiller", "Lab playing"),
    "lab.plan": (
        "{configurations} oppsett × 4 kjøringer × {games} spill = {total} spill. hard tenker "
        "{iterations} iterasjoner per trekk.",
        "{configurations} configurations × 4 runs × {games} games = {total} games. hard thinks "
        "{iterations} iterations per move.",
    ),
    "lab.title": ("Variantlaboratoriet, frø {seed}", "Variant lab, seed {seed}"),
    "lab.variant": ("Variant", "Variant"),
    "lab.players": ("{players} spillere", "{players} players"),
    "lab.random": ("Tilfeldig er Mattis", "Random is Mattis"),
    "lab.hard": ("hard er Mattis", "hard is Mattis"),
    "lab.avoided": ("Unngått (poeng)", "Avoided (points)"),
    "lab.spread": ("Spredning", "Seat spread"),
    "lab.empty": ("Blå/Blod", "Blå/Blod"),
    "lab.loops": ("Løkker", "Loops"),
    "lab.legend": (
        "Tilfeldig og hard: andel Mattis på de samme utdelingene (hard blant tilfeldige "
        "spillere); under hard dens 95 % Wilson-intervall, under unngått (prosentpoeng) "
        "95 %-intervallet for forskjellene utdeling for utdeling (parvis). Spredning: høyeste "
        "minus laveste setes Mattis-andel når alle spiller tilfeldig. Blå/Blod: spill som endte "
        "med Blåmattis/Blodmattis. Spredning, Blå/Blod og løkker: tilfeldig spill.",
        "Random and hard: Mattis rate on the same deals (hard among random players); under "
        "hard its 95% Wilson interval, under avoided (percentage points) the 95% interval of "
        "the per-deal differences (paired). Seat spread: highest minus lowest seat's Mattis "
        "rate when everyone plays random. Blå/Blod: games ended by Blåmattis/Blodmattis. Seat "
        "spread, Blå/Blod and loops: random play.",
    ),
    "lab.fixed": (
        "Gitt av konstruksjonen, derfor uten intervall: hver ferdige utdeling gir nøyaktig én "
        "Mattis (ingen her ga flere), så tilfeldig spill over alle seter er Mattis i nøyaktig "
        "1/spillere av dem.",
        "Fixed by construction, so no interval: every finished deal makes exactly one Mattis "
        "(none here made several), so random play over every seat is Mattis in exactly "
        "1/players of them.",
    ),
    "lab.caution": (
        "Forsiktig: mange intervaller på 95 % hver (oppsett × seter × kjøringer), så omtrent "
        "ett av tjue bommer på den sanne verdien av ren tilfeldighet. Se på én overraskende "
        "forskjell som en hypotese, og prøv den med et annet frø og flere spill.",
        "Caution: many intervals at 95% each (configurations × seats × runs), so about one "
        "in twenty misses the true value by chance alone. Treat a single surprising "
        "difference as a hypothesis, and test it with another seed and more games.",
    ),
    "lab.written": ("Rapport: {html} · tallene: {json}", "Report: {html} · the numbers: {json}"),
    # game review (mattis review); the sentences shared with the browser are play.review.*
    "review.progress": ("Går gjennom spillet", "Reviewing the game"),
    "review.title": (
        "Gjennomgang · {rules} · {players} spillere · {actions} trekk",
        "Review · {rules} · {players} players · {actions} moves",
    ),
    "review.method": (
        "Risiko er anslått sjanse for å bli Mattis{included}, bare ut fra det plassen visste "
        "ved hvert valg: {iterations} tilfeldige fordelinger av kortene den ikke kunne se, der "
        "hvert lovlige trekk spilles ut av alle som «middels»-boten ville spilt. Frø {seed}.",
        "Risk is the estimated chance of ending as Mattis{included}, from what the seat knew at "
        "each choice and nothing more: {iterations} random deals of the cards it could not see, "
        "in which every legal move is played out with everyone playing as the 'normal' bot "
        "would. Seed {seed}.",
    ),
    "review.included": (" ({name} medregnet)", " ({name} included)"),
    "review.table_title": ("Valgene", "The choices"),
    "review.col.move": ("Trekk", "Move"),
    "review.col.phase": ("Fase", "Phase"),
    "review.col.options": ("Valg", "Options"),
    "review.col.played": ("Spilt", "Played"),
    "review.col.risk": ("Risiko", "Risk"),
    "review.col.best": ("Tryggest", "Safest"),
    "review.col.best_risk": ("Risiko", "Risk"),
    "review.col.cost": ("Kostet", "Cost"),
    "review.table_note": (
        "Kostet: hvor mange prosentpoeng høyere risikoen ble enn med det tryggeste trekket; "
        "{mark} markerer et vendepunkt. Trekknumrene er de samme som i «mattis replay».",
        "Cost: how many percentage points the risk rose above the safest move's; {mark} marks "
        "a turning point. Move numbers are those of 'mattis replay'.",
    ),
    "review.turning_title": (
        "Vendepunkter: trekkene som kostet mest",
        "Turning points: the moves that cost most",
    ),
    "review.no_turning": (
        "Ingen trekk kostet ett prosentpoeng eller mer: godt spilt!",
        "No move cost one percentage point or more: well played!",
    ),
    "review.no_decisions": (
        "Plassen hadde ingen valg å gjøre i dette spillet.",
        "The seat had no choices to make in this game.",
    ),
    "review.forced_one": (
        "1 tvunget trekk (bare ett lovlig valg) er ikke vurdert.",
        "1 forced move (only one legal choice) is not judged.",
    ),
    "review.forced": (
        "{count} tvungne trekk (bare ett lovlig valg) er ikke vurdert.",
        "{count} forced moves (only one legal choice) are not judged.",
    ),
    "review.unfinished": (
        "Spillet ble ikke spilt ferdig: trekkene fram til da er vurdert.",
        "The game was not finished: the moves up to then are judged.",
    ),
}
