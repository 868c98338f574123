"""Mini Mattis (docs/rules.en.md, "Research variant: mini"): deals, bots playing it to the
end, perfect-recall information states, and ``mattis solve``."""

from __future__ import annotations

import itertools
import json
import pickle

import pytest

from mattis.bots import make_agent, play_game
from mattis.core.game import Game
from mattis.core.mini import MINI_CARDS, deal_cards, deal_count, new_mini_game
from mattis.core.rules import PRESETS
from mattis.extras import install_command


def test_mini_is_a_research_variant_not_a_family_preset() -> None:
    assert "mini" not in PRESETS
    assert deal_count() == 140  # C(7,3) * C(4,3) * 1! stock orders


@pytest.mark.parametrize("deal", [0, 57, 139])
def test_a_mini_deal_holds_the_mini_cards_and_the_rest_is_removed(deal: int) -> None:
    game = new_mini_game(deal)
    position = game.position()
    order = deal_cards(deal)
    assert position.hands[0] == sum(1 << card for card in order[:3])
    assert position.hands[1] == sum(1 << card for card in order[3:6])
    assert position.stock == order[6:]
    assert position.trump_card == order[-1]  # P1.6: the stock's last card
    assert position.removed == ((1 << 52) - 1) & ~sum(1 << card for card in MINI_CARDS)
    assert game.to_move == 0


@pytest.mark.parametrize("levels", [("random", "random"), ("easy", "normal"), ("normal", "easy")])
def test_bots_play_mini_games_legally_to_the_end(levels: tuple[str, str]) -> None:
    for deal in range(0, deal_count(), 13):
        game = new_mini_game(deal)
        played = play_game(game, [make_agent(level) for level in levels], seed=deal)
        assert not played.capped and game.is_over
        replay = Game.from_position(new_mini_game(deal).position())
        for action in game.actions:  # every move was legal from the same start
            assert action in replay.legal_actions()
            replay.apply(action)
        assert replay.result == game.result


# -- OpenSpiel (the rl extra)


def _seen_sequence(state: object, player: int) -> tuple[str, ...]:
    """What ``player`` saw, step by step: its view (without the history fields) after each
    action, and the actions themselves (all actions are public)."""
    game = state.mattis_game  # type: ignore[attr-defined]
    replay = Game.from_position(state.box.start)  # type: ignore[attr-defined]
    seen = []

    def view_text() -> str:
        view = replay.view(player)
        for key in ("history", "history_start", "event_count"):
            view.pop(key, None)
        return json.dumps(view, sort_keys=True)

    seen.append(view_text())
    for action in game.actions:
        replay.apply(action)
        seen.append(f"{action}|{view_text()}")
    return tuple(seen)


def test_mini_information_states_are_perfect_recall() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import mattis.envs.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_mattis(rules=mini,max_actions=6,deals=12)")
    by_string: dict[str, tuple[str, ...]] = {}
    by_seen: dict[tuple[str, ...], str] = {}

    def walk(state: object) -> None:
        if state.is_terminal():  # type: ignore[attr-defined]
            return
        if state.is_chance_node():  # type: ignore[attr-defined]
            for outcome, _ in state.chance_outcomes():  # type: ignore[attr-defined]
                walk(state.child(outcome))  # type: ignore[attr-defined]
            return
        player = state.current_player()  # type: ignore[attr-defined]
        text = state.information_state_string(player)  # type: ignore[attr-defined]
        seen = _seen_sequence(state, player)
        assert by_string.setdefault(text, seen) == seen  # one string: one seen history
        assert by_seen.setdefault(seen, text) == text  # one seen history: one string
        for action in state.legal_actions():  # type: ignore[attr-defined]
            walk(state.child(action))  # type: ignore[attr-defined]

    walk(game.new_initial_state())
    assert len(by_string) > 100


def test_mini_chance_root_is_one_node_of_every_deal() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import mattis.envs.openspiel  # noqa: F401

    state = pyspiel.load_game("python_mattis(rules=mini)").new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == deal_count()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    state.apply_action(outcomes[3][0])
    assert not state.is_chance_node() and state.current_player() == 0
    assert state.mattis_game.position() == new_mini_game(3).position()
    state.apply_action(state.legal_actions()[0])
    copy = pickle.loads(pickle.dumps(state))  # OpenSpiel's serialization of a Python state
    assert copy.information_state_string(1) == state.information_state_string(1)
    assert str(copy) == str(state)


def test_cfr_plus_nash_conv_falls_on_a_small_mini() -> None:
    pytest.importorskip("pyspiel")
    from mattis.envs.solve import solve_mini

    report = solve_mini(3, levels=["random", "easy"], max_actions=6, deals=5)
    curve = [value for _, value in report.curve]
    assert curve[-1] < curve[0]
    assert all(later <= earlier + 1e-12 for earlier, later in itertools.pairwise(curve))
    levels = dict(report.levels)
    assert levels["random"] > 0.0  # uniform play is exploitable here


def test_mattis_solve_runs_in_process() -> None:
    pytest.importorskip("pyspiel")
    from typer.testing import CliRunner

    from mattis.cli.app import app

    result = CliRunner().invoke(app, ["solve", "--rules", "mini", "--iterations", "2", "--max-actions", "6",
                                      "--deals", "3", "--levels", "random,hard:2", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert [point["iteration"] for point in report["nash_conv"]] == [1, 2]
    assert [entry["level"] for entry in report["levels"]] == ["random", "hard:2"]


def test_mattis_solve_refuses_other_rules_and_learned() -> None:
    from typer.testing import CliRunner

    from mattis.cli.app import app

    assert CliRunner().invoke(app, ["solve", "--rules", "pagat", "--lang", "en"]).exit_code == 2
    pytest.importorskip("pyspiel")
    assert CliRunner().invoke(app, ["solve", "--levels", "learned", "--lang", "en"]).exit_code == 2




def test_mattis_solve_names_its_extra_when_it_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from mattis.cli import solve
    from mattis.cli.app import app

    monkeypatch.setattr(solve, "missing_modules", lambda extra: ("pyspiel",) if extra == "rl" else ())
    result = CliRunner().invoke(app, ["solve", "--lang", "en"])
    assert result.exit_code == 2
    assert f'mattis solve needs the rl extra: {install_command("rl")}' in result.output
