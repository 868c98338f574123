"""The offline app's texts (keys ``app.…``), in bokmål and English.

``app.level_help.…`` say what each bot level does (``{seconds}`` is the ``hard`` or ``expert``
bot's budget where it plays: the server's ``--hard-seconds``, or the phone budget on the device);
``app.ui.…`` are the labels of installing, updating and playing with no server, served to
the pages by ``GET /api/texts`` with the ``web.ui.…`` labels; ``web.err.open_elsewhere`` is the
worker's one refusal the server never gives.

Data only: :func:`mattis.i18n.catalogues` gathers it with the others.
"""

from __future__ import annotations

APP_MESSAGES: dict[str, tuple[str, str]] = {
    "app.level_help.random": ("spiller et tilfeldig lovlig kort", "plays a random legal move"),
    "app.level_help.easy": ("enkle tommelfingerregler, av og til forhastet",
                            "simple rules of thumb, with the odd hasty move"),
    "app.level_help.normal": ("spiller som et forsiktig menneske", "plays like a careful person"),
    "app.level_help.hard": ("søker gjennom mulige spill, opptil {seconds} s per trekk",
                            "searches possible games, up to {seconds} s a move"),
    "app.level_help.learned": ("et lite nevralt nett som har lært seg spillet mot robotene",
                               "a small neural network that learned the game against the bots"),
    "app.level_help.expert": ("søker lenger og spiller de mulige spillene ut med kortsans, "
                              "opptil {seconds} s per trekk",
                              "searches longer and plays the possible games out with card sense, "
                              "up to {seconds} s a move"),
    "app.ui.offline": ("Ingen tjener svarer: du spiller mot roboter på denne enheten.",
                       "No server answers: you play against bots on this device."),
    "app.ui.on_device": ("På denne enheten", "On this device"),
    "app.ui.update_ready": ("En ny versjon av Mattis er klar.", "A new version of Mattis is ready."),
    "app.ui.update_now": ("Oppdater", "Update"),
    "app.ui.loading_engine": ("Laster spillmotoren …", "Loading the game engine …"),
    "web.err.open_elsewhere": (
        "Dette bordet er åpent i en annen fane eller et annet vindu; spill videre der, eller lukk det.",
        "This table is open in another tab or window; play on there, or close it."),
}
