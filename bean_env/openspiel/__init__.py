"""OpenSpiel games of every bean_env variant (the ``openspiel`` extra: ``pip install 'bean-env[openspiel]'``).

    import bean_env.openspiel, pyspiel
    game = pyspiel.load_game("python_bean_duel")            # python_bohnanza, python_al_cabohne, ...
    game = pyspiel.load_game("python_bohnanza", {"num_players": 3, "max_trade_rounds": 1})

Importing this package registers the games. Details: ``bean_env.openspiel.game``. Core modules never
import it.
"""
from .game import GAME_PREFIX, BeanGame, BeanObserver, BeanState, register_all

GAMES = register_all()

__all__ = ["GAMES", "GAME_PREFIX", "BeanGame", "BeanObserver", "BeanState", "register_all"]
