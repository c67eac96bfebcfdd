"""``python -m bean_env.training.rllib``: the RLlib trainer's command line (``bean-env train rllib``)."""
from .trainer import main

main()
