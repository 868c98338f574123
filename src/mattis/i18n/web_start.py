"""The start page's and the rules page's texts, in bokmål and English.

``web.ui.…`` keys reach the pages through ``GET /api/texts`` (without the prefix, like the
other page labels in :mod:`.web`); ``web.rules.…`` keys are read by the server when it writes
the rules page, so they never travel to the start page. Both speak to a family at a table:
plain words first, the presets' names and rule numbers only where someone looks for them.

Data only: :func:`mattis.i18n.catalogues` gathers it with the others.
"""

from __future__ import annotations

START_MESSAGES: dict[str, tuple[str, str]] = {
    # ------------------------------------------------------------------ the start page
    "web.ui.start_tagline": (
        "Det norske kortspillet for hele familien.", "The Norwegian card game for the whole family."),
    "web.ui.how_to_play": ("Slik spiller du", "How to play"),
    "web.ui.theme": ("Mørkt tema", "Dark theme"),
    "web.ui.name_optional": ("Hva heter du? (kan stå tomt)", "Your name (you may leave it empty)"),
    "web.ui.computer_title": ("Spill mot datamaskinen", "Play against the computer"),
    "web.ui.computer_one": ("Du og én datamaskin ({levels})", "You and one computer player ({levels})"),
    "web.ui.computer_many": ("Du og {n} datamaskiner ({levels})", "You and {n} computer players ({levels})"),
    "web.ui.quick_rules": ("Regler: {rules}", "Rules: {rules}"),
    "web.ui.quick_start": ("Spill nå", "Play now"),
    "web.ui.quick_change": ("Velg regler og spillere selv", "Choose the rules and players yourself"),
    "web.ui.dealing": ("Deler ut …", "Dealing …"),
    "web.ui.friends_title": ("Spill med venner", "Play with friends"),
    "web.ui.friends_text": (
        "Lag et bord med ledige plasser. Send lenken, eller la vennene skanne koden med mobilen. "
        "Plasser ingen tar, kan datamaskinen overta.",
        "Make a table with free seats. Send the link, or let your friends scan the code with "
        "their phones. The computer can take any seat nobody takes."),
    "web.ui.friends_count": ("Hvor mange er dere, med deg?", "How many of you, counting you?"),
    "web.ui.friends_start": ("Lag et bord for venner", "Make a table for friends"),
    "web.ui.continue_last": ("Fortsett det siste bordet ditt", "Back to your last table"),
    "web.ui.setup_title": ("Velg alt selv", "Choose everything yourself"),
    "web.ui.rules_choice": ("Hvilke regler?", "Which rules?"),
    "web.ui.preset_name": ("regelsett «{name}»", "rule set “{name}”"),
    "web.ui.player_count": ("Hvor mange spillere?", "How many players?"),
    "web.ui.seat_computer": ("Datamaskin: {level}", "Computer: {level}"),
    "web.ui.seat_friend": ("Ledig plass for en venn", "Free seat for a friend"),
    "web.ui.house_rules_help": (
        "Spiller dere litt annerledes hjemme? Endre det her.",
        "Do you play a little differently at home? Change it here."),
    "web.ui.house_rules_changed": ("{n} endret", "{n} changed"),
    "web.ui.house_rules_reset": ("Tilbake til reglene slik de er", "Back to the rules as they are"),
    "web.ui.house_rules_details": ("Navn og regelnumre", "Names and rule numbers"),
    "web.ui.details_option": ("Regel", "Rule"),
    "web.ui.details_field": ("Navn i programmet", "Name in the program"),
    "web.ui.details_rule": ("Regelnummer", "Rule number"),
    "web.ui.details_value": ("Valgt", "Chosen"),
    # The presets in words: a title a family recognises and one sentence on how it plays.
    "web.ui.preset_title.pagat": ("Den vanlige", "The usual way"),
    "web.ui.preset_text.pagat": (
        "Alle legger et kort til hvert stikk, og like kort spiller om igjen. 3–6 spillere.",
        "Everyone plays a card to each trick, and equal cards play again. 3–6 players."),
    "web.ui.preset_title.kortregler": ("Dueller, også for to", "Duels, also for two"),
    "web.ui.preset_text.kortregler": (
        "Hvert stikk er en duell mellom to naboer, og likt gir krig med to kort. "
        "Du må slå når du kan. 2–6 spillere.",
        "Each trick is a duel between two neighbours, and a tie is a war with two cards each. "
        "You must beat when you can. 2–6 players."),
    "web.ui.preset_title.app": ("Trumf fra start", "Trump from the start"),
    "web.ui.preset_text.app": (
        "Trumfen snus ved utdelingen, to like kort gir krig, og du må følge sort. 3–6 spillere.",
        "The trump is turned up at the deal, any two equal cards start a war, and you must "
        "follow suit. 3–6 players."),
    # ------------------------------------------------------------------ the rules page
    "web.rules.title": ("Regler for Mattis", "The rules of Mattis"),
    "web.rules.back": ("Tilbake til spillet", "Back to the game"),
    "web.rules.play_now": ("Spill nå", "Play now"),
    "web.rules.lead": (
        "Mattis spilles med en vanlig kortstokk, av 2 til 6 spillere. Ingen vinner: den som "
        "sitter igjen med kort til slutt, er Mattis.",
        "Mattis is played with an ordinary pack of cards, by 2 to 6 players. Nobody wins: the "
        "one left holding cards at the end is Mattis."),
    "web.rules.howto_title": ("Slik spiller du", "How to play"),
    "web.rules.howto_note": (
        "Slik spiller de fleste. Andre måter å spille på står lenger ned.",
        "This is how most people play. Other ways to play follow further down."),
    "web.rules.step.deal_title": ("Utdelingen", "The deal"),
    "web.rules.step.deal": (
        "Alle får tre kort. Resten blir en bunke med baksiden opp. Det siste kortet i bunken "
        "bestemmer trumfen, men ingen får se det før andre halvdel.",
        "Everyone gets three cards. The rest is a face-down pile, the stock. Its last card "
        "decides the trump suit, but nobody sees it until the second half."),
    "web.rules.example.deal": ("Tre kort på hånden, og bunken.", "Three cards in your hand, and the stock."),
    "web.rules.step.trick_title": ("Første halvdel: samle kort", "First half: collect cards"),
    "web.rules.step.trick": (
        "Alle legger et kort. Høyeste kort tar stikket, og sorten spiller ingen rolle ennå. "
        "Vunne kort legger du i din egen bunke. Etter hvert kort trekker du et nytt, så du har "
        "tre. Vil du, kan du sjanse: snu det øverste kortet i bunken og spille det rett ut.",
        "Everyone plays a card. The highest card takes the trick, and suits do not matter yet. "
        "Cards you win go onto your own pile. After each card you draw a new one, so you keep "
        "three. If you like, you may chance it: turn the top card of the stock and play it as "
        "it is."),
    "web.rules.example.trick": (
        "Ola har det høyeste kortet, kongen, og tar alle tre.",
        "Ola has the highest card, the king, and takes all three."),
    "web.rules.step.war_title": ("Likt: krig!", "A tie: war!"),
    "web.rules.step.war": (
        "Er de høyeste kortene like, spiller bare de som står likt, ett kort til hver. Den som "
        "vinner krigen, tar alt.",
        "If the highest cards are equal, only the tied players play again, one more card each. "
        "Whoever wins the war takes everything."),
    "web.rules.example.war": (
        "Kari og Siri har hver sin konge. I krigen slår Siris knekt Karis firer, og Siri tar "
        "alle fem kortene.",
        "Kari and Siri both played a king. In the war Siri's jack beats Kari's four, and Siri "
        "takes all five cards."),
    "web.rules.war_round": ("Krigen", "The war"),
    "web.rules.step.beat_title": ("Andre halvdel: bli kvitt kortene", "Second half: get rid of them"),
    "web.rules.step.beat": (
        "Når noen ikke har mer å spille, er første halvdel over. Bunken din blir den nye hånden "
        "din, og trumfen vises. Nå vil du bli kvitt kortene: du slår det nyeste kortet på "
        "bordet med et høyere kort i samme sort, eller med trumf.",
        "When someone has nothing left to play, the first half is over. Your pile becomes your "
        "new hand, and the trump is shown. Now you want to get rid of your cards: you beat the "
        "newest card on the table with a higher card of its suit, or with a trump."),
    "web.rules.example.beat": (
        "Spar er trumf. Ola slår Karis 7♥ med 10♥. Også 2♠ hadde slått den, for all trumf "
        "slår de andre sortene.",
        "Spades are trump. Ola beats Kari's 7♥ with the 10♥. The 2♠ would have beaten it too, "
        "since any trump beats the other suits."),
    "web.rules.or": ("eller", "or"),
    "web.rules.step.pickup_title": ("Ta opp", "Pick up"),
    "web.rules.step.pickup": (
        "Kan du ikke slå, eller vil du ikke, tar du opp det eldste kortet på bordet. Neste "
        "spiller slår eller tar opp det som ligger igjen.",
        "If you cannot beat, or would rather not, you pick up the oldest card on the table. The "
        "next player beats or picks up what is left."),
    "web.rules.example.pickup": (
        "Siri vil ikke slå 8♣–9♣, så hun tar opp det eldste kortet, Karis 4♣.",
        "Siri would rather not beat the 8♣–9♣, so she picks up the oldest card, Kari's 4♣."),
    "web.rules.picks_up": ("{who} tar opp", "{who} picks up"),
    "web.rules.step.sequence_title": ("Serier", "Sequences"),
    "web.rules.step.sequence": (
        "Kort som følger hverandre i samme sort kan spilles sammen, som 6♥ 7♥ 8♥. For å slå "
        "en serie i sorten må det laveste kortet ditt være høyere enn seriens høyeste.",
        "Cards that follow each other in one suit may be played together, such as 6♥ 7♥ 8♥. "
        "To beat a sequence in its suit, your lowest card must be above its highest."),
    "web.rules.example.sequence": (
        "Kari blir kvitt tre kort på én gang. Ola slår serien med 9♥, som er høyere enn 8♥.",
        "Kari gets rid of three cards at once. Ola beats the sequence with the 9♥, which is "
        "above the 8♥."),
    "web.rules.step.end_title": ("Mattis", "Mattis"),
    "web.rules.step.end": (
        "Når det ligger like mange kort eller serier på bordet som det er spillere med, er "
        "runden ferdig: de går ut av spillet, og den som spilte sist begynner neste runde. Den "
        "som blir kvitt alle kortene sine, er ute. Den siste som har kort igjen, er Mattis.",
        "When the table holds as many cards or sequences as there are players still in, the "
        "round is complete: they leave the game, and whoever played last starts the next round. "
        "Whoever gets rid of all their cards is out. The last one with cards left is Mattis."),
    "web.rules.trump": ("Trumf: {suit}", "Trump: {suit}"),
    "web.rules.beats": ("slår", "beats"),
    "web.rules.variants_title": ("Andre måter å spille på", "Other ways to play"),
    "web.rules.variants_intro": (
        "Familier spiller Mattis litt ulikt. Du velger måten på startsiden.",
        "Families play Mattis in slightly different ways. You choose on the start page."),
    "web.rules.variant.pagat": (
        "Slik som beskrevet over. Den som står helt uten kort etter første halvdel, taper med "
        "en gang (Blåmattis).",
        "As described above. A player left with no cards at all after the first half loses at "
        "once (Blåmattis)."),
    "web.rules.variant.kortregler": (
        "Hvert stikk spilles mellom den som begynner og naboen til venstre. Likt gir krig med "
        "to nye kort hver. Den som står uten kort, må ta opp. Ingen serier, og du må slå når "
        "du kan. Kan også spilles av to: da legges ti kort bort før utdelingen.",
        "Each trick is played between the leader and the neighbour on the left. A tie is a war "
        "with two new cards each. A player with no cards must pick up. No sequences, and you "
        "must beat when you can. Two can play too: then ten cards are put away before the deal."),
    "web.rules.variant.app": (
        "Trumfen snus ved utdelingen, så alle vet den fra start. Ingen sjansing, alle trekker "
        "etter hvert stikk, og to like kort gir krig selv om et annet kort er høyere. Den som "
        "ikke har vunnet et eneste stikk, taper med en gang (Blodmattis). Har du sorten, må du "
        "følge den i stedet for å trumfe.",
        "The trump is turned up at the deal, so everyone knows it from the start. No chancing, "
        "everyone draws after each trick, and two equal cards start a war even when another "
        "card is higher. A player who won no trick at all loses at once (Blodmattis). If you "
        "hold the suit, you must follow it instead of trumping."),
    "web.rules.house_rules": (
        "Husregler: hver av disse tingene kan endres for seg, under «Husregler» på startsiden.",
        "House rules: each of these things can be changed on its own, under “House rules” on "
        "the start page."),
    "web.rules.full_title": ("Alle reglene, med regelnumre", "The full rules, with rule numbers"),
    "web.rules.full_intro": (
        "Til oppslag og uenigheter ved bordet: hver regel har et nummer, som P1.5.",
        "For looking things up and settling arguments: every rule has a number, such as P1.5."),
    "web.rules.intro_section": ("Om reglene", "About the rules"),
    "web.rules.overview_title": ("Alle valgene side om side", "Every option side by side"),
}
