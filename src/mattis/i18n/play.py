"""The texts of play (keys ``play.…``), in bokmål and English, for every front end.

Data only: :func:`mattis.i18n.catalogues` gathers it with the others. Sentences
that name a player take ``{who}``: a bot's name, or "Du"/"You" for the person at the
keyboard (``"du"``/``"you"`` inside a sentence). English needs "are" after "You" where
Norwegian does not change, so those few sentences have a ``_you`` twin.
"""

from __future__ import annotations

PLAY_MESSAGES: dict[str, tuple[str, str]] = {
    # people
    "play.you": ("Du", "You"),
    "play.you_mid": ("du", "you"),
    "play.seat_n": ("Plass {seat}", "Seat {seat}"),
    "play.and": ("og", "and"),
    "play.level.random": ("tilfeldig", "random"),
    "play.level.easy": ("lett", "easy"),
    "play.level.normal": ("middels", "normal"),
    "play.level.hard": ("sterk", "hard"),
    "play.level.expert": ("ekspert", "expert"),
    "play.level.learned": ("maskinlært", "learned"),
    # what happened (history events)
    "play.ev.play": ("{who} la {cards}", "{who} played {cards}"),
    "play.ev.chance": ("{who} sjanset og fikk {card}", "{who} chanced and turned up {card}"),
    "play.ev.pickup": ("{who} tok opp {cards}", "{who} picked up {cards}"),
    "play.ev.won": (
        "{who} vant stikket med {card} ({count} kort)",
        "{who} won the trick with {card} ({count} cards)",
    ),
    "play.ev.won_one": (
        "{who} vant stikket med {card} (1 kort)",
        "{who} won the trick with {card} (1 card)",
    ),
    "play.ev.aside": (
        "{who} la det siste kortet i trekkbunken usett til side: det er trumfkortet",
        "{who} put the stock's last card aside unseen: it is the trump card",
    ),
    "play.ev.drop": (
        "{who} hadde ikke noe å spille og gikk ut av krigen",
        "{who} had nothing to play and left the war",
    ),
    "play.ev.back": (
        "Stikket ble ikke ferdig, og alle tok tilbake kortene sine ({cards})",
        "The trick was not finished, and everyone took their cards back ({cards})",
    ),
    "play.ev.reveal": (
        "{who} snudde trumfkortet: {card}, så {suit} er trumf!",
        "{who} turned over the trump card: {card}, so {suit} are trumps!",
    ),
    "play.ev.reveal_unheld": (
        "Trumfkortet ble snudd: {card}, så {suit} er trumf. Kortet er ute av spillet.",
        "The trump card was turned over: {card}, so {suit} are trumps. The card leaves the game.",
    ),
    "play.ev.trump_known": ("Trumf er {suit} ({card})", "Trumps are {suit} ({card})"),
    "play.ev.draw_trump": (
        "{who} trakk det synlige trumfkortet {card}",
        "{who} drew the face-up trump card {card}",
    ),
    "play.ev.shed": ("Utspillingen (fase 2) begynner.", "Shedding (phase 2) begins."),
    "play.ev.clear": (
        "Stikket er fullt og går ut av spillet ({count} kort)",
        "The trick is complete and leaves the game ({count} cards)",
    ),
    "play.ev.out": ("{who} gikk ut som nummer {place}!", "{who} went out, number {place}!"),
    "play.ev.lose": ("{who} er Mattis!", "{who} is Mattis!"),
    "play.ev.lose_you": ("{who} er Mattis!", "{who} are Mattis!"),
    "play.ev.lose_blaa": (
        "{who} har ingen kort etter innsamlingen og er {name}!",
        "{who} has no cards after collecting and is {name}!",
    ),
    "play.ev.lose_blaa_you": (
        "{who} har ingen kort etter innsamlingen og er {name}!",
        "{who} have no cards after collecting and are {name}!",
    ),
    "play.ev.lose_blod": (
        "{who} har tom stikkbunke etter innsamlingen og er {name}!",
        "{who} has an empty won pile after collecting and is {name}!",
    ),
    "play.ev.lose_blod_you": (
        "{who} har tom stikkbunke etter innsamlingen og er {name}!",
        "{who} have an empty won pile after collecting and are {name}!",
    ),
    # announcements in the move log (frontend.story)
    "play.story.war.starts": (
        "Krig! Med i krigen: {names}. {how}",
        "War! In the war: {names}. {how}",
    ),
    "play.story.war.goes_on": (
        "Likt igjen, så krigen fortsetter: {names}. {how}",
        "Tied again, so the war goes on: {names}. {how}",
    ),
    "play.story.war.how.replay": (
        "De spiller ett kort til hver, og høyeste nye kort tar hele stikket.",
        "They play one more card each, and the highest new card takes the whole trick.",
    ),
    "play.story.war.how.two_cards": (
        "De spiller to nye kort hver, og det beste av dem teller.",
        "They play two new cards each, and the better one counts.",
    ),
    "play.story.war.how.any_match": (
        "De spiller et kampkort hver fra hånden, og høyeste tar hele stikket.",
        "They play a battle card each from the hand, and the highest takes the whole trick.",
    ),
    "play.story.war.ahead": ("I krigen leder {who} med {card}.", "Ahead in the war: {who} with {card}."),
    "play.story.war.level": (
        "I krigen står {who} likt med {card} så langt.",
        "Level in the war so far: {who} with {card}.",
    ),
    "play.story.lead.won": (
        'Neste utspill: {who} (vant forrige stikk).',
        'Next to lead: {who} (won the last trick).',
    ),
    "play.story.lead.passed": (
        "Neste utspill: {who} ({winner} vant stikket, men har ikke noe igjen å spille).",
        "Next to lead: {who} ({winner} won the trick but cannot lead: nothing left to play).",
    ),
    "play.story.lead.trump_card": (
        'Først ut: {who} (har trumfkortet).',
        'First to lead: {who} (holds the trump card).',
    ),
    "play.story.lead.last_card": (
        'Først ut: {who} (trakk det siste kortet i bunken).',
        "First to lead: {who} (drew the stock's last card).",
    ),
    "play.story.lead.next_in_turn": (
        'Først ut: {who} (stod for tur til neste stikk).',
        'First to lead: {who} (was next to lead a trick).',
    ),
    "play.story.lead.last_play": (
        'Neste utspill: {who} (la det siste utspillet).',
        'Next to lead: {who} (made the last play).',
    ),
    "play.story.lead.after_out": (
        'Neste utspill: {who} ({out} la det siste utspillet, men gikk ut).',
        'Next to lead: {who} ({out} made the last play but went out).',
    ),
    "play.story.lead.table_empty": (
        "Bordet er tomt: nytt stikk, og {who} spiller ut.",
        "The table is empty: a new trick, led by {who}.",
    ),
    "play.story.still_in": ("{count} spillere er fortsatt med.", "{count} players are still in."),
    "play.story.forced.empty": (
        "{who} hadde ingen kort og måtte ta opp.",
        "{who} had no cards and had to pick up.",
    ),
    "play.story.forced.cannot_beat": (
        "{who} kunne ikke slå {target} og måtte ta opp.",
        "{who} could not beat {target} and had to pick up.",
    ),
    "play.story.phase_end.no_card": (
        "Innsamlingen er over: en spiller som skulle spille, hadde ikke noe å spille.",
        "Collecting is over: a player who had to play had nothing left to play.",
    ),
    "play.story.phase_end.one_left": (
        "Innsamlingen er over: færre enn to spillere har noe å spille.",
        "Collecting is over: fewer than two players have anything left to play.",
    ),
    "play.story.phase_end.stock_empty": (
        "Innsamlingen er over: trekkbunken er tom.",
        "Collecting is over: the stock has run out.",
    ),
    "play.story.empty_must_pick_up": (
        '{who}: ingen kort etter innsamlingen, men fortsatt med – må ta opp til det kommer kort på hånden.',
        '{who}: no cards after collecting, but still in – must pick up until holding cards again.',
    ),
    # the table
    "play.phase.collect": ("Innsamling (fase 1)", "Collecting (phase 1)"),
    "play.phase.shed": ("Utspilling (fase 2)", "Shedding (phase 2)"),
    "play.phase.over": ("Spillet er over", "The game is over"),
    "play.status.stock": ("trekkbunken: {count} kort", "stock: {count} cards"),
    "play.status.stock_one": ("trekkbunken: 1 kort", "stock: 1 card"),
    "play.status.trick_size": (
        "stikket er fullt ved {count} utspill (nå {played})",
        "the trick is complete after {count} plays ({played} so far)",
    ),
    "play.status.trump_card": ("trumf: {suit} ({card})", "trumps: {suit} ({card})"),
    "play.status.trump": ("trumf: {suit}", "trumps: {suit}"),
    "play.status.trump_aside": (
        "trumf: skjult (trumfkortet er lagt til side)",
        "trumps: hidden (the trump card is put aside)",
    ),
    "play.status.trump_hidden": ("trumf: skjult til utspillingen", "trumps: hidden until shedding"),
    "play.col.player": ("Spiller", "Player"),
    "play.col.hand": ("Hånd", "Hand"),
    "play.col.won": ("Stikkbunke", "Won"),
    "play.col.cards": ("Kort", "Cards"),
    "play.col.notes": ("Merknad", "Notes"),
    "play.col.mattis": ("Ganger Mattis", "Times Mattis"),
    "play.note.dealer": ("giver", "dealer"),
    "play.note.tie": ("i krig", "in the war"),
    "play.note.trump_card": ("har trumfkortet (skjult)", "holds the trump card (hidden)"),
    "play.note.out": ("ute som nr. {place}", "out, number {place}"),
    "play.note.mattis": ("Mattis", "Mattis"),
    "play.trick": ("Stikket:", "Trick:"),
    "play.trick_empty": ("ingen kort ennå", "no cards yet"),
    "play.table": ("Bordet (eldst først):", "Table (oldest first):"),
    "play.table_empty": ("tomt", "empty"),
    "play.your_hand": ("Din hånd:", "Your hand:"),
    "play.hand_of": ("Hånden til {who}:", "Hand of {who}:"),
    "play.no_cards": ("ingen kort", "no cards"),
    "play.moves": ("Lovlige trekk:", "Legal moves:"),
    # what you can do now
    "play.advice.lead1": (
        "Du spiller ut. Bare valøren teller, og høyeste kort tar stikket.",
        "You lead. Only the rank counts, and the highest card takes the trick.",
    ),
    "play.advice.lead1_pair": (
        "Du spiller ut mot {who}. Bare valøren teller, og høyeste kort tar stikket.",
        "You lead against {who}. Only the rank counts, and the higher card takes the trick.",
    ),
    "play.advice.beat1": (
        "Høyest nå: {card} ({who}). Bare valøren teller.",
        "Highest so far: {card} ({who}). Only the rank counts.",
    ),
    "play.advice.beat1_tied": (
        "Høyest nå: {card}, likt for {who}. Bare valøren teller.",
        "Highest so far: {card}, tied by {who}. Only the rank counts.",
    ),
    "play.advice.tie_replay": (
        "Krig! Med i krigen: {names}. Hver spiller ett kort til, og høyeste nye kort tar hele "
        "stikket ({count} kort så langt).",
        "War! In the war: {names}. Each plays one more card, and the highest new card takes the "
        "whole trick ({count} cards so far).",
    ),
    "play.advice.tie_two": (
        "Krig! Med i krigen: {names}. Hver spiller to nye kort, det beste av dem teller, og "
        "høyeste tar hele stikket ({count} kort så langt).",
        "War! In the war: {names}. Each plays two new cards, the better one counts, and the "
        "highest takes the whole trick ({count} cards so far).",
    ),
    "play.advice.tie_battle": (
        "Krig! Med i krigen: {names}. Hver spiller et kampkort fra hånden, og høyeste kampkort "
        "tar hele stikket ({count} kort så langt).",
        "War! In the war: {names}. Each plays a battle card from the hand, and the highest takes "
        "the whole trick ({count} cards so far).",
    ),
    "play.advice.lead2": (
        "Bordet er tomt: spill ut hva du vil.",
        "The table is empty: lead whatever you like.",
    ),
    "play.advice.empty_hand": ("Du har ingen kort.", "You have no cards."),
    "play.advice.must_pick_up": (
        "Du kan ikke slå {target}, så du må ta opp {oldest}.",
        "You cannot beat {target}, so you must pick up {oldest}.",
    ),
    "play.advice.must_pick_up_follow": (
        "Du kan ikke slå {target} i {suit} og må følge sort (ikke trumfe), så du må ta opp {oldest}.",
        "You cannot beat {target} in {suit} and must follow suit (no trumping), so you must pick "
        "up {oldest}.",
    ),
    "play.advice.beat_or_pick_up_follow": (
        "Slå {target} med høyere {suit} (du har {suit}, så du kan ikke trumfe), eller ta opp {oldest}.",
        "Beat {target} with a higher card in {suit} (you hold {suit}, so you may not trump), or "
        "pick up {oldest}.",
    ),
    "play.advice.must_beat": (
        "Slå {target} (du må slå når du kan).",
        "Beat {target} (you must beat when you can).",
    ),
    "play.advice.beat_or_pick_up": (
        "Slå {target} med høyere i samme sort eller trumf, eller ta opp {oldest}.",
        "Beat {target} with a higher card of its suit or a trump, or pick up {oldest}.",
    ),
    # input problems
    "play.err.unknown": (
        "Ukjent kommando eller kort: «{text}». Skriv et kort som 7h, et nummer fra lista eller "
        "«hjelp».",
        "Unknown command or card: '{text}'. Type a card like 7h, a number from the list, or "
        "'help'.",
    ),
    "play.err.bad_rank": (
        "«{text}» er ikke et kort: valøren «{rank}» finnes ikke (2–10, J, Q, K, A).",
        "'{text}' is not a card: there is no rank '{rank}' (2–10, J, Q, K, A).",
    ),
    "play.err.bad_suit": (
        "«{text}» er ikke et kort: sorten «{suit}» finnes ikke (k ♣, r ♦, h ♥, s ♠).",
        "'{text}' is not a card: there is no suit '{suit}' (c ♣, d ♦, h ♥, s ♠).",
    ),
    "play.err.bad_card": (
        "«{text}» er ikke et kort. Skriv valør og så sort, som 7h eller 10s.",
        "'{text}' is not a card. Type the rank and then the suit, like 7h or 10s.",
    ),
    "play.err.bad_sequence": (
        "«{text}» er ikke en serie. Skriv laveste og høyeste kort, som 6h-8h.",
        "'{text}' is not a sequence. Type the lowest and the highest card, like 6h-8h.",
    ),
    "play.err.sequence_suits": (
        "«{text}»: en serie må være i én sort, som 6h-8h.",
        "'{text}': a sequence must be of one suit, like 6h-8h.",
    ),
    "play.err.number_range": (
        "Det er ikke noe trekk nummer {number}. Velg et nummer fra 1 til {max}.",
        "There is no move number {number}. Choose a number from 1 to {max}.",
    ),
    "play.err.not_a_move": (
        "«{text}» er ikke et trekk: skriv et kort som 7h, et nummer fra lista (1–{max}) eller "
        "«hjelp».",
        "'{text}' is not a move: type a card like 7h, a number from the list (1-{max}), or "
        "'help'.",
    ),
    "play.err.not_a_move_no_list": (
        "«{text}» er ikke et trekk: skriv et kort som 7h eller «hjelp».",
        "'{text}' is not a move: type a card like 7h, or 'help'.",
    ),
    "play.err.no_list": ("Det er ingen trekk å velge nå.", "There are no moves to choose now."),
    "play.err.not_your_turn": ("Det er ikke din tur.", "It is not your turn."),
    "play.err.illegal": ("Ikke lov: {reason}.", "Not allowed: {reason}."),
    # why a move is not allowed (the English texts are the rules core's own words)
    # why a move is refused: one key per core reason code (mattis.core.errors.Reason)
    "play.why.game_over": ("spillet er over", "the game is over"),
    "play.why.not_your_turn": ("det er ikke din tur", "it is not your turn"),
    "play.why.malformed": ("«{text}» er ikke et trekk", "'{text}' is not a move"),
    "play.why.not_a_sequence": (
        "«{text}» er ikke en serie: skriv laveste–høyeste i én farge, som 6h-8h",
        "'{text}' is not a sequence: write lowest-highest in one suit, like 6h-8h",
    ),
    "play.why.pickup_in_phase1": (
        "du kan bare ta opp i andre fase (utspilling)",
        "picking up is only possible in phase 2 (utspilling)",
    ),
    "play.why.sequence_in_phase1": (
        "serier spilles bare i andre fase (utspilling)",
        "sequences are only played in phase 2 (utspilling)",
    ),
    "play.why.chance_off": (
        "sjansing er ikke lov med disse reglene",
        "chancing (sjansing) is not allowed in these rules",
    ),
    "play.why.chance_in_battle": (
        "kampkort i en krig må komme fra hånden, så du kan ikke sjanse",
        "battle cards in a war must come from the hand: you cannot chance",
    ),
    "play.why.chance_last_card": (
        "du kan ikke sjanse: det siste kortet i trekkbunken kan aldri sjanses",
        "you cannot chance: the stock's last card is never chanced",
    ),
    "play.why.chance_in_phase2": (
        "du kan bare sjanse i første fase (innsamling)",
        "chancing (sjansing) is only possible in phase 1 (innsamling)",
    ),
    "play.why.not_in_hand": ("du har ikke {cards} på hånden", "{cards} is not in your hand"),
    "play.why.not_in_hand_many": ("du har ikke {cards} på hånden", "{cards} are not in your hand"),
    "play.why.nothing_to_pick_up": (
        "det er ingenting å ta opp, for bordet er tomt",
        "nothing to pick up: the table is empty",
    ),
    "play.why.must_beat": (
        "du kan ikke ta opp når du kan slå {target} (du må slå når du kan)",
        "picking up is not allowed while you can beat {target} (you must beat when you can)",
    ),
    "play.why.sequences_off": (
        "serier er ikke lov med disse reglene",
        "sequences are not allowed in these rules",
    ),
    "play.why.sequence_too_short": (
        "en serie må ha minst {length} kort med disse reglene",
        "a sequence needs at least {length} cards in these rules",
    ),
    "play.why.must_pick_up": (
        "du har ingen kort, så du må ta opp",
        "you have no cards, so you must pick up",
    ),
    "play.why.must_follow_suit": (
        "du må følge sort: du har {suit}, så du kan ikke trumfe {target}",
        "you must follow suit: you hold {suit}, so you may not trump {target}",
    ),
    "play.why.wrong_suit": (
        "{play} slår ikke {target}: spill høyere {suit} eller trumf, eller ta opp",
        "{play} does not beat {target}: play higher {suit} or trump, or pick up",
    ),
    "play.why.wrong_suit_trump": (
        "{play} slår ikke {target}: spill høyere {suit}, eller ta opp",
        "{play} does not beat {target}: play higher {suit}, or pick up",
    ),
    "play.why.too_low": (
        "{play} slår ikke {target}: det laveste kortet må være høyere enn {card}",
        "{play} does not beat {target}: its lowest card must be higher than {card}",
    ),
    # hints
    "play.thinking": ("Den sterke boten tenker …", "The strong bot is thinking …"),
    "play.hint": ("Tips: {move} (nr. {number}) – {reason}.", "Hint: {move} (number {number}) – {reason}."),
    "play.hint_safest": (
        "Tryggeste trekk: {move} (nr. {number}) – {reason}.",
        "Safest move: {move} (number {number}) – {reason}.",
    ),
    "play.hint.search": (
        "i simulerte spill holdt det deg unna Mattis {safe} av gangene",
        "in simulated games it kept you out of Mattis {safe} of the time",
    ),
    # why a bot (or the hint) chose its move (keys of mattis.bots.rule_based)
    "play.bot.forced": ("det eneste lovlige trekket", "the only legal move"),
    "play.bot.random": ("tilfeldig valgt", "chosen at random"),
    "play.bot.careless": ("et forhastet trekk", "a hasty move"),
    "play.bot.break_loop": (
        "de samme utspillene går i ring, så den gjør noe annet",
        "the same plays keep coming round, so it varies",
    ),
    "play.bot.chance_forced": (
        "ingen kort på hånden, så den sjanser",
        "no cards in hand, so it chances the stock",
    ),
    "play.bot.chance_weak": ("svak hånd: sjanser heller", "a weak hand: chances the stock instead"),
    "play.bot.lead_low": (
        "spiller ut lavt ({move}) og sparer de høye kortene",
        "leads low ({move}), keeping the high cards",
    ),
    "play.bot.win_cheap": (
        "billigste kort som slår {rank}",
        "the cheapest card that beats {rank}",
    ),
    "play.bot.win_cheap_plain": ("billigste kort som vinner", "the cheapest card that wins"),
    "play.bot.sacrifice_low": (
        "kan ikke vinne billig, så den ofrer det laveste kortet",
        "cannot win cheaply, so it gives up its lowest card",
    ),
    "play.bot.must_pick_up": ("ingenting slår {target}: tar opp", "nothing beats {target}: picks up"),
    "play.bot.cheapest_beat": (
        "billigste utspill som slår {target}",
        "the cheapest play that beats {target}",
    ),
    "play.bot.pickup_cheaper": (
        "bare trumf slår {target}, og det er billigere å ta opp {oldest}",
        "only a trump beats {target}, and picking up {oldest} is cheaper",
    ),
    "play.bot.network": (
        "det trente nettet har mest tro på {move}",
        "the trained network rates {move} best",
    ),
    "play.bot_why": ("  ({who}: {reason})", "  ({who}: {reason})"),
    # help
    "play.help.title": ("Slik spiller du", "How to play"),
    "play.help.card_cmd": ("7h  10h  Th  K♠", "7h  10h  Th  K♠"),
    "play.help.card": (
        "spill et kort: valør og så sort (k/c ♣ kløver, r/d ♦ ruter, h ♥ hjerter, s ♠ spar)",
        "play a card: rank then suit (c ♣ clubs, d ♦ diamonds, h ♥ hearts, s ♠ spades)",
    ),
    "play.help.sequence_cmd": ("6h-8h", "6h-8h"),
    "play.help.sequence": (
        "spill en serie, laveste og høyeste kort (bare i utspillingen)",
        "play a sequence, lowest and highest card (shedding only)",
    ),
    "play.help.number_cmd": ("1  2  3 …", "1  2  3 …"),
    "play.help.number": ("velg et trekk fra den nummererte lista", "choose a move from the numbered list"),
    "play.help.enter_cmd": ("Enter", "Enter"),
    "play.help.enter": (
        "spill det eneste lovlige trekket når det bare er ett; mens botene spiller: hopp fram til din tur",
        "play the only legal move when there is just one; while the bots move: skip ahead to your turn",
    ),
    "play.help.chance_cmd": ("sjanse", "chance"),
    "play.help.chance": (
        "spill det øverste kortet i trekkbunken usett (bare i innsamlingen)",
        "play the top card of the stock unseen (collecting only)",
    ),
    "play.help.pickup_cmd": ("ta opp", "pickup"),
    "play.help.pickup": (
        "ta det eldste utspillet på bordet inn på hånden (bare i utspillingen)",
        "take the oldest play on the table into your hand (shedding only)",
    ),
    "play.help.hint_cmd": ("hint", "hint"),
    "play.help.hint": ("spør den sterke boten hva den ville gjort", "ask the strong bot what it would do"),
    "play.help.rules_cmd": ("regler", "rules"),
    "play.help.rules": ("vis reglene dere spiller med", "show the rules of this game"),
    "play.help.show_cmd": ("vis", "show"),
    "play.help.show": ("vis bordet på nytt", "show the table again"),
    "play.help.help_cmd": ("hjelp", "help"),
    "play.help.help": ("vis denne hjelpen", "show this help"),
    "play.help.quit_cmd": ("avslutt", "quit"),
    "play.help.quit": (
        "avslutt; spillet så langt blir lagret (Ctrl-D gjør det samme)",
        "stop; the game so far is saved (Ctrl-D does the same)",
    ),
    "play.help.game": (
        "Innsamling: høyeste valør tar stikket, sorten teller ikke. Utspilling: slå det nyeste "
        "utspillet med høyere kort i samme sort eller med trumf, eller ta opp det eldste. Den "
        "som sitter igjen med kort til slutt, er Mattis. Engelske ord (chance, pickup, help) "
        "virker også.",
        "Collecting: the highest rank takes the trick, suits do not count. Shedding: beat the "
        "newest play with a higher card of its suit or a trump, or pick up the oldest. The last "
        "player left with cards is Mattis. Norwegian words (sjanse, ta opp, hjelp) work too.",
    ),
    "play.rules_title": ("Regler: {preset}", "Rules: {preset}"),
    "play.rules_title_house": ("Regler: {preset} med husregler", "Rules: {preset} with house rules"),
    "play.rules_more": (
        "Hele reglene: «mattis rules --full --lang nb». Valgene: «mattis rules {preset} --lang nb».",
        "The full rules: 'mattis rules --full --lang en'. The options: 'mattis rules {preset} --lang en'.",
    ),
    # the game and the match
    "play.welcome": ("Mattis · {rules} · {players} spillere", "Mattis · {rules} · {players} players"),
    "play.house_rules": ("husregler", "house rules"),
    "play.house_rules_of": ("{preset} med husregler", "{preset} with house rules"),
    "play.seating": (
        "Du sitter på plass {seat}. Motspillere: {others}.",
        "You sit in seat {seat}. Opponents: {others}.",
    ),
    "play.match_intro": (
        "Dere spiller {games} spill. Taperen gir i neste spill, og vi teller hvor mange ganger "
        "hver av dere blir Mattis.",
        "You play {games} games. The loser deals the next game, and we count how often each "
        "player is Mattis.",
    ),
    "play.blodmattis_warning": (
        "Merk: Med så mange spillere og disse reglene ender de fleste spill med Blodmattis etter "
        "innsamlingen. Det er få stikk å dele, og bare stikkbunken teller.",
        "Note: with this many players and these rules, most games end with Blodmattis after "
        "collecting. There are few tricks to share, and only the won pile counts.",
    ),
    "play.how_to": (
        "Skriv et kort (som 7h), et nummer fra lista eller «hjelp». Skriv «avslutt» når du vil; "
        "spillet blir lagret.",
        "Type a card (like 7h), a number from the list, or 'help'. Type 'quit' whenever you like; "
        "the game is saved.",
    ),
    "play.pace_note": (
        "Botene spiller ett trekk om gangen; trykk Enter for å hoppe fram til din tur.",
        "The bots move one at a time; press Enter to skip ahead to your turn.",
    ),
    "play.game_one": ("Nytt spill", "New game"),
    "play.game_n": ("Spill {number} av {games}", "Game {number} of {games}"),
    "play.dealer_is": ("giver: {who}", "dealer: {who}"),
    "play.saving_to": ("Spillet lagres underveis i {path}", "The game is saved as you go in {path}"),
    "play.prompt": ("Ditt trekk: ", "Your move: "),
    "play.prompt_forced": (
        "Ditt trekk (Enter spiller {move}, det eneste lovlige): ",
        "Your move (Enter plays {move}, the only legal move): ",
    ),
    "play.auto_forced": (
        "Du har bare ett lovlig trekk, {move}, og det spilles for deg.",
        "You have only one legal move, {move}, so it is played for you.",
    ),
    "play.legend_trump": ("(understreket = trumf)", "(underlined = trump)"),
    "play.legend_trump_later": (
        "(understreket = trumf, som først teller i utspillingen)",
        "(underlined = trump, which only counts in shedding)",
    ),
    "play.others_play_on": (
        "… de andre spiller videre (viser bare hvem som går ut)",
        "… the others play on (showing only who goes out)",
    ),
    "play.result_one": ("{who} er Mattis!", "{who} is Mattis!"),
    "play.result_you": ("{who} er Mattis!", "{who} are Mattis!"),
    "play.result_many": ("{who} er Mattis!", "{who} are Mattis!"),
    "play.result_empty_one": (
        "{who} er {name}: tom etter innsamlingen!",
        "{who} is {name}: empty after collecting!",
    ),
    "play.result_empty_you": (
        "{who} er {name}: tom etter innsamlingen!",
        "{who} are {name}: empty after collecting!",
    ),
    "play.result_empty_many": (
        "{who} er {name}: tomme etter innsamlingen!",
        "{who} are {name}: empty after collecting!",
    ),
    "play.out_order": ("Gikk ut: {order}", "Went out: {order}"),
    "play.you_lost": (
        "Du ble Mattis denne gangen. Bedre lykke neste gang!",
        "You were Mattis this time. Better luck next time!",
    ),
    "play.you_escaped": ("Du slapp unna: du er ikke Mattis!", "You got away: you are not Mattis!"),
    "play.saved": ("Spillet er lagret i {path}", "The game is saved in {path}"),
    "play.save_failed": (
        "Kunne ikke lagre spillet i {path}: {error}",
        "Could not save the game in {path}: {error}",
    ),
    "play.replace_prompt": (
        "{path} har et lagret spill. Erstatte det? [j/N] ",
        "{path} holds a saved game. Replace it? [y/N] ",
    ),
    "play.not_saved": (
        "Spillet ble IKKE lagret i {path}: {error}",
        "The game was NOT saved in {path}: {error}",
    ),
    "play.saved_again": (
        "Lagringen virker igjen: spillet er lagret i {path}",
        "Saving works again: the game is saved in {path}",
    ),
    "play.stopped": ("Spillet ble avbrutt.", "The game was stopped."),
    "play.score_after": (
        "Stillingen etter {played} av {games} spill",
        "The score after {played} of {games} games",
    ),
    "play.score_final": ("Sluttstilling etter {games} spill", "Final score after {games} games"),
    "play.loser_deals": ("Taperen gir i neste spill: {who}.", "The loser deals the next game: {who}."),
    "play.match_best": (
        "Færrest ganger Mattis: {who} ({count}).",
        "Fewest times Mattis: {who} ({count}).",
    ),
    "play.next_game": (
        "Trykk Enter for neste spill (eller skriv «avslutt»): ",
        "Press Enter for the next game (or type 'quit'): ",
    ),
    # replays
    "play.replay_title": (
        "Reprise · {rules} · {players} spillere · {actions} trekk",
        "Replay · {rules} · {players} players · {actions} moves",
    ),
    "play.replay_seats": ("Plasser: {seats}", "Seats: {seats}"),
    "play.replay_all": ("Alle hender vises.", "Every hand is shown."),
    "play.replay_seat": ("Sett fra plassen til {who}.", "Seen from the seat of {who}."),
    "play.replay_yours": ("Sett fra din plass.", "Seen from your seat."),
    "play.replay_prompt": ("Enter: neste trekk · q: stopp ", "Enter: next move · q: stop "),
    "play.replay_bad_level": (
        "Navnene i filen kan ikke leses (ukjent botnivå {level} på plass {seat}), så plassene "
        "vises med nummer.",
        "The names in the file cannot be read (unknown bot level {level} at seat {seat}), so "
        "seats are shown by number.",
    ),
    "play.replay_no_names": (
        "Navnene i filen kan ikke leses, så plassene vises med nummer.",
        "The names in the file cannot be read, so seats are shown by number.",
    ),
    "play.replay_prompt_back": (
        "Enter: neste trekk · b: tilbake · q: stopp ",
        "Enter: next move · b: back · q: stop ",
    ),
    "play.replay_back": ("Tilbake til før trekk {number}.", "Back to before move {number}."),
    "play.replay_at_start": ("Dette er starten av spillet.", "This is the start of the game."),
    "play.recent_title": ("Nylige spill i {folder}", "Recent games in {folder}"),
    "play.recent_none": (
        "Ingen lagrede spill i {folder} ennå. Spill ett med «mattis play».",
        "No saved games in {folder} yet. Play one with 'mattis play'.",
    ),
    "play.recent_how": (
        "Se et spill igjen: «mattis replay NUMMER» eller «mattis replay FIL».",
        "Watch one again: 'mattis replay NUMBER' or 'mattis replay FILE'.",
    ),
    "play.recent_col.when": ("Lagret", "Saved"),
    "play.recent_col.rules": ("Regler", "Rules"),
    "play.recent_col.result": ("Resultat", "Result"),
    "play.recent_col.file": ("Fil", "File"),
    "play.recent_unreadable": ("kan ikke leses", "cannot be read"),
    "play.replay_unfinished": ("Spillet ble ikke spilt ferdig.", "The game was not finished."),
    # a game reviewed (mattis review, and the browser's review screen)
    "play.review.played": ("Trekk {number} (fase {phase}), spilt: {play}.",
                           "Move {number} (phase {phase}), played: {play}."),
    "play.review.better_play": (
        "Å spille {play} her ville ha senket risikoen fra {risk} til {best_risk}.",
        "Playing {play} here would have lowered the risk from {risk} to {best_risk}.",
    ),
    "play.review.better_chance": (
        "Å sjanse her ville ha senket risikoen fra {risk} til {best_risk}.",
        "Chancing here would have lowered the risk from {risk} to {best_risk}.",
    ),
    "play.review.better_pickup": (
        "Å ta opp her ville ha senket risikoen fra {risk} til {best_risk}.",
        "Picking up here would have lowered the risk from {risk} to {best_risk}.",
    ),
    "play.review.uncertainty": ("usikkerhet ± {points} prosentpoeng",
                                "uncertainty ± {points} percentage points"),
}
